import type { DbOrTrx } from '../../platform/db/knex';
export const MOVEMENT_KINDS = ['receipt', 'write_off', 'inventory', 'consumption'] as const;
export type MovementKind = (typeof MOVEMENT_KINDS)[number];
/** The movements staff post by hand; `consumption` is written only by a task's minibar check. */
export const MANUAL_MOVEMENT_KINDS = ['receipt', 'write_off', 'inventory'] as const;
export type ManualMovementKind = (typeof MANUAL_MOVEMENT_KINDS)[number];

export interface MinibarItem {
  id: string;
  hotel_id: string;
  name: string;
  category: string;
  price: string;
  is_active: boolean;
  sort_order: number;
  created_at: Date;
  updated_at: Date;
}

export type MinibarItemInput = Partial<Pick<MinibarItem, 'name' | 'category' | 'price' | 'is_active' | 'sort_order'>>;

export interface MinibarItemFilter {
  is_active?: boolean;
  category?: string;
}

export interface StockMovement {
  id: string;
  hotel_id: string;
  item_id: string;
  kind: MovementKind;
  /** The signed change applied to the stock. */
  quantity: number;
  /** What was counted, for `inventory` movements. */
  counted_quantity: number | null;
  note: string;
  created_by: string | null;
  task_id: string | null;
  created_at: Date;
}

/** The current stock of an item: the sum of its movements (0 without any; may be negative until a count). */
export interface StockLevel {
  item_id: string;
  name: string;
  category: string;
  price: string;
  is_active: boolean;
  quantity: number;
}

export interface MovementInput {
  item_id: string;
  kind: ManualMovementKind;
  /** receipt / write_off: how many (> 0); inventory: the counted stock (>= 0). */
  quantity: number;
  note?: string;
}

/** Calendar dates `YYYY-MM-DD` in the hotel's time zone, both inclusive. */
export interface DateWindow {
  from?: string;
  to?: string;
}

export interface MovementFilter extends DateWindow {
  item_id?: string;
  kind?: MovementKind;
}

export interface ConsumptionFilter extends DateWindow {
  room_id?: string;
  task_id?: string;
  booking_id?: string;
}

export interface MinibarConsumptionRow {
  id: string;
  hotel_id: string;
  task_id: string;
  room_id: string;
  booking_id: string | null;
  item_id: string;
  quantity: number;
  price_per_unit: string;
  recorded_at: Date;
  recorded_by: string | null;
}

/** A consumption row with the item's name and the amount `quantity * price_per_unit` (decimal string). */
export interface MinibarConsumption extends MinibarConsumptionRow {
  item_name: string;
  item_category: string;
  amount: string;
}

export interface MinibarCheckLine {
  item_id: string;
  quantity: number;
}

/** What a task's minibar check found; `items` replaces whatever the task recorded before. */
export interface MinibarCheck {
  taskId: string;
  roomId: string;
  bookingId?: string | null;
  recordedBy: string;
  items: MinibarCheckLine[];
}

/**
 * What a task's item comes to after a check, told to the module keeping the stay's books (the folios) in the check's
 * transaction: the stay it is charged to (null: none known) and its amount now ('0.00' once the check drops it).
 */
export interface MinibarCharge {
  hotelId: string;
  taskId: string;
  itemId: string;
  /** The task's room: a charge with no booking goes to the stay in house there (the folios find it). */
  roomId: string;
  bookingId: string | null;
  amount: string;
  description: string;
  recordedBy: string;
}

export type MinibarChargeFollower = (trx: DbOrTrx, charge: MinibarCharge) => Promise<void>;
