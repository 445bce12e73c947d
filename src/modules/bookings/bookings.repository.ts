import type { Knex } from 'knex';
import { pageOf, type Page, type PageRequest, type SortKey } from '../../platform/db/keyset';
import type { Db, DbOrTrx } from '../../platform/db/knex';
import { transactionWithRetry } from '../../platform/db/retry';
import {
  type Booking,
  type BookingCharge,
  type BookingChargeInput,
  type BookingChargeKind,
  type BookingFilter,
} from './bookings.types';
import type { Room, RoomCategory } from '../rooms';
import type { RoomCandidate } from './bookings.rules';
import { segmentsRepository } from './bookings.segments-repository';

/** A room as availability sees it. */
export interface InventoryRoom {
  room_id: string;
  category_id: string;
  number: string;
  max_guests: number;
  closed: boolean;
}

export interface Span {
  start: Date;
  end: Date;
}

const CALENDAR_ORDER: SortKey[] = [
  { sql: 'start_at', type: 'timestamptz' },
  { sql: 'id', type: 'uuid' },
];

export const bookingsRepository = {
  /** The instants a nightly stay occupies: check-in day at the check-in time to check-out day at the check-out time. */
  async nightlySpan(
    db: DbOrTrx,
    hotel: { timezone: string; check_in_time: string; check_out_time: string },
    checkIn: string,
    checkOut: string,
  ): Promise<Span> {
    const { rows } = await db.raw<{ rows: { start: Date; end: Date }[] }>(
      'SELECT (?::date + ?::time) AT TIME ZONE ? AS start, (?::date + ?::time) AT TIME ZONE ? AS "end"',
      [checkIn, hotel.check_in_time, hotel.timezone, checkOut, hotel.check_out_time, hotel.timezone],
    );
    return rows[0];
  },

  async find(
    db: DbOrTrx,
    hotelId: string,
    id: string,
    options: { forUpdate?: boolean; forShare?: boolean } = {},
  ): Promise<Booking | undefined> {
    const query = db<Booking>('bookings').where({ hotel_id: hotelId, id }).first();
    if (options.forUpdate) query.forUpdate();
    else if (options.forShare) query.forShare();
    return query as Promise<Booking | undefined>;
  },

  /** The stays checked in whose room is `roomId` now. */
  async checkedInTo(db: DbOrTrx, hotelId: string, roomId: string): Promise<Booking[]> {
    return db<Booking>('bookings').where({ hotel_id: hotelId, room_id: roomId, status: 'checked_in' });
  },

  async list(
    db: DbOrTrx,
    hotelId: string,
    filter: BookingFilter & { timeZone: string; phoneDigits?: string },
    page: PageRequest,
  ): Promise<Page<Booking>> {
    const query = db('bookings').select('*').where({ hotel_id: hotelId });
    if (filter.from)
      query.where('end_at', '>', db.raw('(?::date)::timestamp AT TIME ZONE ?', [filter.from, filter.timeZone]));
    if (filter.to)
      query.where('start_at', '<', db.raw('(?::date + 1)::timestamp AT TIME ZONE ?', [filter.to, filter.timeZone]));
    if (filter.status) query.where({ status: filter.status });
    // A room's bookings by their segments: a moved stay's planned and past nights there too (a cancelled or
    // finished stay's segments are inactive but still say where it was).
    if (filter.room_id)
      query.whereExists(
        db('booking_rooms as s').whereRaw('s.booking_id = bookings.id AND s.room_id = ?', [filter.room_id]),
      );
    if (filter.q) {
      const like = `%${filter.q.replace(/[\\%_]/g, '\\$&')}%`;
      const digits = filter.phoneDigits ?? '';
      query.where((search) => {
        search
          .whereILike('guest_last_name', like)
          .orWhereILike('guest_first_name', like)
          .orWhereILike('guest_email', like);
        if (digits.length >= 3)
          search.orWhereRaw("regexp_replace(coalesce(guest_phone, ''), '\\D', '', 'g') LIKE ?", [`%${digits}%`]);
      });
    }
    return pageOf(db, query, CALENDAR_ORDER, page);
  },

  /** A new booking; with `primaryGuestId`, linked to its primary guest in the same statement. */
  async insert(db: DbOrTrx, hotelId: string, booking: Partial<Booking>, primaryGuestId?: string): Promise<Booking> {
    const insert = db<Booking>('bookings')
      .insert({ ...booking, hotel_id: hotelId })
      .returning('*');
    if (!primaryGuestId) return (await insert)[0];
    const { rows } = await db.raw<{ rows: Booking[] }>(
      `WITH booking AS (?), linked AS (
         INSERT INTO booking_guests (hotel_id, booking_id, guest_id, is_primary) SELECT hotel_id, id, ?, true FROM booking
       )
       SELECT * FROM booking`,
      [insert, primaryGuestId],
    );
    return rows[0];
  },

  async update(db: DbOrTrx, hotelId: string, id: string, changes: Partial<Booking>): Promise<Booking> {
    const [row] = await db<Booking>('bookings')
      .where({ hotel_id: hotelId, id })
      .update({ ...changes, updated_at: db.fn.now() })
      .returning('*');
    return row;
  },

  /**
   * Bookings holding one of these rooms during the span (the clash a 409 names), by their segments; `used`: or having
   * held it (checked out since: their segments inactive), a cancelled stay never.
   */
  async clashes(
    db: DbOrTrx,
    hotelId: string,
    roomIds: string[],
    span: Span,
    exceptId?: string,
    used = false,
  ): Promise<Booking[]> {
    const held = used ? "(s.active OR bookings.status = 'checked_out')" : 's.active';
    const query = db<Booking>('bookings')
      .where({ hotel_id: hotelId })
      .whereExists(
        db('booking_rooms as s')
          .whereRaw(`s.booking_id = bookings.id AND ${held} AND s.room_id = ANY(?::uuid[])`, [roomIds])
          .whereRaw("s.during && tstzrange(?, ?, '[)')", [span.start, span.end]),
      )
      .orderBy('start_at');
    if (exceptId) query.whereNot({ id: exceptId });
    return query;
  },

  /** Rooms of a category free for the whole span and large enough, with what the assignment strategies weigh. */
  async candidates(
    db: DbOrTrx,
    hotelId: string,
    categoryId: string,
    span: Span,
    guests: number,
  ): Promise<(Room & RoomCandidate)[]> {
    const { rows } = await db.raw<{ rows: (Room & RoomCandidate)[] }>(
      `SELECT r.*,
         (SELECT count(*)::int FROM booking_rooms s WHERE s.room_id = r.id AND s.active
            AND s.during && tstzrange(?::timestamptz - interval '30 days', ?::timestamptz + interval '30 days')) AS "nearbyLoad",
         EXISTS (SELECT 1 FROM booking_rooms s WHERE s.room_id = r.id AND s.active
            AND (upper(s.during) BETWEEN ?::timestamptz - interval '12 hours' AND ?::timestamptz
              OR lower(s.during) BETWEEN ?::timestamptz AND ?::timestamptz + interval '12 hours')) AS touches
       FROM rooms r
       WHERE r.hotel_id = ? AND r.category_id = ? AND r.max_guests >= ? AND r.status <> 'closed'
         AND NOT (r.maintenance_from IS NOT NULL AND tstzrange(r.maintenance_from, r.maintenance_to) && tstzrange(?, ?))
         AND NOT EXISTS (SELECT 1 FROM booking_rooms s WHERE s.room_id = r.id AND s.active
            AND s.during && tstzrange(?, ?, '[)'))`,
      [
        span.start,
        span.end,
        span.start,
        span.start,
        span.end,
        span.end,
        hotelId,
        categoryId,
        guests,
        span.start,
        span.end,
        span.start,
        span.end,
      ],
    );
    return rows;
  },

  /** The hotels' inventory versions, moved at the commit of every change to what they sell (migration 52); 0 before any. */
  async inventoryVersions(db: DbOrTrx, hotelIds: string[]): Promise<Map<string, number>> {
    const { rows } = await db.raw<{ rows: { hotel_id: string; version: string }[] }>(
      'SELECT hotel_id, version FROM inventory_versions WHERE hotel_id = ANY(?::uuid[])',
      [hotelIds],
    );
    const known = new Map(rows.map((row) => [row.hotel_id, Number(row.version)]));
    return new Map(hotelIds.map((id) => [id, known.get(id) ?? 0]));
  },

  /** Every room of the hotel, with what decides whether, and to how many guests, it can be sold. */
  async inventoryRooms(db: DbOrTrx, hotelId: string): Promise<InventoryRoom[]> {
    return db('rooms')
      .where({ hotel_id: hotelId })
      .select('id as room_id', 'category_id', 'number', 'max_guests', db.raw(`status = 'closed' AS closed`));
  },

  /** The hotel's categories on sale, in the order it shows them. */
  async activeCategories(db: DbOrTrx, hotelId: string): Promise<RoomCategory[]> {
    return db('room_categories').where({ hotel_id: hotelId, is_active: true }).orderBy(['sort_order', 'name']);
  },

  /**
   * Per room, for the nights `from` to `last` (inclusive): a string with '1' where the room can be sold that night
   * (no active segment of a stay holds it from that day's check-in time to the next day's check-out time, not closed, not under
   * maintenance, which without an end lasts, as for booking by category), else '0'.
   */
  async freeNights(
    db: DbOrTrx,
    hotelId: string,
    nights: { from: string; last: string },
  ): Promise<{ room_id: string; free: string }[]> {
    // Each stay touching the nights becomes its run of nights by two binary searches over the nights' start and end
    // instants (width_bucket), and a room's runs are OR-ed as bit strings: one pass over the stays, no stays × nights
    // join. end - 1 µs: a stay ending exactly when a night starts does not hold that night.
    const nightsOf = (start: string, end: string) =>
      `(repeat('0', width_bucket(${start}, c.ends))
         || repeat('1', width_bucket(${end} - interval '1 microsecond', c.starts) - width_bucket(${start}, c.ends))
         || repeat('0', c.n - width_bucket(${end} - interval '1 microsecond', c.starts)))::varbit`;
    const { rows } = await db.raw(
      `WITH cuts AS MATERIALIZED (
         SELECT count(*)::int AS n, repeat('0', count(*)::int)::varbit AS none,
                array_agg((d::date + h.check_in_time::time) AT TIME ZONE h.timezone ORDER BY d) AS starts,
                array_agg((d::date + 1 + h.check_out_time::time) AT TIME ZONE h.timezone ORDER BY d) AS ends
         FROM hotels h, generate_series(:from::date, :last::date, interval '1 day') d
         WHERE h.id = :hotelId),
       held AS (
         SELECT s.room_id, bit_or(${nightsOf('lower(s.during)', 'upper(s.during)')}) AS nights
         FROM booking_rooms s, cuts c
         WHERE s.hotel_id = :hotelId AND s.active AND s.during && tstzrange(c.starts[1], c.ends[c.n])
         GROUP BY s.room_id)
       SELECT r.id AS room_id,
         CASE WHEN r.status = 'closed' THEN c.none::text
         ELSE (~(coalesce(held.nights, c.none)
                 | CASE WHEN r.maintenance_from IS NULL THEN c.none
                   ELSE ${nightsOf('r.maintenance_from', "coalesce(r.maintenance_to, 'infinity')")} END))::text
         END AS free
       FROM rooms r CROSS JOIN cuts c LEFT JOIN held ON held.room_id = r.id
       WHERE r.hotel_id = :hotelId`,
      { hotelId, from: nights.from, last: nights.last },
    );
    return rows;
  },

  /** paid_amount moves with each payment row, in the same transaction; returns the booking as it now is. */
  async addToPaid(db: DbOrTrx, hotelId: string, bookingId: string, amount: string): Promise<Booking> {
    const [row] = await db<Booking>('bookings')
      .where({ hotel_id: hotelId, id: bookingId })
      .update({ paid_amount: db.raw('paid_amount + ?::numeric', [amount]), updated_at: db.fn.now() })
      .returning('*');
    return row;
  },

  /** charges_amount moves with each bill line, in the same transaction; returns the booking as it now is. */
  async addToCharges(db: DbOrTrx, hotelId: string, bookingId: string, amount: string): Promise<Booking> {
    const [row] = await db<Booking>('bookings')
      .where({ hotel_id: hotelId, id: bookingId })
      .update({ charges_amount: db.raw('charges_amount + ?::numeric', [amount]), updated_at: db.fn.now() })
      .returning('*');
    return row;
  },

  /** The new line, or undefined when its source was billed before (the unique key decides, under any concurrency). */
  async insertCharge(db: DbOrTrx, hotelId: string, bookingId: string, line: BookingChargeInput) {
    const [row] = await db<BookingCharge>('booking_charges')
      .insert({ ...line, hotel_id: hotelId, booking_id: bookingId })
      .onConflict(['hotel_id', 'kind', 'source_id'])
      .ignore()
      .returning('*');
    return row as BookingCharge | undefined;
  },

  async findCharge(db: DbOrTrx, hotelId: string, kind: BookingChargeKind, sourceId: string) {
    return db<BookingCharge>('booking_charges').where({ hotel_id: hotelId, kind, source_id: sourceId }).first();
  },

  /** The sum of a booking's bill lines of one kind, in cents' decimal form (0 without any). */
  async sumCharges(db: DbOrTrx, hotelId: string, bookingId: string, kind: BookingChargeKind): Promise<string> {
    const row = (await db('booking_charges')
      .where({ hotel_id: hotelId, booking_id: bookingId, kind })
      .sum({ total: 'amount' })
      .first()) as { total: string | null } | undefined;
    return row?.total ?? '0';
  },

  async listCharges(db: DbOrTrx, hotelId: string, bookingId: string): Promise<BookingCharge[]> {
    return db<BookingCharge>('booking_charges')
      .where({ hotel_id: hotelId, booking_id: bookingId })
      .orderBy([{ column: 'created_at' }, { column: 'id' }]);
  },

  async linkGuest(db: DbOrTrx, hotelId: string, bookingId: string, guestId: string, isPrimary: boolean): Promise<void> {
    await db('booking_guests')
      .insert({ hotel_id: hotelId, booking_id: bookingId, guest_id: guestId, is_primary: isPrimary })
      .onConflict(['booking_id', 'guest_id'])
      .ignore();
  },

  async guestIds(
    db: DbOrTrx,
    hotelId: string,
    bookingId: string,
  ): Promise<{ guest_id: string; is_primary: boolean }[]> {
    return db('booking_guests').where({ hotel_id: hotelId, booking_id: bookingId }).select('guest_id', 'is_primary');
  },

  async unlinkGuest(db: DbOrTrx, hotelId: string, bookingId: string, guestId: string): Promise<boolean> {
    return (
      (await db('booking_guests').where({ hotel_id: hotelId, booking_id: bookingId, guest_id: guestId }).delete()) > 0
    );
  },
};

export interface DueBooking {
  hotelId: string;
  hotelSlug: string;
  bookingId: string;
}

/** Bookings the background jobs must act on now, across hotels whose toggle is on, by the hotel's own hours. */
export const dueBookingsRepository = {
  async noShows(db: DbOrTrx, only?: { hotelId: string; bookingId?: string }): Promise<DueBooking[]> {
    const query = db('bookings as b')
      .join('hotel_settings as s', 's.hotel_id', 'b.hotel_id')
      .join('hotels as h', 'h.id', 'b.hotel_id')
      .where('s.no_show_auto_cancel', true)
      .where('b.status', 'confirmed')
      .whereRaw('b.start_at + make_interval(hours => s.no_show_hours) < now()')
      .select('b.hotel_id as hotelId', 'h.slug as hotelSlug', 'b.id as bookingId')
      .orderBy('b.start_at')
      .limit(1000);
    if (only) query.where({ 'b.hotel_id': only.hotelId, ...(only.bookingId && { 'b.id': only.bookingId }) });
    return query;
  },

  async overdueStays(db: DbOrTrx, only?: { hotelId: string; bookingId: string }): Promise<DueBooking[]> {
    const query = db('bookings as b')
      .join('hotel_settings as s', 's.hotel_id', 'b.hotel_id')
      .join('hotels as h', 'h.id', 'b.hotel_id')
      .where('s.auto_checkout', true)
      .where('b.status', 'checked_in')
      .whereRaw('b.end_at + make_interval(hours => s.auto_checkout_hours) < now()')
      .select('b.hotel_id as hotelId', 'h.slug as hotelSlug', 'b.id as bookingId')
      .orderBy('b.end_at')
      .limit(1000);
    if (only) query.where({ 'b.hotel_id': only.hotelId, 'b.id': only.bookingId });
    return query;
  },
};

/**
 * Longer than one attempt can spend between taking a guest e-mail on and recording how it went (the mail transport
 * gives up on a silent server within 10 minutes): a row still unsent after this belongs to an attempt that is gone.
 */
/**
 * The bookings' data access, built from the database in the module's `create` and handed to its services, which
 * import no repository: a unit test hands them a double instead. Each query takes its connection first (`db`
 * outside a transaction, the transaction `transaction` opens inside one).
 */
export function createBookingsRepository(db: Db) {
  return {
    db,
    /** One transaction, tried again on deadlocks and serialization failures (nothing was committed). */
    transaction: <T>(work: (trx: Knex.Transaction) => Promise<T>) => transactionWithRetry(db, work),
    bookings: bookingsRepository,
    segments: segmentsRepository,
    due: dueBookingsRepository,
  };
}

export type BookingsRepository = ReturnType<typeof createBookingsRepository>;
