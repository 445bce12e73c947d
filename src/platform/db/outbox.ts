import type { Knex } from 'knex';
import { activeTraceCarrier, type TraceCarrier } from '../observability/trace-context';
import { toStorableFields } from './jsonb';
import type { Db, DbOrTrx } from './knex';

export const OUTBOX_CHANNEL = 'outbox';

export interface SearchAttributeValues {
  HotelSlug?: string;
  BookingId?: string;
}

/**
 * What an operator reads in the Temporal UI to recognise a workflow (hotel slug, booking id, guest initials): short
 * labels, never names, e-mails or phones.
 */
export type WorkflowMemo = Record<string, string>;

export type OutboxMessage = (
  | {
      kind: 'startWorkflow';
      workflowType: string;
      workflowId: string;
      args: unknown[];
      searchAttributes: SearchAttributeValues;
      memo?: WorkflowMemo;
    }
  | { kind: 'signalWorkflow'; workflowId: string; signal: string; args: unknown[] }
  | {
      /** Signals the workflow, starting it first if it does not exist yet (so no signal can outrun its start). */
      kind: 'signalWithStart';
      workflowType: string;
      workflowId: string;
      args: unknown[];
      signal: string;
      signalArgs: unknown[];
      searchAttributes: SearchAttributeValues;
      memo?: WorkflowMemo;
      /**
       * Start a new run when the workflow has finished, instead of dropping the signal: for workflows whose every
       * run re-reads the facts and acts only on what is left (money a provider reports late must never be lost).
       */
      reviveFinished?: boolean;
    }
  | {
      /** Completes an activity that finished asynchronously (an agent's reply): the attempt waiting by that token. */
      kind: 'completeActivity';
      workflowId: string;
      taskToken: string;
      result: unknown;
    }
  | {
      /** Fails such an activity, not to be retried: `failure` becomes its ApplicationFailure. */
      kind: 'failActivity';
      workflowId: string;
      taskToken: string;
      failure: { type: string; message: string; details: unknown[] };
    }
) & {
  /**
   * The trace of the request that enqueued it (when tracing is on): the relay's call to Temporal continues it. A signal
   * goes in one call with its workflow's start only when it has no trace or the start's (outbox-queue.ts).
   */
  traceContext?: TraceCarrier;
};

export type StartWorkflowMessage = Extract<OutboxMessage, { kind: 'startWorkflow' }>;

/** How a message is queued: by default at once, on its own. */
export interface EnqueueOptions {
  /** Not delivered before this many milliseconds from now. */
  delayMs?: number;
  /**
   * Another write of the transaction made by the same statement (a data-modifying CTE, e.g. a realtime event's
   * `publishing`): one round trip for both.
   */
  alongside?: Knex.Raw;
}

/**
 * Call inside the transaction that commits the fact; the relay delivers the message only once it is committed (and
 * not before `delayMs` from now).
 */
export async function enqueueOutbox(
  trx: DbOrTrx,
  message: OutboxMessage,
  { delayMs = 0, alongside }: EnqueueOptions = {},
): Promise<void> {
  const traceContext = activeTraceCarrier();
  // One round trip: the row, and the wake-up the relays get at commit. Each field as jsonb can hold it (an agent's
  // reply may carry U+0000): the workflow id and search attributes stay plain for the relay's columns.
  await trx.raw(
    `WITH queued AS (INSERT INTO outbox (message, available_at) VALUES (?, now() + make_interval(secs => ?))
       RETURNING id)${alongside ? ', alongside AS (?)' : ''}
     SELECT pg_notify(?, ?) FROM queued`,
    [
      JSON.stringify(toStorableFields(traceContext ? { ...message, traceContext } : message)),
      delayMs / 1000,
      ...(alongside ? [alongside] : []),
      OUTBOX_CHANNEL,
      '',
    ],
  );
}

export type SignalMessage = Extract<OutboxMessage, { kind: 'signalWorkflow' | 'signalWithStart' }>;

/**
 * A wake-up many callers may ask for at once (a provider's notifications of one payment: its workflow re-reads the
 * payment): sent `windowMs` from now, unless the same signal to that workflow is already waiting for its time, which
 * wakes the workflow after this call anyway. However many ask within the window, the workflow is woken once. True
 * when this call enqueued it.
 */
export function enqueueCoalescedSignal(db: Db, message: SignalMessage, windowMs: number): Promise<boolean> {
  return db.transaction(async (trx) => {
    await trx.raw('SELECT pg_advisory_xact_lock(hashtextextended(?, 0))', [
      `outbox:${message.workflowId}:${message.signal}`,
    ]);
    const waiting = await trx('outbox')
      .where({ workflow_id: message.workflowId })
      .whereNull('delivered_at')
      .where('available_at', '>', trx.fn.now())
      .whereRaw("message->>'signal' = ?", [message.signal])
      .first('id');
    if (waiting) return false;
    await enqueueOutbox(trx, message, { delayMs: windowMs });
    return true;
  });
}

export type WorkflowFunction = (...args: never[]) => Promise<unknown>;

export function startWorkflowMessage<W extends WorkflowFunction>(
  workflowType: string,
  workflowId: string,
  args: Parameters<W>,
  searchAttributes: SearchAttributeValues,
  memo?: WorkflowMemo,
): OutboxMessage {
  return { kind: 'startWorkflow', workflowType, workflowId, args, searchAttributes, memo };
}

/** Delivered rows are kept a week for diagnosis, then removed. */
export async function purgeDeliveredOutbox(db: DbOrTrx, keepDays = 7): Promise<number> {
  return db('outbox')
    .whereNotNull('delivered_at')
    .andWhere('delivered_at', '<', db.raw('now() - make_interval(days => ?)', [keepDays]))
    .delete();
}
