import type pg from 'pg';
import { fromStoredFields } from './jsonb';
import type { Db, DbOrTrx } from './knex';
import { traceIdOf } from '../observability/trace-context';
import type { OutboxMessage, SignalMessage, StartWorkflowMessage } from './outbox';

/** First key of the relay's advisory locks (the second is the workflow id's hash); no other lock uses it. */
const WORKFLOW_LOCKS = 1869968482;

interface ClaimedRowFields {
  id: string;
  workflowId: string;
  /** The hotel it belongs to ('' for messages without one). */
  lane: string;
  attempts: number;
}

/** An undelivered message whose workflow this relay has locked until it reports the outcome. */
export type ClaimedMessage = ClaimedRowFields &
  (
    | { message: OutboxMessage; signal?: undefined }
    | {
        message: StartWorkflowMessage;
        /**
         * The workflow's next message, when this one starts the workflow (at its first attempt) and the next is a
         * signal already due, of no trace or the start's: the relay delivers both in one call (signal-with-start) and
         * records them together.
         */
        signal: ClaimedRowFields & { message: SignalMessage };
      }
  );

export interface DeliveryOutcomes {
  delivered: ClaimedMessage[];
  /** Refused by Temporal: tried again after a delay that doubles with each attempt. */
  refused: { claimed: ClaimedMessage; error: string }[];
  /** Not delivered because Temporal was away: they keep their attempts and stay due. */
  untouched: ClaimedMessage[];
}

export interface OutboxBacklog {
  /** Undelivered messages, whether due, waiting for a retry or for an earlier message of their workflow. */
  pending: number;
  /** Age of the oldest undelivered message (0 when there is none). */
  oldestAgeSeconds: number;
}

/**
 * The relay's hold on the messages it delivers. One connection of its own (outside the pool) takes a session
 * advisory lock per workflow being delivered: the lock lasts while the calls to Temporal run, with no transaction
 * left open, and it vanishes with the connection if the process dies (another relay then delivers those messages
 * again, which has no second effect).
 */
export interface OutboxClaims {
  /**
   * Locks up to about `count` messages that may be delivered now, shared out equally among the lanes that have some,
   * so one hotel's burst never queues another's messages behind it; with more lanes than `count`, the lanes after
   * those of the previous claim come first. Only the first undelivered message of a workflow qualifies (the next
   * waits until it is delivered), so all of them can be delivered at once without reordering any workflow's; a start
   * brings the signal right after it when that one is due and of no trace or the start's (`signal`). `held` are this
   * relay's messages still in flight.
   */
  claim(count: number, held: string[]): Promise<ClaimedMessage[]>;
  /** Records what became of claimed messages, then releases their workflows. */
  finish(outcomes: DeliveryOutcomes): Promise<void>;
  close(): Promise<void>;
}

/** The lanes (hotels) with messages due, in order: one index probe per lane, however long the queues. */
const DUE_LANES = `
  WITH RECURSIVE lanes(lane) AS (
    (SELECT lane FROM outbox WHERE delivered_at IS NULL AND available_at <= now() ORDER BY lane LIMIT 1)
    UNION ALL
    SELECT (SELECT next.lane FROM outbox next
             WHERE next.delivered_at IS NULL AND next.available_at <= now() AND next.lane > lanes.lane
             ORDER BY next.lane LIMIT 1)
      FROM lanes WHERE lanes.lane IS NOT NULL
  )
  SELECT lane FROM lanes WHERE lane IS NOT NULL`;

/**
 * Each lane's first deliverable messages; the lock is tried on those candidates only (OFFSET 0 keeps the planner
 * from evaluating it on others), and a workflow another relay holds is skipped.
 */
const LOCK_CANDIDATES = `
  SELECT id, workflow_id, lane, message, attempts FROM (
    SELECT picked.*, turn.position
      FROM unnest($1::text[]) WITH ORDINALITY AS turn(lane, position)
      CROSS JOIN LATERAL (
        SELECT candidate.id, candidate.workflow_id, candidate.lane, candidate.message, candidate.attempts
          FROM outbox candidate
         WHERE candidate.lane = turn.lane
           AND candidate.delivered_at IS NULL
           AND candidate.available_at <= now()
           AND candidate.id <> ALL($3::bigint[])
           AND NOT EXISTS (
             SELECT 1 FROM outbox earlier
              WHERE earlier.workflow_id = candidate.workflow_id
                AND earlier.delivered_at IS NULL
                AND earlier.id < candidate.id)
         ORDER BY candidate.id
         LIMIT $2
      ) picked
    OFFSET 0
  ) candidates
  WHERE pg_try_advisory_lock(${WORKFLOW_LOCKS}, hashtext(workflow_id))
  ORDER BY position, id`;

/**
 * After the locks, with a fresh snapshot: a message another relay delivered (or put off) just before releasing its
 * workflow looked deliverable to the candidates' older snapshot.
 */
const STILL_DUE = `SELECT id FROM outbox WHERE id = ANY($1::bigint[]) AND delivered_at IS NULL AND available_at <= now()`;

/**
 * The message after each claimed start of a workflow, when it is a signal that is due: the relay holds the workflow,
 * so that signal is the next to go anyway. Only the very next one (a later signal waits for its turn as before).
 * Migration 122's `outbox_wake` assumes a woken workflow's messages go one at a time: those (webhooks, channel sync)
 * never enqueue a start, so none of them is taken here.
 */
const FOLLOWING_SIGNALS = `
  SELECT start.id AS start_id, next.id, next.message, next.attempts
    FROM unnest($1::bigint[], $2::text[]) AS start(id, workflow_id)
    CROSS JOIN LATERAL (
      SELECT following.id, following.message, following.available_at, following.attempts FROM outbox following
       WHERE following.workflow_id = start.workflow_id AND following.delivered_at IS NULL AND following.id > start.id
       ORDER BY following.id
       LIMIT 1
    ) next
   WHERE next.available_at <= now() AND next.message->>'kind' IN ('signalWorkflow', 'signalWithStart')`;

const UNLOCK = `SELECT pg_advisory_unlock(${WORKFLOW_LOCKS}, hashtext(workflow_id)) FROM unnest($1::text[]) AS workflow_id`;

function inTurn(lanes: string[], previous: string | undefined, count: number): string[] {
  const start = previous === undefined ? 0 : lanes.findIndex((lane) => lane > previous);
  const rotated = start <= 0 ? lanes : [...lanes.slice(start), ...lanes.slice(0, start)];
  return rotated.slice(0, count);
}

function retryDelaySeconds(attempts: number): number {
  return Math.min(300, 2 ** Math.min(attempts, 9));
}

/**
 * Each claimed first attempt of a start, with the signal that follows it when there is one, of no trace or the
 * start's (one call runs in one trace: a signal of another request's trace goes alone, in its own). A start Temporal
 * refused is tried again alone, as are all other messages.
 */
async function withFollowingSignals(client: pg.Client, claimed: ClaimedMessage[]): Promise<ClaimedMessage[]> {
  const starts = claimed.filter((one) => one.message.kind === 'startWorkflow' && one.attempts === 0);
  if (starts.length === 0) return claimed;
  const { rows } = await client.query<{ start_id: string; id: string; message: SignalMessage; attempts: number }>(
    FOLLOWING_SIGNALS,
    [starts.map((start) => start.id), starts.map((start) => start.workflowId)],
  );
  const signals = new Map(rows.map((row) => [row.start_id, { ...row, message: fromStoredFields(row.message) }]));
  return claimed.map((one): ClaimedMessage => {
    const signal = signals.get(one.id);
    const { message } = one;
    if (!signal || message.kind !== 'startWorkflow') return one;
    const signalTrace = traceIdOf(signal.message.traceContext);
    if (signalTrace !== undefined && signalTrace !== traceIdOf(message.traceContext)) return one;
    const { id, attempts } = signal;
    return {
      ...one,
      message,
      signal: { id, workflowId: one.workflowId, lane: one.lane, attempts, message: signal.message },
    };
  });
}

interface ClaimedRow {
  id: string;
  workflow_id: string;
  lane: string;
  message: OutboxMessage;
  attempts: number;
}

export function openOutboxClaims(db: Db): OutboxClaims {
  let live: Promise<pg.Client> | undefined;
  let lastLane: string | undefined;

  /** The claims connection, opened again after a loss (the locks it held went with it). */
  function connection(): Promise<pg.Client> {
    if (live) return live;
    const opening: Promise<pg.Client> = (db.client.acquireRawConnection() as Promise<pg.Client>).then(
      (client) => {
        const forget = () => {
          if (live === opening) live = undefined;
        };
        client.on('error', forget);
        client.on('end', forget);
        return client;
      },
      (error: unknown) => {
        live = undefined;
        throw error;
      },
    );
    live = opening;
    return opening;
  }

  async function unlock(client: pg.Client, workflowIds: string[]): Promise<void> {
    if (workflowIds.length > 0) await client.query(UNLOCK, [workflowIds]);
  }

  return {
    async claim(count, held) {
      const client = await connection();
      const { rows: lanes } = await client.query<{ lane: string }>(DUE_LANES);
      const turn = inTurn(
        lanes.map((row) => row.lane),
        lastLane,
        count,
      );
      if (turn.length === 0) return [];
      lastLane = turn[turn.length - 1];
      const perLane = Math.ceil(count / turn.length);
      const { rows: locked } = await client.query<ClaimedRow>(LOCK_CANDIDATES, [turn, perLane, held]);
      if (locked.length === 0) return [];
      // The session stays up after an error: the locks taken must not outlive the claim.
      let stillLocked = locked.map((row) => row.workflow_id);
      try {
        const { rows: due } = await client.query<{ id: string }>(STILL_DUE, [locked.map((row) => row.id)]);
        const dueIds = new Set(due.map((row) => row.id));
        await unlock(
          client,
          locked.filter((row) => !dueIds.has(row.id)).map((row) => row.workflow_id),
        );
        const claimed = locked.filter((row) => dueIds.has(row.id));
        stillLocked = claimed.map((row) => row.workflow_id);
        return await withFollowingSignals(
          client,
          claimed.map((row) => ({
            id: row.id,
            workflowId: row.workflow_id,
            lane: row.lane,
            message: fromStoredFields(row.message),
            attempts: row.attempts,
          })),
        );
      } catch (error) {
        await unlock(client, stillLocked).catch(() => undefined);
        throw error;
      }
    },

    async finish({ delivered, refused, untouched }) {
      const client = await connection();
      if (delivered.length > 0) {
        // The time of delivery itself (the backlog's age and the bench read it), one for a start and its signal.
        await client.query(
          'UPDATE outbox SET delivered_at = statement_timestamp(), last_error = NULL WHERE id = ANY($1::bigint[])',
          [delivered.flatMap((claimed) => (claimed.signal ? [claimed.id, claimed.signal.id] : [claimed.id]))],
        );
      }
      for (const { claimed, error } of refused) {
        const attempts = claimed.attempts + 1;
        await client.query(
          `UPDATE outbox SET attempts = $2, last_error = $3, available_at = now() + make_interval(secs => $4)
            WHERE id = $1`,
          [claimed.id, attempts, error.slice(0, 1000), retryDelaySeconds(attempts)],
        );
      }
      // Only now: a workflow released before its outcome is recorded could be delivered again by another relay. Once
      // per workflow: a start and its signal may be recorded apart (the start delivered, the signal refused alone).
      await unlock(client, [
        ...new Set(
          [...delivered, ...refused.map(({ claimed }) => claimed), ...untouched].map((claimed) => claimed.workflowId),
        ),
      ]);
    },

    async close() {
      const closing = live;
      live = undefined;
      const client = await closing?.catch(() => undefined);
      if (client) await db.client.destroyRawConnection(client).catch(() => undefined);
    },
  };
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
