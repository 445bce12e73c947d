import { pageOf, type PageRequest, type SortKey } from '../../platform/db/keyset';
import type { DbOrTrx } from '../../platform/db/knex';
import type { Block, BlockBooking, BlockNight, NightCount } from './blocks.types';

const NIGHT = (column: string) => `to_char(${column}, 'YYYY-MM-DD')`;
/** The stays holding a room, as the exclusion constraint on bookings spells them. */
const HOLDS_ROOM = `b.status IN ('inquiry','confirmed','checked_in')`;
const HOLDING = `k.status IN ('tentative','definite')`;
/** The block's stays of the category holding a room on night `night` (an SQL date). */
const PICKED = (night: string) =>
  `(SELECT count(*) FROM bookings b WHERE b.hotel_id = bn.hotel_id AND b.block_id = bn.block_id
     AND b.category_id = bn.category_id AND ${HOLDS_ROOM} AND b.check_in <= ${night} AND b.check_out > ${night})::int`;
/** When the night `bn` of block `k` in hotel `h` is released (null without a rule): the start of its day, hotel time. */
const RELEASE_AT = `((CASE k.release_kind WHEN 'date' THEN k.release_date
  WHEN 'rolling' THEN bn.night - k.release_days END)::timestamp AT TIME ZONE h.timezone)`;
/** The release's clock: the database's, `:ahead` seconds ahead (0 but in tests bringing a release near). */
const RELEASE_NOW = `(now() + make_interval(secs => :ahead))`;
const RELEASABLE = `block_nights bn JOIN blocks k ON k.hotel_id = bn.hotel_id AND k.id = bn.block_id
  JOIN hotels h ON h.id = bn.hotel_id`;
const ORDER: SortKey[] = [
  { sql: 'created_at', type: 'timestamptz', desc: true },
  { sql: 'id', type: 'uuid', desc: true },
];

/** A night where a category cannot give what blocks hold: its free rooms and the units held and not picked up. */
export interface Shortfall {
  night: string;
  free: number;
  unpicked: number;
}

export const blocksRepository = {
  async insert(db: DbOrTrx, hotelId: string, row: Partial<Block>): Promise<Block> {
    const [created] = await db('blocks')
      .insert({ ...row, hotel_id: hotelId })
      .returning('*');
    return created;
  },

  async update(db: DbOrTrx, hotelId: string, id: string, fields: Partial<Block>): Promise<Block> {
    const [updated] = await db('blocks')
      .where({ hotel_id: hotelId, id })
      .update({ ...fields, updated_at: db.fn.now() })
      .returning('*');
    return updated;
  },

  async find(db: DbOrTrx, hotelId: string, id: string, forUpdate = false): Promise<Block | undefined> {
    const query = db('blocks').where({ hotel_id: hotelId, id }).first();
    if (forUpdate) query.forUpdate();
    return query;
  },

  async list(db: DbOrTrx, hotelId: string, status: string | undefined, page: PageRequest) {
    const query = db('blocks').select('*').where({ hotel_id: hotelId });
    if (status) query.where({ status });
    return pageOf<Block>(db, query, ORDER, page);
  },

  /** The block's nights by category and night, with the units picked up. */
  async nights(db: DbOrTrx, hotelId: string, blockId: string): Promise<BlockNight[]> {
    const { rows } = await db.raw(
      `SELECT bn.category_id, ${NIGHT('bn.night')} AS night, bn.rooms, bn.released, bn.washed,
         ${PICKED('bn.night')} AS picked_up
       FROM block_nights bn WHERE bn.hotel_id = ? AND bn.block_id = ? ORDER BY bn.category_id, bn.night`,
      [hotelId, blockId],
    );
    return rows;
  },

  /** Writes the block's nights as given; those no longer given go. */
  async replaceNights(db: DbOrTrx, hotelId: string, blockId: string, nights: NightCount[]): Promise<void> {
    await db.raw(
      `WITH given AS (
         SELECT * FROM unnest(?::uuid[], ?::date[], ?::int[]) AS g(category_id, night, rooms)),
       gone AS (
         DELETE FROM block_nights bn WHERE bn.hotel_id = ? AND bn.block_id = ?
           AND NOT EXISTS (SELECT 1 FROM given g WHERE g.category_id = bn.category_id AND g.night = bn.night))
       INSERT INTO block_nights (hotel_id, block_id, category_id, night, rooms)
         SELECT ?, ?, category_id, night, rooms FROM given
       ON CONFLICT (hotel_id, block_id, category_id, night) DO UPDATE SET rooms = EXCLUDED.rooms
         WHERE block_nights.rooms IS DISTINCT FROM EXCLUDED.rooms`,
      [
        nights.map((night) => night.category_id),
        nights.map((night) => night.night),
        nights.map((night) => night.rooms),
        hotelId,
        blockId,
        hotelId,
        blockId,
      ],
    );
  },

  /** The hotel's categories among `ids`, with their names and how many rooms each has. */
  async categories(db: DbOrTrx, hotelId: string, ids: string[]) {
    const rows: { id: string; name: string; rooms: number }[] = await db('room_categories as c')
      .where('c.hotel_id', hotelId)
      .whereIn('c.id', ids)
      .select('c.id', 'c.name', db.raw('(SELECT count(*) FROM rooms r WHERE r.category_id = c.id)::int AS rooms'));
    return new Map(rows.map((row) => [row.id, row]));
  },

  /**
   * Serializes every write to what the categories hold against the stays written into them: their rows locked (a
   * booking being written keeps its category's row key-shared until it commits, so this waits for it and holds back
   * the next), then the categories' hold locks. Called after the block's row is locked: block row, categories in id
   * order, hold locks is the order stays take theirs in too (see `enter`), so writers wait for each other's commit but
   * never in a cycle (no deadlock).
   */
  async lockCategories(trx: DbOrTrx, hotelId: string, categoryIds: string[]): Promise<void> {
    const ids = [...new Set(categoryIds)].sort();
    await trx('room_categories').where({ hotel_id: hotelId }).whereIn('id', ids).orderBy('id').forUpdate().select('id');
    for (const id of ids) await this.lockHolds(trx, hotelId, id);
  },

  /** The category's hold lock, until the transaction ends: its held units are counted by one writer at a time. */
  async lockHolds(trx: DbOrTrx, hotelId: string, categoryId: string): Promise<void> {
    await trx.raw('SELECT pg_advisory_xact_lock(hashtextextended(?, 0))', [`blocks:${hotelId}:${categoryId}`]);
  },

  /** Keeps the block's row from a block write until the transaction ends (what inserting its stay does): its status. */
  async shareBlock(trx: DbOrTrx, hotelId: string, id: string): Promise<Pick<Block, 'status'> | undefined> {
    return trx('blocks').where({ hotel_id: hotelId, id }).forKeyShare().first('status');
  },

  /** Keeps the category's row from a block write until the transaction ends (what inserting a stay does already). */
  async shareCategory(trx: DbOrTrx, hotelId: string, categoryId: string): Promise<void> {
    await trx('room_categories').where({ hotel_id: hotelId, id: categoryId }).forKeyShare().select('id');
  },

  /** The nights of the span (their check-in to next check-out) on which blocks hold units of the category. */
  async heldNightsOf(db: DbOrTrx, hotelId: string, categoryId: string, span: { start: Date; end: Date }) {
    const { rows } = await db.raw(
      `SELECT DISTINCT ${NIGHT('bn.night')} AS night
       FROM block_nights bn JOIN blocks k ON k.hotel_id = bn.hotel_id AND k.id = bn.block_id
         JOIN hotels h ON h.id = bn.hotel_id
       WHERE bn.hotel_id = ? AND bn.category_id = ? AND bn.rooms > 0 AND ${HOLDING}
         AND bn.night BETWEEN ?::date - 1 AND ?::date + 1
         AND (bn.night + h.check_in_time::time) AT TIME ZONE h.timezone < ?
         AND (bn.night + 1 + h.check_out_time::time) AT TIME ZONE h.timezone > ?
       ORDER BY 1`,
      [hotelId, categoryId, span.start.toISOString(), span.end.toISOString(), span.end, span.start],
    );
    return (rows as { night: string }[]).map((row) => row.night);
  },

  /**
   * The nights among `nights` on which the category's free rooms (nothing holds them from that night's check-in to
   * the next check-out; not closed, not under maintenance) are fewer than the units blocks hold and have not picked up.
   */
  async shortfalls(db: DbOrTrx, hotelId: string, categoryId: string, nights: string[]): Promise<Shortfall[]> {
    const { rows } = await db.raw(
      `WITH n AS (
         SELECT d::date AS night, (d::date + h.check_in_time::time) AT TIME ZONE h.timezone AS s,
                (d::date + 1 + h.check_out_time::time) AT TIME ZONE h.timezone AS e
         FROM hotels h, unnest(:nights::date[]) AS d WHERE h.id = :hotelId)
       SELECT ${NIGHT('n.night')} AS night, f.free, u.unpicked FROM n
       CROSS JOIN LATERAL (
         SELECT count(*)::int AS free FROM rooms r
         WHERE r.hotel_id = :hotelId AND r.category_id = :categoryId AND r.status <> 'closed'
           AND NOT (r.maintenance_from IS NOT NULL
             AND tstzrange(r.maintenance_from, coalesce(r.maintenance_to, 'infinity')) && tstzrange(n.s, n.e))
           AND NOT EXISTS (SELECT 1 FROM booking_rooms s WHERE s.room_id = r.id AND s.active
             AND s.during && tstzrange(n.s, n.e))) f
       CROSS JOIN LATERAL (
         SELECT coalesce(sum(greatest(0, bn.rooms - ${PICKED('n.night')})), 0)::int AS unpicked
         FROM block_nights bn JOIN blocks k ON k.hotel_id = bn.hotel_id AND k.id = bn.block_id
         WHERE bn.hotel_id = :hotelId AND bn.category_id = :categoryId AND bn.night = n.night AND ${HOLDING}) u
       WHERE f.free < u.unpicked ORDER BY n.night`,
      { hotelId, categoryId, nights },
    );
    return rows;
  },

  /** Per category and night from `from` for `count` nights: the units blocks hold and have not picked up. */
  async unpicked(db: DbOrTrx, hotelId: string, from: string, count: number) {
    const { rows } = await db.raw(
      `SELECT bn.category_id, (bn.night - ?::date) AS day, sum(greatest(0, bn.rooms - ${PICKED('bn.night')}))::int AS held
       FROM block_nights bn JOIN blocks k ON k.hotel_id = bn.hotel_id AND k.id = bn.block_id
       WHERE bn.hotel_id = ? AND bn.rooms > 0 AND ${HOLDING} AND bn.night >= ?::date AND bn.night < ?::date + ?::int
       GROUP BY bn.category_id, bn.night`,
      [from, hotelId, from, from, count],
    );
    return rows as { category_id: string; day: number; held: number }[];
  },

  /**
   * The nights the block holds (a night released or washed to 0 too) on which its stays hold more rooms of a category
   * than it holds: the whole block, or one category over the nights `from`..`to` (exclusive). The block's stays on
   * nights it does not hold are any stays there.
   */
  async overdrawn(
    db: DbOrTrx,
    hotelId: string,
    blockId: string,
    only?: { categoryId: string; from: string; to: string },
  ): Promise<{ category_id: string; night: string; picked: number; rooms: number }[]> {
    const narrow = only ? 'AND b.category_id = ? AND d >= ?::date AND d < ?::date' : '';
    const { rows } = await db.raw(
      `SELECT b.category_id, ${NIGHT('d')} AS night, count(*)::int AS picked, max(bn.rooms)::int AS rooms
       FROM bookings b CROSS JOIN LATERAL generate_series(b.check_in, b.check_out - 1, interval '1 day') AS d
       JOIN block_nights bn ON bn.hotel_id = b.hotel_id AND bn.block_id = b.block_id
         AND bn.category_id = b.category_id AND bn.night = d::date
       WHERE b.hotel_id = ? AND b.block_id = ? AND ${HOLDS_ROOM} AND b.check_in IS NOT NULL ${narrow}
       GROUP BY b.category_id, d HAVING count(*) > max(bn.rooms)
       ORDER BY 2, 1`,
      [hotelId, blockId, ...(only ? [only.categoryId, only.from, only.to] : [])],
    );
    return rows;
  },

  /** Releases the units not picked up of the block's nights whose release time has come: what each night gave back. */
  async release(db: DbOrTrx, hotelId: string, blockId: string, ahead: number) {
    const { rows } = await db.raw(
      `WITH due AS (
         SELECT bn.category_id, bn.night, bn.rooms - ${PICKED('bn.night')} AS spare FROM ${RELEASABLE}
         WHERE bn.hotel_id = :hotelId AND bn.block_id = :blockId AND ${HOLDING} AND ${RELEASE_AT} <= ${RELEASE_NOW})
       UPDATE block_nights bn SET rooms = bn.rooms - due.spare, released = bn.released + due.spare
       FROM due WHERE bn.hotel_id = :hotelId AND bn.block_id = :blockId AND bn.category_id = due.category_id
         AND bn.night = due.night AND due.spare > 0
       RETURNING bn.category_id, ${NIGHT('bn.night')} AS night, due.spare AS released`,
      { hotelId, blockId, ahead },
    );
    return rows as { category_id: string; night: string; released: number }[];
  },

  /**
   * Milliseconds until the next release of a night that holds units, or null when none is to come. Every one counts,
   * those all picked up too: a stay of the pickup cancelled or shortened before the release frees a unit then.
   */
  async nextRelease(db: DbOrTrx, hotelId: string, blockId: string, ahead: number): Promise<number | null> {
    const { rows } = await db.raw(
      `SELECT ceil(extract(epoch FROM min(${RELEASE_AT}) - ${RELEASE_NOW}) * 1000)::bigint AS wait FROM ${RELEASABLE}
       WHERE bn.hotel_id = :hotelId AND bn.block_id = :blockId AND ${HOLDING} AND ${RELEASE_AT} > ${RELEASE_NOW}
         AND bn.rooms > 0`,
      { hotelId, blockId, ahead },
    );
    const wait = (rows[0] as { wait: string | null }).wait;
    return wait === null ? null : Number(wait);
  },

  /**
   * Takes `rooms` off each night of the items (by hand: a wash), never below what is picked up on it; answers the
   * nights that could not give as many.
   */
  async wash(db: DbOrTrx, hotelId: string, blockId: string, nights: NightCount[]) {
    const { rows } = await db.raw(
      `WITH asked AS (SELECT * FROM unnest(?::uuid[], ?::date[], ?::int[]) AS a(category_id, night, rooms)),
       washed AS (
         UPDATE block_nights bn SET rooms = bn.rooms - asked.rooms, washed = bn.washed + asked.rooms
         FROM asked WHERE bn.hotel_id = ? AND bn.block_id = ? AND bn.category_id = asked.category_id
           AND bn.night = asked.night AND bn.rooms - asked.rooms >= ${PICKED('bn.night')}
         RETURNING bn.category_id, bn.night)
       SELECT asked.category_id, ${NIGHT('asked.night')} AS night FROM asked
       WHERE NOT EXISTS (SELECT 1 FROM washed w WHERE w.category_id = asked.category_id AND w.night = asked.night)
       ORDER BY asked.night, asked.category_id`,
      [
        nights.map((night) => night.category_id),
        nights.map((night) => night.night),
        nights.map((night) => night.rooms),
        hotelId,
        blockId,
      ],
    );
    return rows as { category_id: string; night: string }[];
  },

  /** The hotel's slug (what its workflows are searched by). */
  async hotelSlug(db: DbOrTrx, hotelId: string): Promise<string> {
    const hotel: { slug: string } = await db('hotels').where({ id: hotelId }).first('slug');
    return hotel.slug;
  },

  /** The block's stays, in order of arrival. */
  async bookings(db: DbOrTrx, hotelId: string, blockId: string): Promise<BlockBooking[]> {
    return db('bookings')
      .where({ hotel_id: hotelId, block_id: blockId })
      .orderBy([{ column: 'check_in' }, { column: 'created_at' }, { column: 'id' }])
      .select(
        'id',
        'category_id',
        'room_id',
        db.raw(`${NIGHT('check_in')} AS check_in`),
        db.raw(`${NIGHT('check_out')} AS check_out`),
        'status',
        'guest_last_name',
        'guest_first_name',
      );
  },
};
