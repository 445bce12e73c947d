import type { Client } from '@temporalio/client';
import type { Db } from '../db/knex';
import { OUTBOX_CHANNEL } from '../db/outbox';
import { claimOutboxBatch, markDelivered, outboxBacklog, scheduleRetry, type ClaimedMessage } from '../db/outbox-queue';
import type { PgListener } from '../db/pg-listener';
import type { Logger } from '../logger';
import { deliverToTemporal, isTemporalUnavailable } from './outbox-delivery';

export interface OutboxRelayOptions {
  db: Db;
  client: Client;
  taskQueue: string;
  logger: Logger;
  /** The process's LISTEN connection: every commit that enqueues a message wakes the relay through it. */
  listener: PgListener;
  /** Batches in flight at once in this process; each holds one pooled connection while its calls run. */
  concurrency?: number;
  /** Messages claimed per batch, shared among the hotels that have some waiting. */
  batchSize?: number;
  /** How often an idle relay looks anyway: a message waiting for its retry time sends no notification. */
  pollIntervalMs?: number;
  /** How long one Temporal call may take; longer counts as Temporal being unavailable. */
  callTimeoutMs?: number;
  /** How often the backlog is logged while there is one. */
  backlogLogIntervalMs?: number;
  /** A backlog whose oldest message is older than this is logged as a warning (the API's /ready refuses then). */
  maxLagSeconds?: number;
}

export interface OutboxRelay {
  stop(): Promise<void>;
}

/** While Temporal is away, delivery pauses for this long, doubling up to `max`, instead of failing message by message. */
const OUTAGE_PAUSE_MS = { min: 250, max: 5000 };

type Outcome = { delivered: true } | { delivered: false; error: unknown; temporalAway: boolean };

/**
 * Delivers committed outbox rows to Temporal: several batches at once, each made of the next message of many
 * workflows, hotels served in turn. Any number of relays (one per worker replica) may run together: a claimed row is
 * locked until its batch commits, and a workflow's next message waits until its previous one is delivered.
 */
export function startOutboxRelay(options: OutboxRelayOptions): OutboxRelay {
  const { db, client, taskQueue, logger, listener } = options;
  const concurrency = options.concurrency ?? 4;
  const batchSize = options.batchSize ?? 25;
  const pollIntervalMs = options.pollIntervalMs ?? 1000;
  const callTimeoutMs = options.callTimeoutMs ?? 10_000;
  const maxLagSeconds = options.maxLagSeconds ?? 300;
  let stopped = false;
  /** Wakes the deliverers that wait for work, each once. */
  const idle = new Set<() => void>();
  /** A wake-up came while no deliverer waited: the next one about to wait looks once more instead. */
  let wakeMissed = false;
  let lastLane: string | undefined;
  let pausedUntil = 0;
  let outagePauseMs = 0;

  function wakeOne(): void {
    const [first] = idle;
    if (first) first();
    else wakeMissed = true;
  }

  function rest(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        idle.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      idle.add(done);
    });
  }

  async function attempt(claimed: ClaimedMessage): Promise<Outcome> {
    try {
      await client.withDeadline(Date.now() + callTimeoutMs, () =>
        deliverToTemporal(client, taskQueue, claimed.message),
      );
      return { delivered: true };
    } catch (error) {
      return { delivered: false, error, temporalAway: isTemporalUnavailable(error) };
    }
  }

  /** Temporal is away: every deliverer waits, and the messages keep their attempts and their place. */
  function pauseForOutage(error: unknown): void {
    if (Date.now() < pausedUntil) return;
    if (outagePauseMs === 0) logger.warn({ err: error }, 'Temporal unavailable: outbox delivery paused');
    outagePauseMs = outagePauseMs === 0 ? OUTAGE_PAUSE_MS.min : Math.min(OUTAGE_PAUSE_MS.max, outagePauseMs * 2);
    pausedUntil = Date.now() + outagePauseMs;
  }

  function temporalAnswered(): void {
    if (outagePauseMs === 0) return;
    outagePauseMs = 0;
    logger.info('Temporal reachable again: outbox delivery resumed');
  }

  const deliverBatch = () =>
    db.transaction(async (trx) => {
      const claimed = await claimOutboxBatch(trx, batchSize, lastLane);
      if (claimed.length === 0) return 0;
      lastLane = claimed[claimed.length - 1].lane;
      // More may be waiting: an idle deliverer claims the next batch while this one's calls run.
      if (claimed.length >= batchSize) wakeOne();
      const outcomes = await Promise.all(claimed.map(attempt));
      await markDelivered(
        trx,
        claimed.filter((_, i) => outcomes[i].delivered).map((row) => row.id),
      );
      let away: unknown;
      for (const [i, outcome] of outcomes.entries()) {
        if (outcome.delivered) continue;
        if (outcome.temporalAway) {
          away = outcome.error;
          continue;
        }
        const row = claimed[i];
        const error = outcome.error instanceof Error ? outcome.error.message : String(outcome.error);
        const attempts = await scheduleRetry(trx, row, error);
        logger.warn(
          { err: outcome.error, outboxId: row.id, workflowId: row.message.workflowId, attempts },
          'outbox delivery refused; will retry',
        );
      }
      if (away !== undefined) pauseForOutage(away);
      else temporalAnswered();
      return claimed.length;
    });

  async function deliverer(): Promise<void> {
    while (!stopped) {
      const pause = pausedUntil - Date.now();
      if (pause > 0) {
        await rest(pause);
        continue;
      }
      let claimed: number;
      try {
        claimed = await deliverBatch();
      } catch (error) {
        logger.error({ err: error }, 'outbox relay batch failed');
        await rest(pollIntervalMs);
        continue;
      }
      // A batch was delivered: look again at once (the next message of its workflows may be waiting).
      if (claimed > 0 || stopped) continue;
      if (wakeMissed) wakeMissed = false;
      else await rest(pollIntervalMs);
    }
  }

  async function logBacklog(): Promise<void> {
    const backlog = await outboxBacklog(db);
    if (backlog.pending === 0) return;
    const level = backlog.oldestAgeSeconds > maxLagSeconds ? 'warn' : 'info';
    logger[level](
      { pending: backlog.pending, oldestAgeSeconds: Math.round(backlog.oldestAgeSeconds) },
      'outbox backlog',
    );
  }

  const backlogTimer = setInterval(() => {
    logBacklog().catch((error: unknown) => logger.warn({ err: error }, 'outbox backlog unknown'));
  }, options.backlogLogIntervalMs ?? 10_000);
  backlogTimer.unref();

  // Notifications sent while the connection was away are lost: look at once whenever it listens (again).
  const unsubscribe = listener.subscribe(OUTBOX_CHANNEL, { onNotification: wakeOne, onListening: wakeOne });
  const deliverers = Array.from({ length: concurrency }, deliverer);

  return {
    async stop() {
      stopped = true;
      unsubscribe();
      clearInterval(backlogTimer);
      for (const wake of [...idle]) wake();
      await Promise.all(deliverers);
    },
  };
}
