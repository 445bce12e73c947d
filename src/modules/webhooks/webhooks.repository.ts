import type { DbOrTrx } from '../../platform/db/knex';
import {
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_KEEP_DAYS,
  type DeliveryRow,
  type EventRow,
  type SubscriptionRow,
} from './webhooks.types';

const PUBLISHED = [...WEBHOOK_EVENT_TYPES];
const keptSince = (conn: DbOrTrx) => conn.raw('now() - make_interval(days => ?)', [WEBHOOK_KEEP_DAYS]);

export const subscriptionsRepository = {
  list: (conn: DbOrTrx, hotelId: string): Promise<SubscriptionRow[]> =>
    conn('webhook_subscriptions')
      .where({ hotel_id: hotelId })
      .orderBy([{ column: 'created_at' }, { column: 'id' }]),

  find: (conn: DbOrTrx, hotelId: string, id: string): Promise<SubscriptionRow | undefined> =>
    conn('webhook_subscriptions').where({ hotel_id: hotelId, id }).first(),

  /** Locks the row for a change that reads it first (rotation, replay). */
  lock: (conn: DbOrTrx, hotelId: string, id: string): Promise<SubscriptionRow | undefined> =>
    conn('webhook_subscriptions').where({ hotel_id: hotelId, id }).forUpdate().first(),

  async insert(conn: DbOrTrx, row: Partial<SubscriptionRow> & { hotel_id: string }): Promise<SubscriptionRow> {
    const [created] = await conn('webhook_subscriptions')
      .insert({
        ...row,
        // From now on: the hotel's last event is already behind the new subscription.
        cursor: conn.raw('coalesce((SELECT last_id FROM realtime_event_heads WHERE hotel_id = ?), 0)', [row.hotel_id]),
      })
      .returning('*');
    return created as SubscriptionRow;
  },

  async update(conn: DbOrTrx, hotelId: string, id: string, changes: object): Promise<SubscriptionRow | undefined> {
    const [row] = await conn('webhook_subscriptions')
      .where({ hotel_id: hotelId, id })
      .update({ ...changes, updated_at: conn.fn.now() })
      .returning('*');
    return row as SubscriptionRow | undefined;
  },

  /** Moves the cursor from `from` to `to`; false when it moved meanwhile (a replay) or the subscription is paused. */
  async advance(conn: DbOrTrx, hotelId: string, id: string, from: number, to: number): Promise<boolean> {
    const moved = await conn('webhook_subscriptions')
      .where({ hotel_id: hotelId, id, cursor: from, status: 'active' })
      .update({ cursor: to });
    return moved === 1;
  },

  remove: (conn: DbOrTrx, hotelId: string, id: string): Promise<number> =>
    conn('webhook_subscriptions').where({ hotel_id: hotelId, id }).delete(),
};

export const eventsRepository = {
  /** The hotel's published events after `after`, in order, of the given types (all published ones when absent). */
  after(
    conn: DbOrTrx,
    hotelId: string,
    after: number,
    limit: number,
    types?: readonly string[],
    through = Number.MAX_SAFE_INTEGER,
  ): Promise<EventRow[]> {
    return conn('webhook_events')
      .where({ hotel_id: hotelId })
      .where('seq', '>', after)
      .where('seq', '<=', through)
      .whereIn('type', types ? types.filter((type) => PUBLISHED.includes(type as never)) : PUBLISHED)
      .where('created_at', '>=', keptSince(conn))
      .orderBy('seq')
      .limit(limit);
  },

  find: (conn: DbOrTrx, hotelId: string, seq: number): Promise<EventRow | undefined> =>
    conn('webhook_events').where({ hotel_id: hotelId, seq }).first(),

  /** The last seq before `at` (the cursor a replay from that time starts after), by the (hotel, created_at) index. */
  async lastBefore(conn: DbOrTrx, hotelId: string, at: Date): Promise<number> {
    const row = (await conn('webhook_events')
      .where({ hotel_id: hotelId })
      .where('created_at', '<', at)
      .orderBy('created_at', 'desc')
      .first('seq')) as { seq: string } | undefined;
    return Number(row?.seq ?? 0);
  },

  /** The hotel's last seq (of any type): a scan's bound, which the cursor may move to once it has been scanned. */
  async last(conn: DbOrTrx, hotelId: string): Promise<number> {
    const row = (await conn('webhook_events').where({ hotel_id: hotelId }).max('seq as seq').first()) as
      { seq: string | null } | undefined;
    return Number(row?.seq ?? 0);
  },

  /**
   * The hotel's horizon: the last seq no longer served (purged, or older than 30 days and not purged yet); 0 when
   * nothing is gone. Events at or below it are never delivered, replayed or served again.
   */
  async horizon(conn: DbOrTrx, hotelId: string): Promise<number> {
    const purged = (await conn('webhook_event_horizons').where({ hotel_id: hotelId }).first('purged_through')) as
      { purged_through: string } | undefined;
    const expired = (await conn('webhook_events')
      .where({ hotel_id: hotelId })
      .where('created_at', '<', keptSince(conn))
      .max('seq as seq')
      .first()) as { seq: string | null } | undefined;
    return Math.max(Number(purged?.purged_through ?? 0), Number(expired?.seq ?? 0));
  },

  /**
   * Removes events older than the window, at most `batch` (by the created_at index), remembering per hotel how far
   * its history was cut. Returns how many went.
   */
  async purgeEvents(conn: DbOrTrx, batch: number): Promise<number> {
    const result = await conn.raw(
      `WITH purged AS (
         DELETE FROM webhook_events WHERE (hotel_id, seq) IN (
           SELECT hotel_id, seq FROM webhook_events WHERE created_at < now() - make_interval(days => ?) LIMIT ?)
         RETURNING hotel_id, seq
       ), horizons AS (
         INSERT INTO webhook_event_horizons (hotel_id, purged_through)
         SELECT hotel_id, max(seq) FROM purged GROUP BY hotel_id
         ON CONFLICT (hotel_id) DO UPDATE
           SET purged_through = GREATEST(webhook_event_horizons.purged_through, EXCLUDED.purged_through)
       )
       SELECT count(*)::int AS purged FROM purged`,
      [WEBHOOK_KEEP_DAYS, batch],
    );
    return (result as { rows: { purged: number }[] }).rows[0].purged;
  },
};

export const deliveriesRepository = {
  record: (
    conn: DbOrTrx,
    row: Omit<DeliveryRow, 'id' | 'created_at'> & { hotel_id: string; subscription_id: string },
  ) => conn('webhook_deliveries').insert(row),

  /** How many attempts each of these events has had to the subscription. */
  async attempts(conn: DbOrTrx, hotelId: string, subscriptionId: string, seqs: string[]): Promise<Map<number, number>> {
    const rows = (await conn('webhook_deliveries')
      .where({ hotel_id: hotelId, subscription_id: subscriptionId })
      .whereIn('seq', seqs)
      .groupBy('seq')
      .select('seq', conn.raw('max(attempt)::int AS attempts'))) as { seq: string; attempts: number }[];
    return new Map(rows.map((row) => [Number(row.seq), row.attempts]));
  },

  /** Removes at most `batch` attempts older than the window (by the created_at index); returns how many went. */
  async purge(conn: DbOrTrx, batch: number): Promise<number> {
    const result = await conn.raw(
      `WITH purged AS (
         DELETE FROM webhook_deliveries WHERE id IN (
           SELECT id FROM webhook_deliveries WHERE created_at < now() - make_interval(days => ?) LIMIT ?)
         RETURNING 1
       )
       SELECT count(*)::int AS purged FROM purged`,
      [WEBHOOK_KEEP_DAYS, batch],
    );
    return (result as { rows: { purged: number }[] }).rows[0].purged;
  },

  /** Newest first, before the `before` id when given. */
  list(conn: DbOrTrx, hotelId: string, subscriptionId: string, limit: number, before?: number): Promise<DeliveryRow[]> {
    const query = conn('webhook_deliveries')
      .where({ hotel_id: hotelId, subscription_id: subscriptionId })
      .orderBy('id', 'desc')
      .limit(limit)
      .select('id', 'seq', 'webhook_id', 'attempt', 'status_code', 'latency_ms', 'error', 'created_at');
    return before === undefined ? query : query.where('id', '<', before);
  },
};
