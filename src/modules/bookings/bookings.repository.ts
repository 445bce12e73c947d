import { pageOf, type Page, type PageRequest, type SortKey } from '../../platform/db/keyset';
import type { DbOrTrx } from '../../platform/db/knex';
import { BLOCKING_STATUSES, type Booking, type BookingFilter } from './bookings.types';
import type { Room } from '../rooms';
import type { RoomCandidate } from './bookings.rules';

export interface Span {
  start: Date;
  end: Date;
}

const blocking = [...BLOCKING_STATUSES];
const CALENDAR_ORDER: SortKey[] = [
  { sql: 'start_at', type: 'timestamptz' },
  { sql: 'id', type: 'uuid' },
];
/** The statuses that hold a room, as SQL, spelled exactly like the exclusion constraint's predicate. */
const HOLDS_ROOM = `b.status IN (${BLOCKING_STATUSES.map((status) => `'${status}'`).join(',')})`;

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
    options: { forUpdate?: boolean } = {},
  ): Promise<Booking | undefined> {
    const query = db<Booking>('bookings').where({ hotel_id: hotelId, id }).first();
    if (options.forUpdate) query.forUpdate();
    return query as Promise<Booking | undefined>;
  },

  async list(
    db: DbOrTrx,
    hotelId: string,
    filter: BookingFilter & { timeZone: string },
    page: PageRequest,
  ): Promise<Page<Booking>> {
    const query = db('bookings').select('*').where({ hotel_id: hotelId });
    if (filter.from)
      query.where('end_at', '>', db.raw('(?::date)::timestamp AT TIME ZONE ?', [filter.from, filter.timeZone]));
    if (filter.to)
      query.where('start_at', '<', db.raw('(?::date + 1)::timestamp AT TIME ZONE ?', [filter.to, filter.timeZone]));
    if (filter.status) query.where({ status: filter.status });
    if (filter.room_id) query.where({ room_id: filter.room_id });
    if (filter.q) {
      const like = `%${filter.q.replace(/[\\%_]/g, '\\$&')}%`;
      const digits = filter.q.replace(/\D/g, '');
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

  async insert(db: DbOrTrx, hotelId: string, booking: Partial<Booking>): Promise<Booking> {
    const [row] = await db<Booking>('bookings')
      .insert({ ...booking, hotel_id: hotelId })
      .returning('*');
    return row;
  },

  async update(db: DbOrTrx, hotelId: string, id: string, changes: Partial<Booking>): Promise<Booking> {
    const [row] = await db<Booking>('bookings')
      .where({ hotel_id: hotelId, id })
      .update({ ...changes, updated_at: db.fn.now() })
      .returning('*');
    return row;
  },

  /** Bookings holding this room during the span (the clash a 409 names). */
  async clashes(db: DbOrTrx, hotelId: string, roomId: string, span: Span, exceptId?: string): Promise<Booking[]> {
    const query = db<Booking>('bookings')
      .where({ hotel_id: hotelId, room_id: roomId })
      .whereIn('status', blocking)
      .whereRaw("tstzrange(start_at, end_at, '[)') && tstzrange(?, ?, '[)')", [span.start, span.end])
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
         (SELECT count(*)::int FROM bookings b WHERE b.room_id = r.id AND ${HOLDS_ROOM}
            AND tstzrange(b.start_at, b.end_at) && tstzrange(?::timestamptz - interval '30 days', ?::timestamptz + interval '30 days')) AS "nearbyLoad",
         EXISTS (SELECT 1 FROM bookings b WHERE b.room_id = r.id AND ${HOLDS_ROOM}
            AND (b.end_at BETWEEN ?::timestamptz - interval '12 hours' AND ?::timestamptz
              OR b.start_at BETWEEN ?::timestamptz AND ?::timestamptz + interval '12 hours')) AS touches
       FROM rooms r
       WHERE r.hotel_id = ? AND r.category_id = ? AND r.max_guests >= ? AND r.status <> 'closed'
         AND NOT (r.maintenance_from IS NOT NULL AND tstzrange(r.maintenance_from, r.maintenance_to) && tstzrange(?, ?))
         AND NOT EXISTS (SELECT 1 FROM bookings b WHERE b.room_id = r.id AND ${HOLDS_ROOM}
            AND tstzrange(b.start_at, b.end_at, '[)') && tstzrange(?, ?, '[)'))`,
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

  /** Per room, for each night of [from, to) in order: whether the room can be sold for that night. */
  async availability(
    db: DbOrTrx,
    hotel: { id: string; timezone: string; check_in_time: string; check_out_time: string },
    from: string,
    to: string,
  ): Promise<{ room_id: string; category_id: string; number: string; free: boolean[] }[]> {
    // Stays touching the window come from the (hotel_id, start_at) index once; each is then matched to its nights
    // with plain comparisons, far cheaper than probing the exclusion index once per night.
    const { rows } = await db.raw(
      `WITH nights AS MATERIALIZED (
         SELECT d::date AS night,
                (d::date + ?::time) AT TIME ZONE ? AS s,
                (d::date + 1 + ?::time) AT TIME ZONE ? AS e
         FROM generate_series(?::date, ?::date - 1, interval '1 day') d),
       stays AS MATERIALIZED (
         SELECT b.room_id, b.start_at, b.end_at FROM bookings b
         WHERE b.hotel_id = ? AND ${HOLDS_ROOM}
           AND b.start_at < (SELECT max(e) FROM nights) AND b.end_at > (SELECT min(s) FROM nights)),
       occupied AS (
         SELECT DISTINCT st.room_id, n.night FROM stays st JOIN nights n ON st.start_at < n.e AND st.end_at > n.s)
       SELECT r.id AS room_id, r.category_id, r.number,
         array_agg(r.status <> 'closed'
           AND NOT (r.maintenance_from IS NOT NULL AND r.maintenance_from < n.e AND r.maintenance_to > n.s)
           AND o.room_id IS NULL ORDER BY n.night) AS free
       FROM rooms r CROSS JOIN nights n
       LEFT JOIN occupied o ON o.room_id = r.id AND o.night = n.night
       WHERE r.hotel_id = ?
       GROUP BY r.id`,
      [hotel.check_in_time, hotel.timezone, hotel.check_out_time, hotel.timezone, from, to, hotel.id, hotel.id],
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
  async noShows(db: DbOrTrx, onlyBookingId?: string): Promise<DueBooking[]> {
    const query = db('bookings as b')
      .join('hotel_settings as s', 's.hotel_id', 'b.hotel_id')
      .join('hotels as h', 'h.id', 'b.hotel_id')
      .where('s.no_show_auto_cancel', true)
      .where('b.status', 'confirmed')
      .whereRaw('b.start_at + make_interval(hours => s.no_show_hours) < now()')
      .select('b.hotel_id as hotelId', 'h.slug as hotelSlug', 'b.id as bookingId')
      .orderBy('b.start_at')
      .limit(1000);
    if (onlyBookingId) query.where('b.id', onlyBookingId);
    return query;
  },

  async overdueStays(db: DbOrTrx, onlyBookingId?: string): Promise<DueBooking[]> {
    const query = db('bookings as b')
      .join('hotel_settings as s', 's.hotel_id', 'b.hotel_id')
      .join('hotels as h', 'h.id', 'b.hotel_id')
      .where('s.auto_checkout', true)
      .where('b.status', 'checked_in')
      .whereRaw('b.end_at + make_interval(hours => s.auto_checkout_hours) < now()')
      .select('b.hotel_id as hotelId', 'h.slug as hotelSlug', 'b.id as bookingId')
      .orderBy('b.end_at')
      .limit(1000);
    if (onlyBookingId) query.where('b.id', onlyBookingId);
    return query;
  },
};
