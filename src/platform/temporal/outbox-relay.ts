import type { Client } from '@temporalio/client';
import type { MetricMeter } from '@temporalio/common';
import type { Db } from '../db/knex';
import { OUTBOX_CHANNEL } from '../db/outbox';
import { openOutboxClaims, outboxBacklog, type ClaimedMessage, type DeliveryOutcomes } from '../db/outbox-queue';
import type { PgListener } from '../db/pg-listener';
import type { Logger } from '../logger';
import {
  deliverStartWithSignal,
  deliverToTemporal,
  isTemporalUnavailable,
  type DeliveryOptions,
} from './outbox-delivery';

export interface OutboxRelayOptions extends DeliveryOptions {
  db: Db;
  client: Client;
  taskQueue: string;
  logger: Logger;
  /** The process's LISTEN connection: every commit that enqueues a message wakes the relay through it. */
  listener: PgListener;
  /** Calls to Temporal in flight at once (each for another workflow). */
  concurrency?: number;
  /** How often an idle relay looks anyway: a message waiting for its retry time sends no notification. */
  pollIntervalMs?: number;
  /** How long one Temporal call may take; longer counts as Temporal being unavailable. */
  callTimeoutMs?: number;
  /** How often the backlog is measured (into the gauges, and the log while there is one). */
  backlogLogIntervalMs?: number;
  /** A backlog whose oldest message is older than this is logged as a warning (the API's /ready refuses then). */
  maxLagSeconds?: number;
  /** Where the backlog is also reported as gauges, with the worker's own metrics (Temporal's runtime meter). */
  metricMeter?: MetricMeter;
}

export interface OutboxRelay {
  stop(): Promise<void>;
}

/** While Temporal is away, claiming pauses for this long, doubling up to `max`, instead of failing message by message. */
const OUTAGE_PAUSE_MS = { min: 250, max: 5000 };

type Outcome<T> = { answer: T } | { refused: unknown } | 'temporalAway';

/**
 * Delivers committed outbox rows to Temporal: up to `concurrency` calls in flight, each for the next message of
 * another workflow, refilled as calls return, hotels served in turn. Any number of relays (one per worker replica)
 * may run together: a workflow being delivered is locked by its relay, and its next message waits until the
 * previous one is recorded as delivered. A start whose signal is already waiting goes with it, in one call.
 */
export function startOutboxRelay(options: OutboxRelayOptions): OutboxRelay {
  const { db, client, taskQueue, logger, listener } = options;
  const concurrency = options.concurrency ?? 50;
  // Claim again once a fifth of the slots are free: fewer claim queries, and still a short wait for a new message.
  const refillAt = Math.max(1, Math.floor(concurrency / 5));
  const pollIntervalMs = options.pollIntervalMs ?? 1000;
  const callTimeoutMs = options.callTimeoutMs ?? 10_000;
  const maxLagSeconds = options.maxLagSeconds ?? 300;
  const claims = openOutboxClaims(db);
  /** Claimed and not yet released, by outbox id. */
  const held = new Map<string, ClaimedMessage>();
  const deliveries = new Set<Promise<void>>();
  let outcomes: DeliveryOutcomes = { delivered: [], refused: [], untouched: [] };
  let recording: Promise<void> | undefined;
  let stopped = false;
  let pausedUntil = 0;
  let outagePauseMs = 0;
  let wakeUp: (() => void) | undefined;
  let wakePending = false;

  function wake(): void {
    if (wakeUp) wakeUp();
    else wakePending = true;
  }

  /** Waits `ms`, or less if woken (by a notification, a recorded outcome or stop). */
  function rest(ms: number): Promise<void> {
    if (wakePending) {
      wakePending = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const timer = setTimeout(() => wakeUp?.(), ms);
      wakeUp = () => {
        clearTimeout(timer);
        wakeUp = undefined;
        resolve();
      };
    });
  }

  /** Temporal is away: no new claims for a while, and the messages keep their attempts and their place. */
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

  /** One call to Temporal, with its own deadline. */
  async function call<T>(send: () => Promise<T>): Promise<Outcome<T>> {
    try {
      return { answer: await client.withDeadline(Date.now() + callTimeoutMs, send) };
    } catch (error) {
      if (!isTemporalUnavailable(error)) return { refused: error };
      pauseForOutage(error);
      return 'temporalAway';
    }
  }

  /** Outcomes are recorded in batches, one batch at a time; each releases its workflows and slots. */
  async function recordOutcomes(): Promise<void> {
    while (outcomes.delivered.length + outcomes.refused.length + outcomes.untouched.length > 0) {
      const batch = outcomes;
      outcomes = { delivered: [], refused: [], untouched: [] };
      try {
        await claims.finish(batch);
      } catch (error) {
        // Left undelivered: delivered again later, by this relay or another, with no second effect.
        logger.error({ err: error }, 'outbox outcomes not recorded');
      }
      for (const claimed of [...batch.delivered, ...batch.refused.map((r) => r.claimed), ...batch.untouched]) {
        held.delete(claimed.id);
      }
      // Slots are free, and the next message of these workflows may be due.
      wake();
    }
    recording = undefined;
  }

  function note(claimed: ClaimedMessage, outcome: Outcome<unknown>): void {
    if (outcome === 'temporalAway') {
      outcomes.untouched.push(claimed);
      return;
    }
    if ('answer' in outcome) {
      outcomes.delivered.push(claimed);
      temporalAnswered();
      return;
    }
    const reason = outcome.refused instanceof Error ? outcome.refused.message : String(outcome.refused);
    // A start refused with its signal: the start's row takes the attempt, naming the signal that went with it.
    const error = claimed.signal ? `with signal ${claimed.signal.id}: ${reason}` : reason;
    outcomes.refused.push({ claimed, error });
    logger.warn(
      {
        err: outcome.refused,
        outboxId: claimed.id,
        signalOutboxId: claimed.signal?.id,
        workflowId: claimed.workflowId,
        attempts: claimed.attempts + 1,
      },
      'outbox delivery refused; will retry',
    );
  }

  /**
   * A start with its signal in one call; when the workflow had finished, the start is delivered (as it would have been
   * alone) and the signal goes alone, its outcome its own. Both are noted together: the workflow stays held until then.
   */
  async function deliverPair(claimed: ClaimedMessage & { signal: object }): Promise<void> {
    const { signal, ...start } = claimed;
    const merged = await call(() => deliverStartWithSignal(client, taskQueue, start.message, signal.message));
    if (merged === 'temporalAway' || !('answer' in merged) || merged.answer === 'accepted') {
      note(claimed, merged);
      return;
    }
    const alone = await call(() => deliverToTemporal(client, taskQueue, signal.message, options));
    note(start, merged);
    note(signal, alone);
  }

  async function deliver(claimed: ClaimedMessage): Promise<void> {
    if (claimed.signal) await deliverPair(claimed);
    else note(claimed, await call(() => deliverToTemporal(client, taskQueue, claimed.message, options)));
    recording ??= recordOutcomes();
  }

  async function claimMore(): Promise<number> {
    const claimed = await claims.claim(concurrency - held.size, [...held.keys()]);
    for (const message of claimed) {
      held.set(message.id, message);
      const delivery = deliver(message).finally(() => deliveries.delete(delivery));
      deliveries.add(delivery);
    }
    return claimed.length;
  }

  const pump = (async () => {
    while (!stopped) {
      const pause = pausedUntil - Date.now();
      if (pause > 0) {
        await rest(pause);
        continue;
      }
      if (concurrency - held.size >= refillAt) {
        try {
          // Some claimed and slots left: other lanes may have more (each lane got only its share).
          if ((await claimMore()) > 0) continue;
        } catch (error) {
          logger.error({ err: error }, 'outbox claim failed');
        }
      }
      await rest(pollIntervalMs);
    }
  })();

  const meter = options.metricMeter;
  const backlogGauges = meter && {
    pending: meter.createGauge('hotel_pms_outbox_pending_messages', 'int', '', 'Undelivered outbox messages'),
    oldestAge: meter.createGauge('hotel_pms_outbox_oldest_age_seconds', 'float', 's', 'Oldest undelivered message'),
  };

  async function reportBacklog(): Promise<void> {
    const backlog = await outboxBacklog(db);
    backlogGauges?.pending.set(backlog.pending);
    backlogGauges?.oldestAge.set(backlog.oldestAgeSeconds);
    if (backlog.pending === 0) return;
    const level = backlog.oldestAgeSeconds > maxLagSeconds ? 'warn' : 'info';
    logger[level](
      { pending: backlog.pending, oldestAgeSeconds: Math.round(backlog.oldestAgeSeconds) },
      'outbox backlog',
    );
  }

  const backlogTimer = setInterval(() => {
    reportBacklog().catch((error: unknown) => logger.warn({ err: error }, 'outbox backlog unknown'));
  }, options.backlogLogIntervalMs ?? 10_000);
  backlogTimer.unref();

  // Notifications sent while the connection was away are lost: look at once whenever it listens (again).
  const unsubscribe = listener.subscribe(OUTBOX_CHANNEL, { onNotification: wake, onListening: wake });

  return {
    async stop() {
      stopped = true;
      unsubscribe();
      clearInterval(backlogTimer);
      wake();
      await pump;
      await Promise.all([...deliveries]);
      await recording;
      await claims.close();
    },
  };
}
