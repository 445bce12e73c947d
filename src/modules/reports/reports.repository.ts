import type { DbOrTrx } from '../../platform/db/knex';
import type { BookedStay, DayCapacity, NightsSold, Range, RevenueGroup, RevenueOfDay } from './reports.types';

/**
 * The reports read the books and the stays, never write (docs/decisions/reports.md). A line of room revenue is a
 * `room_night` line or a correction whose chain of corrections leads back to one (`root`); its stay and night are
 * named by the root's source (`room_night:<booking>:<night>`), a day-use stay's by `:hourly`.
 */
const ROOTS = `WITH RECURSIVE up (line_id, ancestor_id) AS (
    SELECT id, corrects_line_id FROM folio_lines
    WHERE hotel_id = :hotelId AND business_date BETWEEN :from AND :to AND kind = 'correction'
      AND corrects_line_id IS NOT NULL
    UNION ALL
    SELECT up.line_id, a.corrects_line_id FROM up
    JOIN folio_lines a ON a.hotel_id = :hotelId AND a.id = up.ancestor_id
    WHERE a.kind = 'correction' AND a.corrects_line_id IS NOT NULL),
  roots AS (SELECT up.line_id, a.id AS root_id FROM up
    JOIN folio_lines a ON a.hotel_id = :hotelId AND a.id = up.ancestor_id WHERE a.kind <> 'correction')`;
/**
 * The lines dated in the range (`l`), each with its root line's kind, source and VAT rate (its own when it corrects
 * nothing, so only corrections are joined to another line).
 */
const LINES = `(SELECT l.hotel_id, l.id, l.kind, l.amount, l.business_date,
    coalesce(a.kind, l.kind) AS root_kind, coalesce(a.source, l.source) AS root_source,
    coalesce(a.vat_rate, l.vat_rate) AS root_vat
  FROM folio_lines l LEFT JOIN roots ON roots.line_id = l.id
  LEFT JOIN folio_lines a ON a.hotel_id = l.hotel_id AND a.id = roots.root_id
  WHERE l.hotel_id = :hotelId AND l.business_date BETWEEN :from AND :to) l`;
const DAY_USE = `l.root_source LIKE '%:hourly'`;
/** The stay of a room-night line (cast only for those: another line's source need not name a stay). */
const STAY_OF_LINE = `CASE WHEN l.root_kind = 'room_night' THEN split_part(l.root_source, ':', 2)::uuid END`;
/** The night a night stay's room-night line is of: the date its source ends with (never a day-use stay's `hourly`). */
const NIGHT_OF = (source: string) => `right(${source}, 10)`;
const DATE = (column: string) => `to_char(${column}, 'YYYY-MM-DD')`;
/** Night `night` of a hotel `h` from its check-in time to the next day's check-out time, in its zone. */
const NIGHT_SPAN = (night: string) =>
  `tstzrange((${night} + h.check_in_time::time) AT TIME ZONE h.timezone,
     (${night} + 1 + h.check_out_time::time) AT TIME ZONE h.timezone)`;
/** The moment a line's stay is in its room for that line: midnight after its night, or a day-use stay's start. */
const MOMENT_OF_LINE = `CASE WHEN l.root_kind <> 'room_night' THEN NULL WHEN ${DAY_USE} THEN b.start_at
  ELSE ((${NIGHT_OF('l.root_source')})::date + 1)::timestamp AT TIME ZONE h.timezone END`;
/** The room a stay `b` was in at `moment`: its segment covering it (room moves), else its room now. */
const ROOM_AT = (moment: string) => `LEFT JOIN LATERAL (
    SELECT s.room_id FROM booking_rooms s WHERE s.hotel_id = b.hotel_id AND s.booking_id = b.id AND s.during @> ${moment}
    ORDER BY s.active DESC LIMIT 1) seg ON true
  LEFT JOIN rooms r ON r.hotel_id = b.hotel_id AND r.id = coalesce(seg.room_id, b.room_id)`;

const GROUPS: Record<RevenueGroup, { key: string; name: string; join: string }> = {
  category: {
    key: 'r.category_id::text',
    name: 'g.name',
    join: 'LEFT JOIN room_categories g ON g.hotel_id = r.hotel_id AND g.id = r.category_id',
  },
  source: { key: 'b.source', name: 'b.source', join: '' },
  tariff: {
    key: 'b.tariff_id::text',
    name: 'g.name',
    join: 'LEFT JOIN tariffs g ON g.hotel_id = b.hotel_id AND g.id = b.tariff_id',
  },
};

async function rows<T>(db: DbOrTrx, sql: string, bindings: Record<string, unknown>): Promise<T[]> {
  return ((await db.raw(sql, bindings)) as { rows: T[] }).rows;
}

export type StayList = 'arrivals' | 'departures' | 'in_house';

const DAY = `(:date::timestamp AT TIME ZONE :tz)`;
const NEXT_DAY = `((CAST(:date AS date) + 1)::timestamp AT TIME ZONE :tz)`;

/** Which stays a day's list holds (`when`), and the moment whose room the list shows. */
const STAY_LISTS: Record<StayList, { when: string; moment: string }> = {
  arrivals: { when: `b.start_at >= ${DAY} AND b.start_at < ${NEXT_DAY}`, moment: 'b.start_at' },
  departures: { when: `b.end_at >= ${DAY} AND b.end_at < ${NEXT_DAY}`, moment: "b.end_at - interval '1 microsecond'" },
  in_house: {
    when: `b.start_at < ${NEXT_DAY} AND (b.end_at >= ${NEXT_DAY} OR (b.kind = 'hourly' AND b.end_at >= ${DAY}))`,
    moment: `CASE WHEN b.kind = 'hourly' THEN b.start_at ELSE ${NEXT_DAY} END`,
  },
};

export const reportsRepository = {
  /**
   * Each night's rooms (those created before it ended) and those not for sale that night: closed, under maintenance
   * without a window, or with a maintenance window overlapping the night (check-in time to next check-out time).
   */
  capacity(db: DbOrTrx, hotelId: string, { from, to }: Range): Promise<DayCapacity[]> {
    return rows(
      db,
      `WITH n AS (
         SELECT d::date AS night, ${NIGHT_SPAN('d::date')} AS span
         FROM hotels h, generate_series(:from::timestamp, :to::timestamp, interval '1 day') d WHERE h.id = :hotelId)
       SELECT ${DATE('n.night')} AS date, count(r.id)::int AS rooms,
         count(r.id) FILTER (WHERE r.status = 'closed'
           OR (r.status = 'maintenance' AND r.maintenance_from IS NULL)
           OR (r.maintenance_from IS NOT NULL
             AND tstzrange(r.maintenance_from, coalesce(r.maintenance_to, 'infinity')) && n.span))::int AS out_of_order
       FROM n LEFT JOIN rooms r ON r.hotel_id = :hotelId AND r.created_at < upper(n.span)
       GROUP BY n.night ORDER BY n.night`,
      { hotelId, from, to },
    );
  },

  /**
   * Rooms sold per night: the night stays' room-night lines by the night their source names (a night posted on a
   * later business date, a closed day's or at check-out, is still sold on its own night).
   */
  nightsSold(db: DbOrTrx, hotelId: string, { from, to }: Range): Promise<NightsSold[]> {
    return rows(
      db,
      `SELECT ${NIGHT_OF('l.source')} AS date, count(*)::int AS rooms_sold FROM folio_lines l
       WHERE l.hotel_id = :hotelId AND l.kind = 'room_night' AND l.business_date >= :from
         AND l.source NOT LIKE '%:hourly' AND ${NIGHT_OF('l.source')} BETWEEN :from AND :to
       GROUP BY 1 ORDER BY 1`,
      { hotelId, from, to },
    );
  },

  /**
   * The room revenue of each business date (night stays' and day use's apart), day-use stays, and the discounts
   * posted at the lodging's VAT rate (`room_discounts`, apart: the receipts take them off the lodging).
   */
  revenue(db: DbOrTrx, hotelId: string, { from, to }: Range): Promise<RevenueOfDay[]> {
    return rows(
      db,
      `${ROOTS}
       SELECT ${DATE('l.business_date')} AS date,
         coalesce(sum(l.amount) FILTER (WHERE l.root_kind = 'room_night' AND NOT ${DAY_USE}), 0)::numeric(14, 2)::text
           AS room_revenue,
         count(*) FILTER (WHERE l.kind = 'room_night' AND ${DAY_USE})::int AS day_use_stays,
         coalesce(sum(l.amount) FILTER (WHERE l.root_kind = 'room_night' AND ${DAY_USE}), 0)::numeric(14, 2)::text
           AS day_use_revenue,
         coalesce(sum(l.amount) FILTER (WHERE l.root_kind = 'discount' AND l.root_vat = coalesce(
           (SELECT fiscal_vat FROM payment_settings WHERE hotel_id = :hotelId), 'none')), 0)::numeric(14, 2)::text
           AS room_discounts
       FROM ${LINES} WHERE l.root_kind IN ('room_night', 'discount')
       GROUP BY l.business_date ORDER BY l.business_date`,
      { hotelId, from, to },
    );
  },

  /**
   * Room revenue (day use included) and nights sold by category, source or tariff: a line's category is that of the
   * room its stay was in that night (a moved stay's nights go to each room's category).
   */
  revenueBy(db: DbOrTrx, hotelId: string, range: Range, group: RevenueGroup) {
    const { key, name, join } = GROUPS[group];
    return rows<{ key: string | null; name: string | null; nights: number; day_use_stays: number; revenue: string }>(
      db,
      `${ROOTS}
       SELECT ${key} AS key, ${name} AS name,
         count(*) FILTER (WHERE l.kind = 'room_night' AND NOT ${DAY_USE})::int AS nights,
         count(*) FILTER (WHERE l.kind = 'room_night' AND ${DAY_USE})::int AS day_use_stays,
         sum(l.amount)::numeric(14, 2)::text AS revenue
       FROM ${LINES} JOIN hotels h ON h.id = l.hotel_id
       LEFT JOIN bookings b ON b.hotel_id = l.hotel_id AND b.id = ${STAY_OF_LINE}
       ${ROOM_AT(MOMENT_OF_LINE)} ${join}
       WHERE l.root_kind = 'room_night'
       GROUP BY 1, 2 ORDER BY 2 NULLS LAST, 1`,
      { hotelId, ...range },
    );
  },

  /**
   * Money taken and given back per day, method and staff member: payment and refund lines, and the corrections that
   * remove a payment, by the method kept on each line when posted and the staff member who posted it (a removal by
   * no one known is no one's, not the cashier's who took the payment).
   */
  payments(db: DbOrTrx, hotelId: string, { from, to }: Range) {
    return rows<{
      date: string;
      method: string;
      staff_id: string | null;
      staff_name: string | null;
      payments: number;
      received: string;
      refunded: string;
      removed: string;
      net: string;
    }>(
      db,
      `SELECT ${DATE('l.business_date')} AS date, coalesce(l.payment_method, 'other') AS method,
         l.posted_by AS staff_id, u.name AS staff_name,
         count(*) FILTER (WHERE l.kind = 'payment')::int AS payments,
         coalesce(sum(-l.amount) FILTER (WHERE l.kind = 'payment'), 0)::numeric(14, 2)::text AS received,
         coalesce(sum(-l.amount) FILTER (WHERE l.kind = 'refund'), 0)::numeric(14, 2)::text AS refunded,
         coalesce(sum(-l.amount) FILTER (WHERE l.kind = 'correction'), 0)::numeric(14, 2)::text AS removed,
         sum(-l.amount)::numeric(14, 2)::text AS net
       FROM folio_lines l
       LEFT JOIN folio_lines c ON c.hotel_id = l.hotel_id AND c.id = l.corrects_line_id
       LEFT JOIN users u ON u.hotel_id = l.hotel_id AND u.id = l.posted_by
       WHERE l.hotel_id = :hotelId AND l.business_date BETWEEN :from AND :to
         AND (l.kind IN ('payment', 'refund') OR (l.kind = 'correction' AND c.kind IN ('payment', 'refund')))
       GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 4 NULLS FIRST, 3`,
      { hotelId, from, to },
    );
  },

  /**
   * The night stays on the books at `asOf` with a night in [from, to]: made by then, not cancelled by then (inquiries
   * hold nothing), at their price now; a checked-out stay's nights end at its departure (`left`, an early one's).
   */
  bookedAt(db: DbOrTrx, hotelId: string, { from, to }: Range, asOf: Date, timeZone: string): Promise<BookedStay[]> {
    return rows(
      db,
      `SELECT id, ${DATE('check_in')} AS check_in, ${DATE('check_out')} AS check_out, price::text AS price,
         CASE WHEN status = 'checked_out' THEN ${DATE('(end_at AT TIME ZONE :tz)::date')} END AS left_on,
         created_at, cancelled_at
       FROM bookings WHERE hotel_id = :hotelId AND kind = 'nightly' AND status <> 'inquiry'
         AND start_at < ((CAST(:to AS date) + 2)::timestamp AT TIME ZONE :tz) AND end_at > (:from::timestamp AT TIME ZONE :tz)
         AND check_in <= :to AND check_out > :from AND created_at <= :asOf
         AND (cancelled_at IS NULL OR cancelled_at > :asOf)`,
      { hotelId, from, to, asOf, tz: timeZone },
    );
  },

  /**
   * The stays arriving, leaving or in house on a date (confirmed, checked in or out), each with the room (and its
   * category) its segment held then: at arrival, at departure, or the night's midnight (room moves).
   */
  stays(db: DbOrTrx, hotelId: string, date: string, list: StayList, timeZone: string) {
    const { when, moment } = STAY_LISTS[list];
    return rows<Record<string, string | number | null>>(
      db,
      `SELECT b.id AS booking_id, r.number AS room, g.name AS category, b.kind, b.status,
         concat_ws(' ', b.guest_last_name, b.guest_first_name, b.guest_middle_name) AS guest, b.guests_count,
         ${DATE('b.check_in')} AS check_in, ${DATE('b.check_out')} AS check_out, b.price::text AS price
       FROM bookings b ${ROOM_AT(moment)}
       LEFT JOIN room_categories g ON g.hotel_id = r.hotel_id AND g.id = r.category_id
       WHERE b.hotel_id = :hotelId AND b.status IN ('confirmed', 'checked_in', 'checked_out') AND ${when}
       ORDER BY r.number, b.start_at, b.id`,
      { hotelId, date, tz: timeZone },
    );
  },

  /** How many stays each list of the day holds (the daily report's counts), in one pass. */
  async stayCounts(db: DbOrTrx, hotelId: string, date: string, timeZone: string): Promise<Record<StayList, number>> {
    const [counts] = await rows<Record<StayList, number>>(
      db,
      `SELECT count(*) FILTER (WHERE ${STAY_LISTS.arrivals.when})::int AS arrivals,
         count(*) FILTER (WHERE ${STAY_LISTS.departures.when})::int AS departures,
         count(*) FILTER (WHERE ${STAY_LISTS.in_house.when})::int AS in_house
       FROM bookings b
       WHERE b.hotel_id = :hotelId AND b.status IN ('confirmed', 'checked_in', 'checked_out')
         AND b.start_at < ${NEXT_DAY} AND b.end_at >= ${DAY}`,
      { hotelId, date, tz: timeZone },
    );
    return counts;
  },

  /** Every room's cleaning status, its category and whether a stay is checked in to it now. */
  housekeeping(db: DbOrTrx, hotelId: string) {
    return rows<Record<string, string | boolean | null>>(
      db,
      `SELECT r.id AS room_id, r.number AS room, g.name AS category, r.status,
         EXISTS (SELECT 1 FROM bookings b WHERE b.hotel_id = r.hotel_id AND b.room_id = r.id
           AND b.status = 'checked_in') AS occupied
       FROM rooms r LEFT JOIN room_categories g ON g.hotel_id = r.hotel_id AND g.id = r.category_id
       WHERE r.hotel_id = :hotelId ORDER BY r.number, r.id`,
      { hotelId },
    );
  },
};
