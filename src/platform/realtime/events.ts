import type { DbOrTrx } from '../db/knex';

/** The PostgreSQL channel every API replica listens on for staff realtime events. */
export const HOTEL_EVENTS_CHANNEL = 'hotel_events';

/** A staff realtime message: small payloads (ids and the changed fields), never whole records. */
export interface HotelEvent {
  type: string;
  payload: Record<string, unknown>;
}

/**
 * Publishes an event to the hotel's connected staff. Call it with the transaction that commits the change:
 * PostgreSQL delivers the notification only on commit, so a rolled-back change emits nothing.
 */
export async function publishHotelEvent(conn: DbOrTrx, hotelId: string, event: HotelEvent): Promise<void> {
  await conn.raw('SELECT pg_notify(?, ?)', [HOTEL_EVENTS_CHANNEL, JSON.stringify({ hotelId, ...event })]);
}
