import { Client, Connection } from '@temporalio/client';
import { freePort } from '../../scripts/stack/ports';
import { registerHotel } from '../helpers/accounts';
import { createTestApp, type TestApp } from '../helpers/app';
import { startFaultStack, type FaultStack } from '../helpers/processes';
import { outboxWorkflowsAtRest } from '../helpers/workflows';

/**
 * The relay starts a workflow eagerly (its first task handed back in the start's answer to the worker sharing its
 * connection) and the dev server dispatches activities eagerly (handed back in the answer of the workflow task that
 * scheduled them): neither goes through a task queue while the worker has a free slot. A private stack, so that no
 * other test's work fills the worker's slots: registering a hotel sends its confirmation e-mail through a workflow.
 */
jest.setTimeout(240_000);

let stack: FaultStack;
let t: TestApp;
let connection: Connection;
let client: Client;
let metricsUrl: string;

beforeAll(async () => {
  stack = await startFaultStack('eager_dispatch');
  const metricsAddress = `127.0.0.1:${await freePort()}`;
  stack.env.WORKER_METRICS_ADDRESS = metricsAddress;
  metricsUrl = `http://${metricsAddress}/metrics`;
  await stack.startWorker();
  t = createTestApp(stack.env);
  connection = await Connection.connect({ address: stack.temporalAddress });
  client = new Client({ connection });
});
afterAll(async () => {
  await connection?.close();
  await t?.close();
  await stack?.stop();
});

/** The sum of the worker's Prometheus samples of `name` whose labels include every one of `labels`. */
async function sampled(name: string, labels: string[]): Promise<number> {
  const text = await (await fetch(metricsUrl)).text();
  return text
    .split('\n')
    .filter((line) => line.startsWith(`${name}{`) && labels.every((label) => line.includes(label)))
    .reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(' ') + 1)), 0);
}

it('starts the e-mail workflow with its first task in the answer, and runs its activity without a poll', async () => {
  const before = Number(((await t.db('outbox').max({ id: 'id' })) as { id: string | null }[])[0].id ?? 0);
  await registerHotel(t);
  const starts = (await t
    .db('outbox')
    .where('id', '>', before)
    .whereRaw("message->>'kind' = 'startWorkflow'")
    .select('workflow_id')) as { workflow_id: string }[];
  expect(starts.length).toBeGreaterThan(0);
  await outboxWorkflowsAtRest(t.db, client, (outbox) => outbox.where('id', '>', before), {
    what: 'the registration e-mail sent',
    timeoutMs: 90_000,
  });

  let activities = 0;
  for (const { workflow_id: workflowId } of starts) {
    const events = (await client.workflow.getHandle(workflowId).fetchHistory()).events ?? [];
    expect(events[0].workflowExecutionStartedEventAttributes?.eagerExecutionAccepted).toBe(true);
    activities += events.filter((event) => event.activityTaskCompletedEventAttributes).length;
  }
  expect(activities).toBeGreaterThan(0);
  // Every one reached the worker in the answer of the workflow task that scheduled it, none by a poll.
  const received = (eager: boolean) =>
    sampled('temporal_activity_task_received', ['activity_type="sendAccountEmail"', `eager="${eager}"`]);
  expect(await received(true)).toBe(activities);
  expect(await received(false)).toBe(0);
});
