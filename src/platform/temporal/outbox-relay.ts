import { WorkflowExecutionAlreadyStartedError, WorkflowNotFoundError, type Client } from '@temporalio/client';
import { WorkflowIdReusePolicy, type SearchAttributePair } from '@temporalio/common';
import type { Knex } from 'knex';
import type { Notification, PoolClient } from 'pg';
import type { Db } from '../db/knex';
import { OUTBOX_CHANNEL, type OutboxMessage, type SearchAttributeValues } from '../db/outbox';
import type { Logger } from '../logger';
import { searchAttributeKeys } from './client';

interface OutboxRow {
  id: string;
  message: OutboxMessage;
  attempts: number;
}

export interface OutboxRelayOptions {
  db: Db;
  client: Client;
  taskQueue: string;
  logger: Logger;
  pollIntervalMs?: number;
  batchSize?: number;
}

export interface OutboxRelay {
  stop(): Promise<void>;
}

function toSearchAttributes(values: SearchAttributeValues): SearchAttributePair[] {
  return (Object.keys(values) as (keyof SearchAttributeValues)[])
    .filter((name) => values[name] !== undefined)
    .map((name) => ({ key: searchAttributeKeys[name], value: values[name] as string }));
}

/**
 * Delivers committed outbox rows to Temporal. Workflow ids are deterministic and duplicates are rejected,
 * so a row delivered twice (crash between start and mark) has no second effect.
 */
async function deliver(client: Client, taskQueue: string, message: OutboxMessage): Promise<void> {
  if (message.kind === 'startWorkflow') {
    try {
      await client.workflow.start(message.workflowType, {
        taskQueue,
        workflowId: message.workflowId,
        args: message.args,
        workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
        typedSearchAttributes: toSearchAttributes(message.searchAttributes),
      });
    } catch (error) {
      if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
    }
    return;
  }
  if (message.kind === 'signalWithStart') {
    try {
      await client.workflow.signalWithStart(message.workflowType, {
        taskQueue,
        workflowId: message.workflowId,
        args: message.args,
        signal: message.signal,
        signalArgs: message.signalArgs,
        // A workflow that has finished is not started again: the signal is a redelivery (crash between the call
        // and marking the row) or comes too late to change anything, as for signalWorkflow below.
        workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
        typedSearchAttributes: toSearchAttributes(message.searchAttributes),
      });
    } catch (error) {
      if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
    }
    return;
  }
  try {
    await client.workflow.getHandle(message.workflowId).signal(message.signal, ...message.args);
  } catch (error) {
    // The workflow has already finished (e.g. an invitation that expired): the signal has nothing left to change.
    if (!(error instanceof WorkflowNotFoundError)) throw error;
  }
}

function retryDelaySeconds(attempts: number): number {
  return Math.min(300, 2 ** Math.min(attempts, 9));
}

export function startOutboxRelay(options: OutboxRelayOptions): OutboxRelay {
  const { db, client, taskQueue, logger } = options;
  const pollIntervalMs = options.pollIntervalMs ?? 1000;
  const batchSize = options.batchSize ?? 20;
  let stopped = false;
  let wake: (() => void) | undefined;
  let listener: PoolClient | undefined;

  const processBatch = (trx: Knex.Transaction) =>
    trx<OutboxRow>('outbox')
      .select('id', 'message', 'attempts')
      .whereNull('delivered_at')
      .andWhere('available_at', '<=', trx.fn.now())
      // One workflow's messages are delivered in order: none while an earlier one (e.g. waiting to be retried after
      // Temporal was unavailable) is still pending, or a later status could start the workflow before an earlier one.
      .whereNotExists((earlier) =>
        earlier
          .select(trx.raw('1'))
          .from('outbox as earlier')
          .whereNull('earlier.delivered_at')
          .andWhere('earlier.id', '<', trx.ref('outbox.id'))
          .andWhereRaw("earlier.message->>'workflowId' = outbox.message->>'workflowId'"),
      )
      .orderBy('id')
      .limit(batchSize)
      .forUpdate()
      .skipLocked()
      .then(async (rows) => {
        for (const row of rows) {
          try {
            await deliver(client, taskQueue, row.message);
            await trx('outbox').where({ id: row.id }).update({ delivered_at: trx.fn.now(), last_error: null });
          } catch (error) {
            const attempts = row.attempts + 1;
            logger.warn({ err: error, outboxId: row.id, attempts }, 'outbox delivery failed; will retry');
            await trx('outbox')
              .where({ id: row.id })
              .update({
                attempts,
                last_error: String(error instanceof Error ? error.message : error).slice(0, 1000),
                available_at: trx.raw(`now() + make_interval(secs => ?)`, [retryDelaySeconds(attempts)]),
              });
          }
        }
        return rows.length;
      });

  async function listen(): Promise<void> {
    const connection = (await db.client.acquireConnection()) as PoolClient;
    connection.on('notification', (notification: Notification) => {
      if (notification.channel === OUTBOX_CHANNEL) wake?.();
    });
    await connection.query(`LISTEN ${OUTBOX_CHANNEL}`);
    listener = connection;
  }

  const loop = (async () => {
    await listen().catch((error: unknown) =>
      logger.warn({ err: error }, 'outbox LISTEN unavailable; relying on polling'),
    );
    while (!stopped) {
      let delivered = 0;
      try {
        delivered = await db.transaction(processBatch);
      } catch (error) {
        logger.error({ err: error }, 'outbox relay batch failed');
      }
      // Rows were handled: look again at once (the next message of a workflow just delivered may be waiting).
      if (delivered > 0 || stopped) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, pollIntervalMs);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      wake = undefined;
    }
  })();

  return {
    async stop() {
      stopped = true;
      wake?.();
      await loop;
      if (listener) {
        await listener.query(`UNLISTEN ${OUTBOX_CHANNEL}`).catch(() => undefined);
        await db.client.releaseConnection(listener);
      }
    },
  };
}
