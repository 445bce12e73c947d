export const ORDER_STATUSES = ['new', 'accepted', 'preparing', 'delivered', 'cancelled', 'refunded'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

export interface RoomServiceSettingsRow {
  hotel_id: string;
  enabled: boolean;
  /** `HH:MM` in the hotel's time zone; equal to `closes_at`: around the clock. */
  opens_at: string;
  /** `HH:MM`; before `opens_at`: the hours run past midnight. */
  closes_at: string;
  delivery_fee: string;
  minimum_order: string;
  /** The rooms served; null: every room of the hotel. */
  room_ids: string[] | null;
  updated_at: Date;
}

export type RoomServiceSettingsChanges = Partial<
  Pick<RoomServiceSettingsRow, 'enabled' | 'opens_at' | 'closes_at' | 'delivery_fee' | 'minimum_order' | 'room_ids'>
>;

export interface MenuCategory {
  id: string;
  hotel_id: string;
  name: string;
  sort_order: number;
  created_at: Date;
  updated_at: Date;
}

export type MenuCategoryInput = Partial<Pick<MenuCategory, 'name' | 'sort_order'>>;

export interface MenuItem {
  id: string;
  hotel_id: string;
  category_id: string;
  name: string;
  description: string;
  price: string;
  photo_url: string | null;
  is_available: boolean;
  sort_order: number;
  created_at: Date;
  updated_at: Date;
}

export type MenuItemInput = Partial<
  Pick<MenuItem, 'category_id' | 'name' | 'description' | 'price' | 'photo_url' | 'is_available' | 'sort_order'>
>;

export interface MenuItemFilter {
  category_id?: string;
  is_available?: boolean;
}

export interface OrderRow {
  id: string;
  hotel_id: string;
  number: number;
  booking_id: string;
  room_id: string;
  status: OrderStatus;
  items_total: string;
  delivery_fee: string;
  total: string;
  note: string;
  cancel_reason: string | null;
  refund_reason: string | null;
  created_at: Date;
  updated_at: Date;
  delivered_at: Date | null;
  cancelled_at: Date | null;
  refunded_at: Date | null;
}

/** What an order's later steps set: empty while it is new. */
export type OrderOutcomeField = 'delivered_at' | 'cancelled_at' | 'cancel_reason' | 'refunded_at' | 'refund_reason';

export interface OrderLine {
  item_id: string | null;
  name: string;
  unit_price: string;
  quantity: number;
  amount: string;
}

/** An order as staff and its guest see it, with its lines. */
export type Order = Omit<OrderRow, 'hotel_id'> & { room_number: string; items: OrderLine[] };

export interface OrderFilter {
  status?: OrderStatus;
  room_id?: string;
  booking_id?: string;
  from?: string;
  to?: string;
}

/** How a guest proves the room they order to: its number as guests see it, and the stay's code. */
export interface StayProof {
  room: string;
  code: string;
}

export interface NewOrder {
  items: { item_id: string; quantity: number }[];
  note?: string;
}

export interface StatusMove {
  status: Exclude<OrderStatus, 'new'>;
  reason?: string;
}
