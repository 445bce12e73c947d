import type { Knex } from 'knex';
import type { DbOrTrx } from '../../platform/db/knex';
import type { Booking } from './bookings.types';

/**
 * Units another module holds out of what anyone else can sell (group blocks). Bookings cannot import that module
 * (it creates bookings through this one), so it registers what it holds here when it is built, as stay followers do.
 */
export interface InventoryHolds {
  /** Per category with held units, per night of the `count` from `from`: the units held and not picked up. */
  held(conn: DbOrTrx, hotelId: string, from: string, count: number): Promise<Map<string, number[]>>;
  /**
   * Before a new stay is written into a room: where it may take a held unit (a block's stay, or nights a block holds
   * units of its category), waits for the category's turn, so stays racing for its rooms are written one at a time.
   * Answers whether the stay must be guarded once written (false: nothing is held for it to take, and no block can
   * come to hold its nights before it commits).
   */
  enter(trx: Knex.Transaction, stay: HeldStay): Promise<boolean>;
  /**
   * In the transaction that has just written the stay (created, or its room or dates changed): a `ConflictError`
   * when it takes a unit held for someone else, or when a block's pickup takes more than the block holds.
   */
  guard(trx: Knex.Transaction, booking: Booking): Promise<void>;
}

/** A stay about to be written, as the holds see it. */
export interface HeldStay {
  hotelId: string;
  categoryId: string;
  span: { start: Date; end: Date };
  blockId?: string;
}

/** What the bookings read of the holds: nothing until a module registers them. */
export function createHolds() {
  let holds: InventoryHolds | undefined;
  return {
    /** Called by the module that holds units, when it is built (after bookings, whose service it uses). */
    register(registered: InventoryHolds): void {
      holds = registered;
    },
    held: (conn: DbOrTrx, hotelId: string, from: string, count: number) =>
      holds ? holds.held(conn, hotelId, from, count) : Promise.resolve(new Map<string, number[]>()),
    enter: (trx: Knex.Transaction, stay: HeldStay) => (holds ? holds.enter(trx, stay) : Promise.resolve(false)),
    guard: (trx: Knex.Transaction, booking: Booking) => (holds ? holds.guard(trx, booking) : Promise.resolve()),
  };
}

export type Holds = ReturnType<typeof createHolds>;
