import type { RestrictionOverride } from '../restrictions';
export const BOOKING_STATUSES = ['inquiry', 'confirmed', 'checked_in', 'checked_out', 'cancelled'] as const;
export const BOOKING_SOURCES = ['front_desk', 'phone', 'email', 'walk_in', 'online', 'ota', 'other'] as const;
/** Statuses that hold the room: the exclusion constraint covers exactly these. */
export const BLOCKING_STATUSES = ['inquiry', 'confirmed', 'checked_in'] as const;

export type BookingStatus = (typeof BOOKING_STATUSES)[number];
export type BookingSource = (typeof BOOKING_SOURCES)[number];

export interface Booking {
  id: string;
  hotel_id: string;
  room_id: string;
  category_id: string;
  kind: 'nightly' | 'hourly';
  check_in: string | null;
  check_out: string | null;
  start_at: Date;
  end_at: Date;
  status: BookingStatus;
  source: BookingSource;
  guest_last_name: string;
  guest_first_name: string;
  guest_middle_name: string | null;
  guest_phone: string | null;
  guest_email: string | null;
  guests_count: number;
  tariff_id: string | null;
  discount: string;
  price: string;
  price_manual: boolean;
  paid_amount: string;
  /** The sum of the stay's bill lines beside its price (charges positive, discounts negative). */
  charges_amount: string;
  early_checkin: boolean;
  late_checkout: boolean;
  guest_blacklisted: boolean;
  notes: string;
  checked_in_at: Date | null;
  checked_out_at: Date | null;
  cancelled_at: Date | null;
  cancel_reason: string | null;
  created_by: string | null;
  /** Set when management sold the stay against its restrictions: by whom, when, and what it broke. */
  restrictions_override: RestrictionOverride | null;
  /** The group block whose pickup made the stay. */
  block_id: string | null;
  created_at: Date;
  updated_at: Date;
}

export interface BookingInput {
  room_id?: string;
  /** A split stay: its rooms from the check-in to the check-out, in order (as availability's `split` offers them). */
  rooms?: { room_id: string; from: string; to: string }[];
  /**
   * A split stay as the offers show it (the widget's): the nights of each room of `category_id`, booked in the rooms
   * the offer has for them when the booking is made (`bookings.split.ts`), as `rooms`.
   */
  offered_split?: { from: string; to: string }[];
  category_id?: string;
  /**
   * How to place a stay by category when the hotel assigns rooms by hand (`manual`): for bookings nobody at the desk
   * makes (the public widget). Staff may move them afterwards.
   */
  unattended_strategy?: 'spread' | 'together' | 'sequential';
  check_in?: string;
  check_out?: string;
  start_at?: Date;
  end_at?: Date;
  status?: 'inquiry' | 'confirmed';
  source?: BookingSource;
  guest_last_name: string;
  guest_first_name: string;
  guest_middle_name?: string | null;
  guest_phone?: string | null;
  guest_email?: string | null;
  guest_id?: string;
  guests_count?: number;
  tariff_id?: string | null;
  discount?: string;
  price?: string;
  paid_amount?: string;
  early_checkin?: boolean;
  late_checkout?: boolean;
  notes?: string;
  /** Management sells the stay even if it breaks the hotel's restrictions (recorded on the booking). */
  override_restrictions?: boolean;
  /** The block whose pickup this stay is (set by the blocks module only; not part of the booking routes). */
  block_id?: string;
}

export interface BookingChanges {
  status?: BookingStatus;
  room_id?: string;
  check_in?: string;
  check_out?: string;
  start_at?: Date;
  end_at?: Date;
  guest_last_name?: string;
  guest_first_name?: string;
  guest_middle_name?: string | null;
  guest_phone?: string | null;
  guest_email?: string | null;
  guests_count?: number;
  tariff_id?: string | null;
  discount?: string;
  price?: string;
  early_checkin?: boolean;
  late_checkout?: boolean;
  notes?: string;
  cancel_reason?: string;
  source?: BookingSource;
  override_restrictions?: boolean;
}

/** A move of a booking's nights, from `from` (a hotel-local date) to its end, to another room. */
export interface BookingMoveInput {
  room_id: string;
  from?: string;
  reason: string;
  /** Quote the nights moved at the new room's price (default: the price stays). */
  reprice?: boolean;
}

export interface BookingFilter {
  from?: string;
  to?: string;
  status?: BookingStatus;
  room_id?: string;
  q?: string;
}

/** What a line of a stay's bill came from: room service delivered to the room, loyalty points redeemed. */
export const BOOKING_CHARGE_KINDS = ['room_service', 'loyalty_redemption'] as const;
export type BookingChargeKind = (typeof BOOKING_CHARGE_KINDS)[number];

/** A line of a stay's bill beside its price: a charge (positive) or a discount (negative), once per source. */
export interface BookingCharge {
  id: string;
  hotel_id: string;
  booking_id: string;
  kind: BookingChargeKind;
  /** The id of what it bills (an order, a ledger entry): one line per kind and source. */
  source_id: string;
  description: string;
  amount: string;
  created_at: Date;
}

export type BookingChargeInput = Pick<BookingCharge, 'kind' | 'source_id' | 'description' | 'amount'>;
