import { randomUUID } from 'node:crypto';
import { Client, Connection } from '@temporalio/client';
import { defaultPayloadConverter } from '@temporalio/common';
import express from 'express';
import type { Knex } from 'knex';
import supertest from 'supertest';
import { createProcessDb, type Db } from '../../src/platform/db/knex';
import { enqueueOutbox, startWorkflowMessage, type OutboxMessage } from '../../src/platform/db/outbox';
import { healthRouter, outboxReadiness } from '../../src/platform/http/health';
import { createLogger } from '../../src/platform/logger';
import { startOutboxRelay } from '../../src/platform/temporal/outbox-relay';
import type { accountEmail } from '../../workflows/account-email.workflow';
import { bookingWorkflowIds, type BookingWorkflow } from '../../workflows/contracts/bookings';
import { createTestApp, type TestApp } from '../helpers/app';
import { registrationBody } from '../helpers/accounts';
import { waitForMessages } from '../helpers/mail';
import { readStackInfo } from '../helpers/stack-env';
import { until } from '../helpers/wait';

let t: TestApp;
let connection: Connection;
let client: Client;
beforeAll(async () => {
  t = createTestApp();
  connection = await Connection.connect({ address: readStackInfo().env.TEMPORAL_ADDRESS });
  client = new Client({ connection });
});
afterAll(async () => {
  await connection.close();
  await t.close();
});

/** Enqueued in one transaction, so the relay finds them together; `alter` may change the rows before the commit. */
async function enqueueAll(
  messages: OutboxMessage[],
  alter?: (trx: Knex.Transaction, ids: string[]) => Promise<unknown>,
): Promise<string[]> {
  return t.db.transaction(async (trx) => {
    const before = await trx('outbox').max('id as id').first();
    for (const message of messages) await enqueueOutbox(trx, message);
    const ids = (
      await trx('outbox')
        .where('id', '>', before?.id ?? 0)
        .orderBy('id')
    ).map((row: { id: string }) => String(row.id));
    await alter?.(trx, ids);
    return ids;
  });
}

async function waitUntilDelivered(ids: string[]): Promise<void> {
  await until(async () => !(await t.db('outbox').whereIn('id', ids).whereNull('delivered_at').first('id')), {
    what: `outbox rows ${ids.join(', ')} delivered`,
    timeoutMs: 30_000,
  });
}

async function runsOf(workflowId: string): Promise<string[]> {
  const runs: string[] = [];
  for await (const execution of client.workflow.list({ query: `WorkflowId = '${workflowId}'` })) {
    runs.push(execution.runId);
  }
  return runs;
}

describe('outbox relay', () => {
  it('delivers a message written twice (a crash between start and mark) as one workflow: one e-mail', async () => {
    const body = registrationBody();
    await t.http.post('/api/auth/register').send(body).expect(201);
    await waitForMessages(body.email, 1);
    const user = await t.db('users').where({ email: body.email }).first();

    const workflowId = `email:confirmation:${user.id}:duplicate-${randomUUID()}`;
    const message = startWorkflowMessage<typeof accountEmail>(
      'accountEmail',
      workflowId,
      [{ purpose: 'confirmation', userId: user.id }],
      { HotelSlug: 'dup-test' },
    );
    await waitUntilDelivered(await enqueueAll([message, message]));

    // The one run has ended, so its e-mail has gone out; there is no other run that could send a second.
    await client.workflow.getHandle(workflowId).result();
    expect(await runsOf(workflowId)).toHaveLength(1);
    // Registration sent one e-mail; the doubled row adds exactly one more.
    expect(await waitForMessages(body.email, 2)).toHaveLength(2);
  });

  it('writes nothing to deliver when the transaction that carried it rolls back', async () => {
    const marker = `rollback-${randomUUID()}`;
    await expect(
      t.db.transaction(async (trx) => {
        await enqueueOutbox(trx, { kind: 'signalWorkflow', workflowId: marker, signal: 'accepted', args: [] });
        throw new Error('business rule failed');
      }),
    ).rejects.toThrow('business rule failed');
    expect(await t.db('outbox').where({ workflow_id: marker })).toHaveLength(0);
  });

  it("keeps each workflow's messages in order while several relays deliver many workflows at once", async () => {
    // Two more relays besides the worker's, as other worker replicas would run them.
    const db: Db = createProcessDb(t.config, 'worker');
    const logger = createLogger('silent', 'test');
    const relays = [1, 2].map(() =>
      startOutboxRelay({ db, client, taskQueue: 'hotel', logger, listener: t.listener, concurrency: 5 }),
    );
    try {
      const hotelSlug = `order-${randomUUID().slice(0, 8)}`;
      const bookings = Array.from({ length: 15 }, () => ({ hotelId: randomUUID(), bookingId: randomUUID() }));
      const workflowId = (booking: { bookingId: string }) => bookingWorkflowIds.booking(booking.bookingId);
      const steps: OutboxMessage[][] = [
        bookings.map((booking) =>
          startWorkflowMessage<BookingWorkflow>('booking', workflowId(booking), [{ ...booking, status: 'confirmed' }], {
            HotelSlug: hotelSlug,
          }),
        ),
        ...(['checked_in', 'checked_out'] as const).map((status) =>
          bookings.map((booking): OutboxMessage => ({
            kind: 'signalWithStart',
            workflowType: 'booking',
            workflowId: workflowId(booking),
            args: [{ ...booking, status }],
            signal: 'statusChanged',
            signalArgs: [{ status, reason: 'manual' }],
            searchAttributes: { HotelSlug: hotelSlug },
          })),
        ),
      ];
      // All committed at once, each workflow's three messages interleaved with the others'.
      await waitUntilDelivered(await enqueueAll(steps.flat()));

      for (const booking of bookings) {
        const handle = client.workflow.getHandle(workflowId(booking));
        expect(await handle.result()).toBe('checked_out');
        const signalled = ((await handle.fetchHistory()).events ?? [])
          .flatMap((event) => event.workflowExecutionSignaledEventAttributes?.input?.payloads ?? [])
          .map((payload) => defaultPayloadConverter.fromPayload<{ status: string }>(payload).status);
        expect(signalled).toEqual(['checked_in', 'checked_out']);
      }
      const rows: { workflow_id: string; delivered_at: Date }[] = await t
        .db('outbox')
        .whereIn('workflow_id', bookings.map(workflowId))
        .orderBy('id');
      for (const booking of bookings) {
        const times = rows.filter((row) => row.workflow_id === workflowId(booking)).map((row) => row.delivered_at);
        expect([...times].sort((a, b) => a.getTime() - b.getTime())).toEqual(times);
      }
    } finally {
      await Promise.all(relays.map((relay) => relay.stop()));
      await db.destroy();
    }
  });
});

describe('a start and the signal committed after it, delivered in one call', () => {
  /** A booking's start and a status change's signal-with-start, whose own start input says `confirmed`. */
  function startAndSignal(bookingId: string, { reviveFinished = false } = {}): OutboxMessage[] {
    const workflowId = bookingWorkflowIds.booking(bookingId);
    const input = (status: 'inquiry' | 'confirmed'): Parameters<BookingWorkflow> => [
      { hotelId: randomUUID(), bookingId, status, effects: {} },
    ];
    return [
      startWorkflowMessage<BookingWorkflow>('bookingLife', workflowId, input('inquiry'), { HotelSlug: 'merge-test' }),
      {
        kind: 'signalWithStart',
        workflowType: 'bookingLife',
        workflowId,
        args: input('confirmed'),
        signal: 'statusChanged',
        signalArgs: [{ status: 'cancelled', reason: 'manual', effects: {} }],
        searchAttributes: { HotelSlug: 'merge-test' },
        reviveFinished,
      },
    ];
  }

  /** The workflow's latest run: its id, its input status, and whether its start and first signal were one request. */
  async function latestRun(bookingId: string) {
    const handle = client.workflow.getHandle(bookingWorkflowIds.booking(bookingId));
    const { runId } = await handle.describe();
    const events = (await client.workflow.getHandle(handle.workflowId, runId).fetchHistory()).events ?? [];
    const [input] = events[0].workflowExecutionStartedEventAttributes?.input?.payloads ?? [];
    return {
      runId,
      status: defaultPayloadConverter.fromPayload<{ status: string }>(input).status,
      withSignal: Boolean(events[1]?.workflowExecutionSignaledEventAttributes),
      /** Signals written before the first workflow task was scheduled (with the start), and in all. */
      signalsWithStart: events
        .slice(
          0,
          events.findIndex((event) => event.workflowTaskScheduledEventAttributes),
        )
        .filter((event) => event.workflowExecutionSignaledEventAttributes).length,
      signals: events.filter((event) => event.workflowExecutionSignaledEventAttributes).length,
    };
  }

  const traced = (message: OutboxMessage, traceId: string, spanId: string): OutboxMessage => ({
    ...message,
    traceContext: { traceparent: `00-${traceId}-${spanId}-01` },
  });
  const [traceA, traceB] = [randomUUID(), randomUUID()].map((uuid) => uuid.replaceAll('-', ''));

  it('only the very next signal goes with the start: a second one is delivered alone, after', async () => {
    const bookingId = randomUUID();
    const [start, cancel] = startAndSignal(bookingId);
    const confirm: OutboxMessage = {
      kind: 'signalWorkflow',
      workflowId: start.workflowId,
      signal: 'statusChanged',
      args: [{ status: 'confirmed', reason: 'manual', effects: {} }],
    };
    await waitUntilDelivered(await enqueueAll([start, confirm, cancel]));
    expect(await client.workflow.getHandle(start.workflowId).result()).toBe('cancelled');
    expect(await latestRun(bookingId)).toMatchObject({ withSignal: true, signalsWithStart: 1, signals: 2 });
  });

  it('a signal not yet due, or after a start Temporal refused once, goes alone', async () => {
    const [later, retried] = [randomUUID(), randomUUID()];
    const ids = await enqueueAll(
      [...startAndSignal(later), ...startAndSignal(retried)],
      async (trx, [, laterSignal, retriedStart]) => {
        await trx('outbox')
          .where({ id: laterSignal })
          .update({ available_at: trx.raw("now() + interval '2 seconds'") });
        await trx('outbox').where({ id: retriedStart }).update({ attempts: 1 });
      },
    );
    await waitUntilDelivered(ids);
    for (const bookingId of [later, retried]) {
      expect(await client.workflow.getHandle(bookingWorkflowIds.booking(bookingId)).result()).toBe('cancelled');
      expect(await latestRun(bookingId)).toMatchObject({ status: 'inquiry', withSignal: false, signals: 1 });
    }
  });

  it("a signal of another request's trace goes alone, in its own; one of the start's trace goes with it", async () => {
    const [apart, together] = [randomUUID(), randomUUID()];
    const pair = (bookingId: string, signalTrace: string) => {
      const [start, signal] = startAndSignal(bookingId);
      return [traced(start, traceA, '1111111111111111'), traced(signal, signalTrace, '2222222222222222')];
    };
    await waitUntilDelivered(await enqueueAll([...pair(apart, traceB), ...pair(together, traceA)]));
    for (const bookingId of [apart, together]) {
      expect(await client.workflow.getHandle(bookingWorkflowIds.booking(bookingId)).result()).toBe('cancelled');
    }
    expect(await latestRun(apart)).toMatchObject({ withSignal: false, signals: 1 });
    expect(await latestRun(together)).toMatchObject({ withSignal: true, signals: 1 });
  });

  it("a pair Temporal refuses is recorded on the start's row, naming its signal, and tried again as two calls", async () => {
    const bookingId = randomUUID();
    const [start] = startAndSignal(bookingId);
    // A signal without a name: Temporal refuses any call that carries it.
    const [startId, signalId] = await enqueueAll([
      start,
      { kind: 'signalWorkflow', workflowId: start.workflowId, signal: '', args: [] },
    ]);
    const refused = await until(() => t.db('outbox').where({ id: startId }).where('attempts', '>', 0).first(), {
      what: 'the pair refused',
      timeoutMs: 30_000,
    });
    expect(refused.last_error).toMatch(new RegExp(`^with signal ${signalId}: `));
    // Alone, the start goes through; the signal keeps being refused on its own row.
    await waitUntilDelivered([startId]);
    const alone = await until(() => t.db('outbox').where({ id: signalId }).where('attempts', '>', 0).first(), {
      what: 'the signal refused alone',
      timeoutMs: 30_000,
    });
    expect(alone.last_error).not.toMatch(/^with signal/);
    await t.db('outbox').where({ id: signalId }).update({ delivered_at: t.db.fn.now() });
    await client.workflow.getHandle(start.workflowId).terminate('outbox test');
  });

  it('a finished workflow is not started again by the pair; a signal that revives it starts the run it would alone', async () => {
    const [kept, revived] = [randomUUID(), randomUUID()];
    await waitUntilDelivered(await enqueueAll([...startAndSignal(kept), ...startAndSignal(revived)]));
    const first = new Map<string, string>();
    for (const bookingId of [kept, revived]) {
      expect(await client.workflow.getHandle(bookingWorkflowIds.booking(bookingId)).result()).toBe('cancelled');
      const run = await latestRun(bookingId);
      expect(run).toMatchObject({ status: 'inquiry', withSignal: true });
      first.set(bookingId, run.runId);
    }

    // Both pairs again (a redelivery, or a start that comes too late), one of them asking to revive.
    await waitUntilDelivered(
      await enqueueAll([...startAndSignal(kept), ...startAndSignal(revived, { reviveFinished: true })]),
    );
    expect(await latestRun(kept)).toMatchObject({ runId: first.get(kept), status: 'inquiry', withSignal: true });
    // The new run is the signal's own signal-with-start: the signal message's start input, not the start message's.
    expect(await client.workflow.getHandle(bookingWorkflowIds.booking(revived)).result()).toBe('cancelled');
    const again = await latestRun(revived);
    expect(again.runId).not.toBe(first.get(revived));
    expect(again).toMatchObject({ status: 'confirmed', withSignal: true });
  });
});

describe('/ready and the outbox backlog', () => {
  const readyApp = (maxLagSeconds: number) =>
    supertest(express().use(healthRouter({ outbox: outboxReadiness(t.db, maxLagSeconds) })));

  it('reports the backlog, and refuses once the oldest undelivered message is older than the bound', async () => {
    // An hour old and not due before tomorrow: the relay leaves it alone.
    const [row] = await t
      .db('outbox')
      .insert({
        message: JSON.stringify({
          kind: 'signalWorkflow',
          workflowId: `lagging-${randomUUID()}`,
          signal: 'x',
          args: [],
        }),
        created_at: t.db.raw("now() - interval '1 hour'"),
        available_at: t.db.raw("now() + interval '1 day'"),
      })
      .returning('id');
    try {
      const { body } = await readyApp(600).get('/ready').expect(503);
      expect(body).toMatchObject({ status: 'not_ready', checks: { outbox: 'lagging' } });
      expect(body.details.outbox.pending).toBeGreaterThanOrEqual(1);
      expect(body.details.outbox.oldest_age_seconds).toBeGreaterThanOrEqual(3600);

      const relaxed = await readyApp(86_400).get('/ready').expect(200);
      expect(relaxed.body).toMatchObject({ status: 'ready', checks: { outbox: 'ok' } });
      expect(Object.keys(relaxed.body.details.outbox).sort()).toEqual(['oldest_age_seconds', 'pending']);
    } finally {
      await t.db('outbox').where({ id: row.id }).delete();
    }
  });
});
