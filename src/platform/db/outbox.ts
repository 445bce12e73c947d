import type { DbOrTrx } from './knex';

export const OUTBOX_CHANNEL = 'outbox';

export interface SearchAttributeValues {
  HotelSlug?: string;
  BookingId?: string;
}

export type OutboxMessage =
  | {
      kind: 'startWorkflow';
      workflowType: string;
      workflowId: string;
      args: unknown[];
      searchAttributes: SearchAttributeValues;
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
    };

/** Call inside the transaction that commits the fact; the relay delivers the message only once it is committed. */
export async function enqueueOutbox(trx: DbOrTrx, message: OutboxMessage): Promise<void> {
  await trx('outbox').insert({ message: JSON.stringify(message) });
  await trx.raw('SELECT pg_notify(?, ?)', [OUTBOX_CHANNEL, '']);
}

export type WorkflowFunction = (...args: never[]) => Promise<unknown>;

export function startWorkflowMessage<W extends WorkflowFunction>(
  workflowType: string,
  workflowId: string,
  args: Parameters<W>,
  searchAttributes: SearchAttributeValues,
): OutboxMessage {
  return { kind: 'startWorkflow', workflowType, workflowId, args, searchAttributes };
}

/** Delivered rows are kept a week for diagnosis, then removed. */
export async function purgeDeliveredOutbox(db: DbOrTrx, keepDays = 7): Promise<number> {
  return db('outbox')
    .whereNotNull('delivered_at')
    .andWhere('delivered_at', '<', db.raw('now() - make_interval(days => ?)', [keepDays]))
    .delete();
}
