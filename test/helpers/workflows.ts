import { Client, Connection, WorkflowNotFoundError } from '@temporalio/client';
import type { Knex } from 'knex';
import type { Db } from '../../src/platform/db/knex';
import { DESK_WAIT_ACTIVITIES } from '../../workflows/contracts/agents';
import { WEBHOOK_OUTSIDE_WAIT_ACTIVITIES } from '../../workflows/contracts/webhooks';
import { readStackInfo } from './stack-env';
import { until } from './wait';

/** Runs `use` with a client of the test stack's Temporal server, closing its connection after. */
export async function withTemporal<T>(use: (client: Client) => Promise<T>): Promise<T> {
  const connection = await Connection.connect({ address: readStackInfo().env.TEMPORAL_ADDRESS });
  try {
    return await use(new Client({ connection }));
  } finally {
    await connection.close();
  }
}

/**
 * Nothing left to do until a timer fires, a signal comes or a desk replies: closed, or running with no task pending
 * but the waits for desks and for webhook receivers (a delivery retried until its receiver answers).
 */
async function isAtRest(client: Client, workflowId: string): Promise<boolean> {
  try {
    const { status, raw } = await client.workflow.getHandle(workflowId).describe();
    const working = (raw.pendingActivities ?? []).filter(
      (activity) =>
        ![...DESK_WAIT_ACTIVITIES, ...WEBHOOK_OUTSIDE_WAIT_ACTIVITIES].includes(activity.activityType?.name ?? ''),
    );
    return status.name !== 'RUNNING' || (!raw.pendingWorkflowTask && working.length === 0);
  } catch (error) {
    // The relay delivers a signal to a workflow that no longer exists as nothing to do.
    if (error instanceof WorkflowNotFoundError) return true;
    throw error;
  }
}

/**
 * Waits until the outbox messages that `scope` selects among those committed so far are delivered, and every
 * workflow they address is at rest: whatever those workflows do (a notification, an e-mail) has then been done, and
 * nothing more comes of them until a timer fires or another message arrives.
 */
export async function outboxWorkflowsAtRest(
  db: Db,
  client: Client,
  scope: (outbox: Knex.QueryBuilder) => Knex.QueryBuilder,
  { what, timeoutMs = 30_000 }: { what: string; timeoutMs?: number },
): Promise<void> {
  const rows = (await scope(db('outbox')).select('id', 'workflow_id')) as { id: string; workflow_id: string }[];
  const ids = rows.map((row) => row.id);
  const busy = new Set(rows.map((row) => row.workflow_id));
  let undelivered = ids.length;
  await until(
    async () => {
      const [{ count }] = await db('outbox').whereIn('id', ids).whereNull('delivered_at').count({ count: '*' });
      undelivered = Number(count);
      if (undelivered > 0) return false;
      for (const workflowId of busy) if (await isAtRest(client, workflowId)) busy.delete(workflowId);
      return busy.size === 0;
    },
    {
      what: () => `${what} (${undelivered} messages undelivered; not at rest: ${[...busy].join(', ') || 'none'})`,
      timeoutMs,
    },
  );
}

/**
 * Triggers a schedule as its interval would, waits for the run it starts (told apart by run: two runs triggered within
 * one second share the workflow id) to finish, and returns its result.
 */
export async function runSchedule(client: Client, scheduleId: string): Promise<unknown> {
  const schedule = client.schedule.getHandle(scheduleId);
  const runsBefore = new Set(
    (await schedule.describe()).info.recentActions.map(({ action }) => action.workflow.firstExecutionRunId),
  );
  await schedule.trigger();
  const run = await until(
    async () =>
      (await schedule.describe()).info.recentActions.find(
        ({ action }) => !runsBefore.has(action.workflow.firstExecutionRunId),
      )?.action.workflow,
    { what: `the triggered ${scheduleId} run started` },
  );
  return client.workflow.getHandle(run.workflowId, run.firstExecutionRunId).result();
}

/**
 * A workflow started through the outbox, once it exists: `describe()` and `result()` answer "not found" at once for
 * one the relay has not started yet (a loaded machine delays it), so this waits for it first.
 */
export async function startedHandle(client: Client, workflowId: string, timeoutMs = 30_000) {
  const handle = client.workflow.getHandle(workflowId);
  await until(
    () =>
      handle.describe().then(
        () => true,
        (error: unknown) => {
          if (error instanceof WorkflowNotFoundError) return false;
          throw error;
        },
      ),
    { what: `workflow ${workflowId} started`, timeoutMs },
  );
  return handle;
}

/** The result of a workflow started through the outbox (see `startedHandle`). */
export async function resultOnceStarted(client: Client, workflowId: string): Promise<unknown> {
  return (await startedHandle(client, workflowId)).result();
}
