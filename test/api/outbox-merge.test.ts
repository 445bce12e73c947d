import { Client, Connection } from '@temporalio/client';
import { defaultPayloadConverter } from '@temporalio/common';
import { temporal } from '@temporalio/proto';
import type pg from 'pg';
import type { Db } from '../../src/platform/db/knex';
import { openOutboxClaims } from '../../src/platform/db/outbox-queue';
import { as, registerHotel, uniqueEmail, type RegisteredHotel } from '../helpers/accounts';
import { createTestApp, type TestApp } from '../helpers/app';
import { localDay } from '../helpers/dates';
import { messagesTo } from '../helpers/mail';
import { startFaultStack, type FaultStack } from '../helpers/processes';
import { createCategory, createRoom } from '../helpers/structure';
import { outboxWorkflowsAtRest } from '../helpers/workflows';

/**
 * A workflow's start and the signal committed right after it, waiting in the outbox together, reach Temporal in one
 * signal-with-start. With the private stack's worker stopped nothing relays the outbox, so a booking made and then
 * confirmed through the API leaves both of its messages waiting; the worker started again finds them together.
 */
jest.setTimeout(240_000);

const { EventType } = temporal.api.enums.v1;

let stack: FaultStack;
let t: TestApp;
let connection: Connection;
let client: Client;
let hotel: RegisteredHotel;
let roomId: string;

beforeAll(async () => {
  stack = await startFaultStack('outbox_merge');
  // The worker relays the registration's e-mail.
  await stack.startWorker();
  t = createTestApp(stack.env);
  connection = await Connection.connect({ address: stack.temporalAddress });
  client = new Client({ connection });
  hotel = await registerHotel(t);
  roomId = (await createRoom(t, hotel, (await createCategory(t, hotel)).id)).id;
});
afterAll(async () => {
  await connection?.close();
  await t?.close();
  await stack?.stop();
});

const api = (path: string) => `/api/hotels/${hotel.slug}${path}`;

const waitingKinds = async (workflowId: string) =>
  (
    await t
      .db('outbox')
      .where({ workflow_id: workflowId })
      .whereNull('delivered_at')
      .orderBy('id')
      .select(t.db.raw("message->>'kind' AS kind"))
  ).map((row: { kind: string }) => row.kind);

const atRest = (workflowId: string) =>
  outboxWorkflowsAtRest(t.db, client, (outbox) => outbox.where({ workflow_id: workflowId }), {
    what: `${workflowId} delivered and at rest`,
    timeoutMs: 90_000,
  });

/** When each of the workflow's outbox rows was recorded as delivered (ms), in the order they were enqueued (by id). */
const deliveredAt = async (workflowId: string) =>
  (await t.db('outbox').where({ workflow_id: workflowId }).orderBy('id').select('delivered_at')).map(
    (row: { delivered_at: Date | null }) => row.delivered_at?.getTime() ?? null,
  );

async function history(workflowId: string) {
  const events = (await client.workflow.getHandle(workflowId).fetchHistory()).events ?? [];
  return {
    types: events.map((event) => event.eventType),
    starts: events.filter((event) => event.eventType === EventType.EVENT_TYPE_WORKFLOW_EXECUTION_STARTED).length,
    signalled: events
      .flatMap((event) => event.workflowExecutionSignaledEventAttributes?.input?.payloads ?? [])
      .map((payload) => defaultPayloadConverter.fromPayload<{ status: string }>(payload).status),
  };
}

/** The guest's e-mails by kind (the subject before the hotel's name), oldest first. */
const emailsTo = async (address: string) =>
  (await messagesTo(address)).map((message) => message.subject.split(' — ')[0]);

/**
 * A claim whose query for the signals after the starts fails, after it locked the waiting workflows, on a connection
 * that stays up: the advisory locks that connection still holds then (none, or the pair's workflow would stay held).
 */
async function claimFailingAfterItsLocks(): Promise<number> {
  let pid = 0;
  const failing = {
    client: {
      async acquireRawConnection() {
        const connection = (await t.db.client.acquireRawConnection()) as pg.Client;
        pid = (await connection.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0].pid;
        const query = connection.query.bind(connection) as (text: string, values?: unknown[]) => Promise<unknown>;
        Object.assign(connection, {
          query: (text: string, values?: unknown[]) =>
            text.includes('outbox following') ? Promise.reject(new Error('lost in the middle')) : query(text, values),
        });
        return connection;
      },
      destroyRawConnection: (connection: pg.Client) => t.db.client.destroyRawConnection(connection),
    },
  } as unknown as Db;
  const claims = openOutboxClaims(failing);
  try {
    await expect(claims.claim(10, [])).rejects.toThrow('lost in the middle');
    const { rows } = await t.db.raw<{ rows: { held: number }[] }>(
      "SELECT count(*)::int AS held FROM pg_locks WHERE locktype = 'advisory' AND pid = ?",
      [pid],
    );
    return rows[0].held;
  } finally {
    await claims.close();
  }
}

it('a booking made and confirmed while nothing relays reaches its workflow in one request, and e-mails its guest once each; the pair delivered again only signals it again', async () => {
  const guest = uniqueEmail('guest');
  await stack.killWorker();
  const { body: booking } = await t.http
    .post(api('/bookings'))
    .set(as(hotel.accessToken))
    .send({
      room_id: roomId,
      check_in: localDay(3),
      check_out: localDay(5),
      guest_last_name: 'Петрова',
      guest_first_name: 'Анна',
      source: 'online',
      status: 'inquiry',
      guest_email: guest,
    })
    .expect(201);
  await t.http
    .patch(api(`/bookings/${booking.id}`))
    .set(as(hotel.accessToken))
    .send({ status: 'confirmed' })
    .expect(200);
  const workflowId = `booking:${booking.id}`;
  expect(await waitingKinds(workflowId)).toEqual(['startWorkflow', 'signalWithStart']);
  await expect(claimFailingAfterItsLocks()).resolves.toBe(0);

  await stack.startWorker();
  await atRest(workflowId);

  const { types, starts, signalled } = await history(workflowId);
  // One SignalWithStartWorkflowExecution: the start and the signal written together, before the first workflow task
  // is scheduled (a start alone writes its task's scheduling with it, and a signal after comes behind that).
  expect(types.slice(0, 3)).toEqual([
    EventType.EVENT_TYPE_WORKFLOW_EXECUTION_STARTED,
    EventType.EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED,
    EventType.EVENT_TYPE_WORKFLOW_TASK_SCHEDULED,
  ]);
  expect(starts).toBe(1);
  expect(signalled).toEqual(['confirmed']);
  // Both rows recorded by the one answer.
  const [start, signal] = await deliveredAt(workflowId);
  expect(start).not.toBeNull();
  expect(signal).toBe(start);
  // The workflow read the creation's input, then the confirmation: the guest's two e-mails, in that order, once each.
  expect(await emailsTo(guest)).toEqual(['Заявка на бронирование получена', 'Бронирование подтверждено']);

  // The pair delivered again (a relay that died before recording it) only signals the running workflow again: no
  // second start, no second e-mail.
  await t.db('outbox').where({ workflow_id: workflowId }).update({ delivered_at: null });
  await atRest(workflowId);

  const again = await history(workflowId);
  expect(again.starts).toBe(1);
  // Temporal keeps no request id across two calls: the confirmation is signalled again, and the workflow's e-mail
  // step (claimed per booking and kind) finds its e-mail sent.
  expect(again.signalled).toEqual(['confirmed', 'confirmed']);
  const [startAgain, signalAgain] = await deliveredAt(workflowId);
  expect(signalAgain).toBe(startAgain);
  expect(await emailsTo(guest)).toEqual(['Заявка на бронирование получена', 'Бронирование подтверждено']);
});
