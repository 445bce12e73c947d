export const ROOM_STATUSES = ['dirty', 'cleaning', 'clean', 'inspect', 'maintenance', 'closed'] as const;
export type RoomStatus = (typeof ROOM_STATUSES)[number];
/** `cleaning` is produced only by a housekeeping task in progress. */
export const STAFF_SETTABLE_STATUSES = ROOM_STATUSES.filter((status) => status !== 'cleaning');

export interface RoomCategory {
  id: string;
  hotel_id: string;
  name: string;
  description: string;
  capacity: number;
  base_price: string;
  allow_hourly: boolean;
  hourly_base_price: string | null;
  photos: string[];
  sort_order: number;
  is_active: boolean;
  created_at: Date;
  updated_at: Date;
}

export interface Room {
  id: string;
  hotel_id: string;
  category_id: string;
  number: string;
  name: string | null;
  floor: string | null;
  base_rate: string | null;
  hourly_rate: string | null;
  max_guests: number;
  bed_type: string | null;
  photos: string[];
  early_checkin_fee: string;
  late_checkout_fee: string;
  status: RoomStatus;
  maintenance_from: Date | null;
  maintenance_to: Date | null;
  notes: string;
  created_at: Date;
  updated_at: Date;
}

export type CategoryInput = Partial<Omit<RoomCategory, 'id' | 'hotel_id' | 'created_at' | 'updated_at'>>;
export type RoomInput = Partial<Omit<Room, 'id' | 'hotel_id' | 'created_at' | 'updated_at'>>;

export interface RoomFilter {
  category_id?: string;
  status?: RoomStatus;
  floor?: number;
  search?: string;
}
