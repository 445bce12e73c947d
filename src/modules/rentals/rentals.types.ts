export const RENTAL_BOOKING_KINDS = ['hourly', 'daily'] as const;
export const RENTAL_BOOKING_STATUSES = ['confirmed', 'cancelled'] as const;
export const RENTAL_BOOKING_SOURCES = ['front_desk', 'phone', 'walk_in', 'online', 'other'] as const;

export type RentalBookingKind = (typeof RENTAL_BOOKING_KINDS)[number];
export type RentalBookingStatus = (typeof RENTAL_BOOKING_STATUSES)[number];
export type RentalBookingSource = (typeof RENTAL_BOOKING_SOURCES)[number];

export interface OpeningHours {
  open_hour: number;
  close_hour: number;
}

export interface RentalObject extends OpeningHours {
  id: string;
  hotel_id: string;
  name: string;
  icon: string | null;
  color: string | null;
  text_color: string | null;
  price_per_hour: string;
  price_per_day: string;
  sort_order: number;
  is_active: boolean;
  buffer_minutes: number;
  created_at: Date;
  updated_at: Date;
}

export type RentalObjectInput = Partial<Omit<RentalObject, 'id' | 'hotel_id' | 'created_at' | 'updated_at'>>;

/** What the public widget shows of an active object. */
export const PUBLIC_OBJECT_FIELDS = [
  'id',
  'name',
  'icon',
  'color',
  'text_color',
  'price_per_hour',
  'price_per_day',
  'open_hour',
  'close_hour',
  'buffer_minutes',
  'sort_order',
] as const satisfies readonly (keyof RentalObject)[];

export type PublicRentalObject = Pick<RentalObject, (typeof PUBLIC_OBJECT_FIELDS)[number]>;

export interface RentalBooking {
  id: string;
  hotel_id: string;
  rental_object_id: string;
  kind: RentalBookingKind;
  date_from: string | null;
  date_to: string | null;
  start_at: Date;
  end_at: Date;
  buffer_minutes: number;
  blocked_until: Date;
  status: RentalBookingStatus;
  source: RentalBookingSource;
  guest_name: string;
  guest_phone: string;
  guest_email: string | null;
  comment: string;
  booking_id: string | null;
  price: string;
  created_by: string | null;
  cancelled_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

/** When an object is wanted: hours of one day (`hourly`), or whole days, `date_from`..`date_to` inclusive (`daily`). */
export interface RentalSchedule {
  rental_object_id: string;
  kind: RentalBookingKind;
  start_at?: Date;
  end_at?: Date;
  date_from?: string;
  date_to?: string;
}

/** A new rental booking, from the front desk or the public widget (`source: 'online'`); its price is computed. */
export interface RentalBookingInput extends RentalSchedule {
  guest_name: string;
  guest_phone: string;
  guest_email?: string | null;
  comment?: string;
  booking_id?: string | null;
  status?: 'confirmed';
  source?: RentalBookingSource;
}

export type RentalBookingChanges = Partial<Omit<RentalBookingInput, 'status'>> & { status?: RentalBookingStatus };

export interface RentalBookingFilter {
  from: string;
  to: string;
  rental_object_id?: string;
  status?: RentalBookingStatus;
}

/** Who books: a member of staff, or nobody (the public widget). Shaped like the actor of room bookings. */
export interface RentalActor {
  userId: string | null;
  hotelSlug: string;
}

export interface Span {
  start: Date;
  end: Date;
}
