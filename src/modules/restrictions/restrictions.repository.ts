import type { Knex } from 'knex';
import type { DbOrTrx } from '../../platform/db/knex';
import {
  FLAG_FIELDS,
  RESTRICTION_FIELDS,
  type RestrictedStay,
  type RestrictionField,
  type RestrictionNight,
  type RestrictionQuery,
  type RestrictionWrite,
} from './restrictions.types';

const ALL_WEEKDAYS = [1, 2, 3, 4, 5, 6, 7];
const NIGHT = "to_char(night, 'YYYY-MM-DD') AS night";
const CONFLICT_KEY = '(hotel_id, category_id, night, tariff_id)';
const ALL_CLEARED = RESTRICTION_FIELDS.map((field) => `${field} IS NULL`).join(' AND ');

/** What a night's row holds for a flag: `true`, or nothing (a cleared flag and `false` are the same). */
function stored(field: RestrictionField, value: number | boolean | null): number | true | null {
  if ((FLAG_FIELDS as readonly string[]).includes(field)) return value === true ? true : null;
  return value as number | null;
}

/** A row read back: flags as booleans, counts as numbers or null. */
function present(row: Record<string, unknown>): RestrictionNight {
  const flags = Object.fromEntries(FLAG_FIELDS.map((field) => [field, row[field] === true]));
  return { ...(row as RestrictionNight), ...flags };
}

/** The nights of an item: each day of `from`..`to` on one of its weekdays (ISO, Monday 1). */
function nightsOf(item: RestrictionWrite): { sql: string; bindings: Knex.RawBinding[] } {
  return {
    sql: `FROM generate_series(?::date, ?::date, interval '1 day') AS d WHERE extract(isodow FROM d)::int = ANY(?)`,
    bindings: [item.from, item.to, item.weekdays ?? ALL_WEEKDAYS],
  };
}

/** The nights the stays read (arrival to departure day), overlapping or adjoining ranges merged, in order. */
function rangesOf(stays: RestrictedStay[]): [string, string][] {
  const sorted = stays.map((stay): [string, string] => [stay.check_in, stay.check_out]).sort();
  return sorted.reduce<[string, string][]>((ranges, [from, to]) => {
    const last = ranges[ranges.length - 1];
    if (last && from <= last[1]) last[1] = to > last[1] ? to : last[1];
    else ranges.push([from, to]);
    return ranges;
  }, []);
}

export const restrictionsRepository = {
  /**
   * Takes the hotel's restrictions lock until the transaction ends: its writes run one after another. A bulk write
   * (up to two years of nights, each audited) may take seconds, so one queued behind others waits up to 20 s for its
   * turn and runs up to 25 s, where the service's defaults would refuse it at 2 s and 5 s.
   */
  async lockHotel(trx: DbOrTrx, hotelId: string): Promise<void> {
    await trx.raw("SET LOCAL lock_timeout = '20s'");
    await trx.raw("SET LOCAL statement_timeout = '25s'");
    await trx.raw('SELECT pg_advisory_xact_lock(hashtextextended(?, 0))', [`restrictions:${hotelId}`]);
  },

  /** Those of the ids that are this hotel's categories and tariffs. */
  async own(db: DbOrTrx, hotelId: string, categoryIds: string[], tariffIds: string[]) {
    const [categories, tariffs] = await Promise.all([
      db('room_categories').where({ hotel_id: hotelId }).whereIn('id', categoryIds).pluck('id'),
      tariffIds.length === 0 ? [] : db('tariffs').where({ hotel_id: hotelId }).whereIn('id', tariffIds).pluck('id'),
    ]);
    return { categories: new Set<string>(categories), tariffs: new Set<string>(tariffs) };
  },

  /**
   * Sets the fields an item names to its values (inserting the nights that had none), or clears them; a night left
   * with nothing is deleted. Answers how many nights it touched.
   */
  async write(db: DbOrTrx, hotelId: string, item: RestrictionWrite): Promise<number> {
    const fields = RESTRICTION_FIELDS.filter((field) => item[field] !== undefined);
    const values = fields.map((field) => stored(field, item[field] ?? null));
    const key: Knex.RawBinding[] = [hotelId, item.category_id, item.tariff_id ?? null];
    const nights = nightsOf(item);
    if (values.some((value) => value !== null)) {
      const result = await db.raw(
        `INSERT INTO restrictions (hotel_id, category_id, tariff_id, night, ${fields.join(', ')})
         SELECT ?::uuid, ?::uuid, ?::uuid, d::date, ${fields.map(() => '?').join(', ')} ${nights.sql}
         ON CONFLICT ${CONFLICT_KEY} DO UPDATE
         SET ${fields.map((field) => `${field} = EXCLUDED.${field}`).join(', ')}, updated_at = now()`,
        [...key, ...values, ...nights.bindings],
      );
      return result.rowCount ?? 0;
    }
    // `IS NULL` or `=`, never `IS NOT DISTINCT FROM`: both use the key's index.
    const tariff = item.tariff_id ? 'tariff_id = ?' : 'tariff_id IS NULL';
    const where = `hotel_id = ? AND category_id = ? AND ${tariff} AND night IN (SELECT d::date ${nights.sql})`;
    const bindings = [...key.filter((value) => value !== null), ...nights.bindings];
    const result = await db.raw(
      `UPDATE restrictions SET ${fields.map((field) => `${field} = NULL`).join(', ')}, updated_at = now()
       WHERE ${where}`,
      bindings,
    );
    await db.raw(`DELETE FROM restrictions WHERE ${where} AND ${ALL_CLEARED}`, bindings);
    return result.rowCount ?? 0;
  },

  /** The nights `from`..`to` that hold a restriction, by category, tariff (none first) and night. */
  async nights(db: DbOrTrx, hotelId: string, query: RestrictionQuery): Promise<RestrictionNight[]> {
    const rows = db('restrictions')
      .select('category_id', 'tariff_id', db.raw(NIGHT), ...RESTRICTION_FIELDS)
      .where({ hotel_id: hotelId })
      .whereBetween('night', [query.from, query.to])
      .orderBy([{ column: 'category_id' }, { column: 'tariff_id', nulls: 'first' }, { column: 'night' }]);
    if (query.category_id) rows.where({ category_id: query.category_id });
    if (query.tariff_id) rows.where({ tariff_id: query.tariff_id });
    else if (query.tariff_id === null) rows.whereNull('tariff_id');
    return (await rows).map(present);
  },

  /**
   * In one query: the restrictions on the nights of the stays (their arrival to their departure day, for their
   * categories, category-wide or of their tariffs) and the hotel's today in its time zone.
   */
  async forStays(db: DbOrTrx, hotelId: string, timeZone: string, stays: RestrictedStay[]) {
    const ranges = rangesOf(stays);
    const tariffs = stays.flatMap((stay) => (stay.tariff_id ? [stay.tariff_id] : []));
    const { rows } = await db.raw(
      `SELECT to_char((now() AT TIME ZONE ?)::date, 'YYYY-MM-DD') AS today, r.* FROM (SELECT 1) AS one
       LEFT JOIN (
         SELECT category_id, tariff_id, ${NIGHT}, ${RESTRICTION_FIELDS.join(', ')} FROM restrictions
         WHERE hotel_id = ? AND category_id = ANY(?::uuid[]) AND (tariff_id IS NULL OR tariff_id = ANY(?::uuid[]))
           AND (${ranges.map(() => 'night BETWEEN ? AND ?').join(' OR ')})
       ) AS r ON true`,
      [timeZone, hotelId, [...new Set(stays.map((stay) => stay.category_id))], tariffs, ...ranges.flat()],
    );
    const today = (rows[0] as { today: string }).today;
    const nights = (rows as Record<string, unknown>[]).filter((row) => row.night).map(present);
    return { today, nights };
  },
};
