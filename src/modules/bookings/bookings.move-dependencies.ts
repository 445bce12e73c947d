import type { Knex } from 'knex';
import type { Room, RoomCategory } from '../rooms';
import type { BookingEffects } from './bookings.effects';
import type { InventoryHolds } from './bookings.holds';
import type { BookingsRepository } from './bookings.repository';
import type { createStays } from './bookings.stays';

/** What a move, made by the desk or carried out on its day by the booking's workflow, works with. */
export interface MoveDependencies {
  repository: Pick<BookingsRepository, 'db' | 'transaction' | 'bookings' | 'segments'>;
  effects: Pick<BookingEffects, 'moved' | 'moveSkipped'>;
  /** The vacated room's turnover, as a check-out makes it (the lifecycle's). */
  turnover(trx: Knex.Transaction, hotelId: string, roomId: string, bookingId: string): Promise<unknown>;
  stays: Pick<ReturnType<typeof createStays>, 'hotelOf' | 'tariffOf' | 'quotedPrice'>;
  rooms: { findRoomWithCategory(hotelId: string, id: string, conn: Knex.Transaction): Promise<RoomAndCategory> };
  /** The units group blocks hold: a move into a category takes one of its rooms on the nights moved. */
  holds: Pick<InventoryHolds, 'enter' | 'guard'>;
  /** A planned move carried out this long after it is planned, not on its day (tests). */
  plannedMoveDelayMs?: number;
}

type RoomAndCategory = { room: Room; category: RoomCategory | undefined } | undefined;
