import type Joi from 'joi';
import type { Knex } from 'knex';
import type { DbOrTrx } from '../db/knex';

/** The PostgreSQL channel every API replica listens on for staff realtime events. */
export const HOTEL_EVENTS_CHANNEL = 'hotel_events';

/** How long events stay replayable to a client that reconnects with `?since=<id>`. */
export const REALTIME_REPLAY_HOURS = 24;
/** At most this many missed events are replayed; a client further behind is told to reload (`resync`). */
export const REALTIME_REPLAY_MAX = 1000;

/** A staff realtime message: small payloads (ids and the changed fields), never whole records. */
export interface HotelEvent {
  type: string;
  payload: Record<string, unknown>;
  /** The users whose sockets receive it (e.g. a chat room's members); every socket of the hotel when absent. */
  audience?: readonly string[];
}

/** Who receives an event: absent, the whole hotel. */
export interface EventAudience {
  audience?: readonly string[];
}

/** An event as stored and as it travels: its id orders the hotel's events and is the client's replay cursor. */
export interface StoredHotelEvent extends HotelEvent {
  id: number;
  hotelId: string;
}

/**
 * The notification on {@link HOTEL_EVENTS_CHANNEL}: the whole event, or only `{ id, hotelId }` when the event would
 * not fit in pg_notify's 8000 bytes (the listener then reads the row).
 */
export type HotelEventNotification =
  StoredHotelEvent | { id: number; hotelId: string; type?: undefined } | EphemeralHotelEventNotification;

/** An event that is not stored (presence, typing): it has no place in the hotel's order and is never replayed. */
export interface EphemeralHotelEventNotification extends HotelEvent {
  ephemeral: true;
  hotelId: string;
  id?: undefined;
}

/** Whether a socket of `userId` receives `event`. */
export function reaches(event: Pick<HotelEvent, 'audience'>, userId: string): boolean {
  return !event.audience || event.audience.includes(userId);
}

/**
 * Publishes an event to the hotel's connected staff. Call it with the transaction that commits the change: the
 * event is a row of `realtime_events` (so a client that reconnects can be replayed what it missed), and a trigger
 * that runs at commit numbers it in commit order and sends the notification. A rolled-back change emits nothing.
 */
export async function publishHotelEvent(conn: DbOrTrx, hotelId: string, event: HotelEvent): Promise<void> {
  await publishingHotelEvent(conn, hotelId, event);
}

/** {@link publishHotelEvent} as a part of a larger statement (a data-modifying CTE), or run on its own. */
function publishingHotelEvent(conn: DbOrTrx, hotelId: string, event: HotelEvent): Knex.Raw {
  return publishHotelEventsFrom(
    conn,
    hotelId,
    event.type,
    conn.raw('SELECT ?::jsonb AS payload, ?::uuid[] AS audience', [
      JSON.stringify(event.payload),
      event.audience ? [...event.audience] : null,
    ]),
  );
}

/**
 * {@link publishHotelEvent} as a part of a larger statement (a data-modifying CTE), for a writer whose event is made of
 * what the same statement writes: one event of `type` for the hotel per row of `rows`, a query over the statement's
 * other parts with the columns `payload` (jsonb) and `audience` (uuid[]; null: every socket of the hotel). The one
 * insert of `realtime_events`.
 */
export function publishHotelEventsFrom(conn: DbOrTrx, hotelId: string, type: string, rows: Knex.Raw): Knex.Raw {
  // The id is provisional (negative) until the commit trigger gives the event its place in the hotel's order.
  return conn.raw(
    `INSERT INTO realtime_events (hotel_id, type, payload, audience)
     SELECT ?::uuid, ?, e.payload, e.audience FROM (?) AS e`,
    [hotelId, type, rows],
  );
}

/**
 * Sends an event to the hotel's connected staff without storing it (presence, typing: worthless a few seconds later).
 * Inside a transaction it leaves at commit; it is never replayed, and a socket gets it with its current position as
 * `id`. Too large for pg_notify, it is dropped (such events are a few ids).
 */
export async function signalHotelEvent(conn: DbOrTrx, hotelId: string, event: HotelEvent): Promise<void> {
  const message: EphemeralHotelEventNotification = { ...event, hotelId, ephemeral: true };
  const text = JSON.stringify(message);
  if (Buffer.byteLength(text) > 7900) return;
  await conn.raw('SELECT pg_notify(?, ?)', [HOTEL_EVENTS_CHANNEL, text]);
}

/** Purges events older than the replay window, remembering per hotel how far its history was cut. */
export async function purgeRealtimeEvents(db: DbOrTrx, keepHours = REALTIME_REPLAY_HOURS): Promise<number> {
  const result = await db.raw(
    `WITH purged AS (
       DELETE FROM realtime_events WHERE created_at < now() - make_interval(hours => ?) AND id > 0
       RETURNING hotel_id, id
     ), horizons AS (
       INSERT INTO realtime_event_horizons (hotel_id, purged_through)
       SELECT hotel_id, max(id) FROM purged GROUP BY hotel_id
       ON CONFLICT (hotel_id) DO UPDATE
         SET purged_through = GREATEST(realtime_event_horizons.purged_through, EXCLUDED.purged_through)
     )
     SELECT count(*)::int AS purged FROM purged`,
    [keepHours],
  );
  return (result as { rows: { purged: number }[] }).rows[0].purged;
}

/**
 * A kind of staff realtime event, declared once: its type, what it tells, and the shape of its payload. Modules
 * publish through it, and the AsyncAPI document of `/ws` is generated from the same declarations.
 */
export interface HotelEventKind<Payload extends object> {
  type: string;
  summary: string;
  payload: Joi.ObjectSchema;
  publish(conn: DbOrTrx, hotelId: string, payload: Payload, to?: EventAudience): Promise<void>;
  /** Publishes it from within a larger statement: see {@link publishHotelEventsFrom} (`rows` must make `Payload`s). */
  publishFrom(conn: DbOrTrx, hotelId: string, rows: Knex.Raw): Knex.Raw;
  /** `publish` to every socket of the hotel as a part of a larger statement (a data-modifying CTE). */
  publishing(conn: DbOrTrx, hotelId: string, payload: Payload): Knex.Raw;
  /** Sends it without storing it: see {@link signalHotelEvent}. */
  signal(conn: DbOrTrx, hotelId: string, payload: Payload, to?: EventAudience): Promise<void>;
}

export function defineHotelEvent<Payload extends object>(
  type: string,
  summary: string,
  payload: Joi.ObjectSchema,
): HotelEventKind<Payload> {
  return {
    type,
    summary,
    payload,
    publish: (conn, hotelId, body, to) =>
      publishHotelEvent(conn, hotelId, { type, payload: body as Record<string, unknown>, audience: to?.audience }),
    publishFrom: (conn, hotelId, rows) => publishHotelEventsFrom(conn, hotelId, type, rows),
    publishing: (conn, hotelId, body) =>
      publishingHotelEvent(conn, hotelId, { type, payload: body as Record<string, unknown> }),
    signal: (conn, hotelId, body, to) =>
      signalHotelEvent(conn, hotelId, { type, payload: body as Record<string, unknown>, audience: to?.audience }),
  };
}
