import type { Knex } from 'knex';
import type { DbOrTrx } from './knex';
import type { OutboxMessage } from './outbox';

/** An undelivered row, locked by the transaction that claimed it until that transaction ends. */
export interface ClaimedMessage {
  id: string;
  message: OutboxMessage;
  attempts: number;
  /** The hotel it belongs to ('' for messages without one). */
  lane: string;
}

export interface OutboxBacklog {
  /** Undelivered messages, whether due, waiting for a retry or for an earlier message of their workflow. */
  pending: number;
  /** Age of the oldest undelivered message (0 when there is none). */
  oldestAgeSeconds: number;
}

/** The lanes (hotels) with undelivered messages, in order: one index probe per lane, however long the queues. */
async function pendingLanes(trx: Knex.Transaction): Promise<string[]> {
  const { rows } = await trx.raw<{ rows: { lane: string }[] }>(`
    WITH RECURSIVE lanes(lane) AS (
      (SELECT lane FROM outbox WHERE delivered_at IS NULL ORDER BY lane LIMIT 1)
      UNION ALL
      SELECT (SELECT next.lane FROM outbox next
               WHERE next.delivered_at IS NULL AND next.lane > lanes.lane ORDER BY next.lane LIMIT 1)
        FROM lanes WHERE lanes.lane IS NOT NULL
    )
    SELECT lane FROM lanes WHERE lane IS NOT NULL`);
  return rows.map((row) => row.lane);
}

/** The lanes in turn: those after `previous` first, so that with more lanes than a batch holds, each gets its turn. */
function inTurn(lanes: string[], previous: string | undefined, count: number): string[] {
  const start = previous === undefined ? 0 : lanes.findIndex((lane) => lane > previous);
  const rotated = start <= 0 ? lanes : [...lanes.slice(start), ...lanes.slice(0, start)];
  return rotated.slice(0, count);
}

/**
 * Claims up to about `batchSize` messages that may be delivered now, shared out equally among the lanes that have
 * some, so one hotel's burst never queues another's messages behind it. Only the first undelivered message of each
 * workflow qualifies (its later ones wait until it is delivered), so the claimed messages can all be delivered at
 * once without reordering any workflow's. Rows another relay has claimed are skipped, not waited for.
 */
export async function claimOutboxBatch(
  trx: Knex.Transaction,
  batchSize: number,
  previousLane?: string,
): Promise<ClaimedMessage[]> {
  const lanes = inTurn(await pendingLanes(trx), previousLane, batchSize);
  if (lanes.length === 0) return [];
  const perLane = Math.ceil(batchSize / lanes.length);
  const { rows } = await trx.raw<{ rows: ClaimedMessage[] }>(
    `SELECT claimed.id, claimed.message, claimed.attempts, claimed.lane
       FROM unnest(?::text[]) WITH ORDINALITY AS turn(lane, position)
       CROSS JOIN LATERAL (
         SELECT candidate.id, candidate.message, candidate.attempts, candidate.lane
           FROM outbox candidate
          WHERE candidate.lane = turn.lane
            AND candidate.delivered_at IS NULL
            AND candidate.available_at <= now()
            AND NOT EXISTS (
              SELECT 1 FROM outbox earlier
               WHERE earlier.workflow_id = candidate.workflow_id
                 AND earlier.delivered_at IS NULL
                 AND earlier.id < candidate.id)
          ORDER BY candidate.id
          LIMIT ?
            FOR UPDATE OF candidate SKIP LOCKED
       ) claimed
      ORDER BY turn.position, claimed.id`,
    [lanes, perLane],
  );
  return rows;
}

export async function markDelivered(trx: DbOrTrx, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  // The time of delivery itself, not of the claiming transaction's start: the backlog's age and benches read it.
  await trx('outbox')
    .whereIn('id', ids)
    .update({ delivered_at: trx.raw('clock_timestamp()'), last_error: null });
}

/** A refused delivery is tried again after a delay that doubles with each attempt (up to five minutes). */
export async function scheduleRetry(trx: DbOrTrx, claimed: ClaimedMessage, error: string): Promise<number> {
  const attempts = claimed.attempts + 1;
  await trx('outbox')
    .where({ id: claimed.id })
    .update({
      attempts,
      last_error: error.slice(0, 1000),
      available_at: trx.raw('now() + make_interval(secs => ?)', [Math.min(300, 2 ** Math.min(attempts, 9))]),
    });
  return attempts;
}

/** One index-only scan of the undelivered rows: cheap enough for every `/ready` probe. */
export async function outboxBacklog(db: DbOrTrx): Promise<OutboxBacklog> {
  const { rows } = await db.raw<{ rows: { pending: number; oldest_age_seconds: number }[] }>(
    `SELECT count(*)::int AS pending,
            coalesce(extract(epoch FROM now() - min(created_at)), 0)::float8 AS oldest_age_seconds
       FROM outbox WHERE delivered_at IS NULL`,
  );
  return { pending: rows[0].pending, oldestAgeSeconds: Math.max(0, rows[0].oldest_age_seconds) };
}
