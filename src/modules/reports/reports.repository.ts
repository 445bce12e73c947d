import type { DbOrTrx } from '../../platform/db/knex';
import type { BookedStay, DayCapacity, NightsOfDay, Range, RevenueGroup } from './reports.types';

/**
 * The reports read the books and the stays, never write (docs/decisions/reports.md). A line of room revenue is a
 * `room_night` line or a correction pointing to one; its stay is named by its source (`room_night:<booking>:<night>`),
 * a day-use stay's by `:hourly`.
 */
const roomLines = (joins = '') => `folio_lines l
  LEFT JOIN folio_lines c ON c.hotel_id = l.hotel_id AND c.id = l.corrects_line_id
  ${joins}
  WHERE l.hotel_id = :hotelId AND l.business_date BETWEEN :from AND :to
    AND (l.kind = 'room_night' OR (l.kind = 'correction' AND c.kind = 'room_night'))`;
const DAY_USE = `coalesce(c.source, l.source) LIKE '%:hourly'`;
const STAY_OF_LINE = `split_part(coalesce(c.source, l.source), ':', 2)::uuid`;
const DATE = (column: string) => `to_char(${column}, 'YYYY-MM-DD')`;

const GROUPS: Record<RevenueGroup, { key: string; name: string; join: string }> = {
  category: {
    key: 'b.category_id::text',
    name: 'g.name',
    join: 'LEFT JOIN room_categories g ON g.hotel_id = b.hotel_id AND g.id = b.category_id',
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

export const reportsRepository = {
  /** Each day's rooms, and those out of order: a maintenance window overlapping the day (in the hotel's zone). */
  capacity(db: DbOrTrx, hotelId: string, { from, to }: Range, timeZone: string): Promise<DayCapacity[]> {
    return rows(
      db,
      `WITH r AS (SELECT maintenance_from, maintenance_to FROM rooms WHERE hotel_id = :hotelId)
       SELECT ${DATE('d')} AS date, (SELECT count(*) FROM r)::int AS rooms,
         (SELECT count(*) FROM r WHERE r.maintenance_from < ((d + interval '1 day') AT TIME ZONE :tz)
           AND (r.maintenance_to IS NULL OR r.maintenance_to > (d AT TIME ZONE :tz)))::int AS out_of_order
       FROM generate_series(:from::timestamp, :to::timestamp, interval '1 day') d ORDER BY d`,
      { hotelId, from, to, tz: timeZone },
    );
  },

  /** The room revenue lines of each day: night stays sold (their count and sum) and day-use stays. */
  nights(db: DbOrTrx, hotelId: string, { from, to }: Range): Promise<NightsOfDay[]> {
    return rows(
      db,
      `SELECT ${DATE('l.business_date')} AS date,
         count(*) FILTER (WHERE l.kind = 'room_night' AND NOT ${DAY_USE})::int AS rooms_sold,
         coalesce(sum(l.amount) FILTER (WHERE NOT ${DAY_USE}), 0)::numeric(14, 2)::text AS room_revenue,
         count(*) FILTER (WHERE l.kind = 'room_night' AND ${DAY_USE})::int AS day_use_stays,
         coalesce(sum(l.amount) FILTER (WHERE ${DAY_USE}), 0)::numeric(14, 2)::text AS day_use_revenue
       FROM ${roomLines()} GROUP BY l.business_date ORDER BY l.business_date`,
      { hotelId, from, to },
    );
  },

  /** Room revenue (day use included) and nights sold by the stays' category, source or tariff. */
  revenueBy(db: DbOrTrx, hotelId: string, range: Range, group: RevenueGroup) {
    const { key, name, join } = GROUPS[group];
    return rows<{ key: string | null; name: string | null; nights: number; day_use_stays: number; revenue: string }>(
      db,
      `SELECT ${key} AS key, ${name} AS name,
         count(*) FILTER (WHERE l.kind = 'room_night' AND NOT ${DAY_USE})::int AS nights,
         count(*) FILTER (WHERE l.kind = 'room_night' AND ${DAY_USE})::int AS day_use_stays,
         sum(l.amount)::numeric(14, 2)::text AS revenue
       FROM ${roomLines(`LEFT JOIN bookings b ON b.hotel_id = l.hotel_id AND b.id = ${STAY_OF_LINE} ${join}`)}
       GROUP BY 1, 2 ORDER BY 2 NULLS LAST, 1`,
      { hotelId, ...range },
    );
  },

  /** Money taken and given back per day, method and staff member: payment and refund lines, and their corrections. */
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
      `SELECT ${DATE('l.business_date')} AS date, coalesce(p.method, 'other') AS method,
         coalesce(l.posted_by, c.posted_by) AS staff_id, u.name AS staff_name,
         count(*) FILTER (WHERE l.kind = 'payment')::int AS payments,
         coalesce(sum(-l.amount) FILTER (WHERE l.kind = 'payment'), 0)::numeric(14, 2)::text AS received,
         coalesce(sum(-l.amount) FILTER (WHERE l.kind = 'refund'), 0)::numeric(14, 2)::text AS refunded,
         coalesce(sum(-l.amount) FILTER (WHERE l.kind = 'correction'), 0)::numeric(14, 2)::text AS removed,
         sum(-l.amount)::numeric(14, 2)::text AS net
       FROM folio_lines l
       LEFT JOIN folio_lines c ON c.hotel_id = l.hotel_id AND c.id = l.corrects_line_id
       LEFT JOIN booking_payments p ON p.hotel_id = l.hotel_id AND p.id = ${STAY_OF_LINE}
       LEFT JOIN users u ON u.hotel_id = l.hotel_id AND u.id = coalesce(l.posted_by, c.posted_by)
       WHERE l.hotel_id = :hotelId AND l.business_date BETWEEN :from AND :to
         AND (l.kind IN ('payment', 'refund') OR (l.kind = 'correction' AND c.kind IN ('payment', 'refund')))
       GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 4 NULLS FIRST, 3`,
      { hotelId, from, to },
    );
  },

  /**
   * The night stays on the books at `asOf` with a night in [from, to]: made by then, not cancelled by then (inquiries
   * hold nothing), at their price now.
   */
  bookedAt(db: DbOrTrx, hotelId: string, { from, to }: Range, asOf: Date): Promise<BookedStay[]> {
    return rows(
      db,
      `SELECT id, ${DATE('check_in')} AS check_in, ${DATE('check_out')} AS check_out, price::text AS price,
         created_at, cancelled_at
       FROM bookings WHERE hotel_id = :hotelId AND kind = 'nightly' AND status <> 'inquiry'
         AND check_in <= :to AND check_out > :from AND created_at <= :asOf
         AND (cancelled_at IS NULL OR cancelled_at > :asOf)`,
      { hotelId, from, to, asOf },
    );
  },

  /** The stays arriving, leaving or in house on a date (confirmed, checked in or out), with their room. */
  stays(db: DbOrTrx, hotelId: string, date: string, list: 'arrivals' | 'departures' | 'in_house', timeZone: string) {
    const local = (column: string) => `CAST(b.${column} AT TIME ZONE :tz AS date)`;
    const when = {
      arrivals: `${local('start_at')} = :date`,
      departures: `${local('end_at')} = :date`,
      in_house: `${local('start_at')} <= :date AND (${local('end_at')} > :date OR (b.kind = 'hourly' AND ${local('end_at')} = :date))`,
    }[list];
    return rows<Record<string, string | number | null>>(
      db,
      `SELECT b.id AS booking_id, r.number AS room, b.kind, b.status,
         concat_ws(' ', b.guest_last_name, b.guest_first_name, b.guest_middle_name) AS guest, b.guests_count,
         ${DATE('b.check_in')} AS check_in, ${DATE('b.check_out')} AS check_out, b.price::text AS price
       FROM bookings b JOIN rooms r ON r.hotel_id = b.hotel_id AND r.id = b.room_id
       WHERE b.hotel_id = :hotelId AND b.status IN ('confirmed', 'checked_in', 'checked_out') AND ${when}
       ORDER BY r.number, b.start_at, b.id`,
      { hotelId, date, tz: timeZone },
    );
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
