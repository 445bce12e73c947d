import { randomUUID } from 'node:crypto';
import { Client, Connection, WorkflowFailedError } from '@temporalio/client';
import { NativeConnection, Worker } from '@temporalio/worker';
import { createActivities } from '../../activities';
import { createMailer } from '../../src/platform/mail';
import type { NightAuditActivities } from '../../workflows/contracts/night-audit';
import { addStaff, as, registerHotel } from '../helpers/accounts';
import { createTestApp, type TestApp } from '../helpers/app';
import { localDay } from '../helpers/dates';
import { readStackInfo } from '../helpers/stack-env';

/**
 * The night audit as the worker runs it, on a private worker whose close of the day keeps failing (the database
 * refusing it, say): Temporal retries the step, then the run gives up, recorded as failed, and the managers are told.
 */
let t: TestApp;
beforeAll(() => {
  t = createTestApp();
});
afterAll(() => t.close());

it('retries a failing step, then records the run failed and notifies the managers; the day stays open', async () => {
  const hotel = await registerHotel(t);
  const manager = await addStaff(t, hotel, 'manager');
  const desk = await addStaff(t, hotel, 'receptionist');
  const mailer = createMailer(t.config.smtpUrl, t.config.mailFrom);
  const real = createActivities({ db: t.db, config: t.config, mailer }) as unknown as NightAuditActivities;
  let attempts = 0;
  const address = readStackInfo().env.TEMPORAL_ADDRESS;
  const taskQueue = `test-night-audit-${randomUUID()}`;
  const workerConnection = await NativeConnection.connect({ address });
  const worker = await Worker.create({
    connection: workerConnection,
    taskQueue,
    workflowsPath: require.resolve('../../workflows'),
    activities: {
      ...real,
      closeAuditDay: async () => {
        attempts += 1;
        throw new Error('the books are locked');
      },
    },
  });
  const connection = await Connection.connect({ address });
  const day = localDay(-1);
  try {
    const failure = await worker.runUntil(
      new Client({ connection }).workflow
        .execute('nightAudit', {
          taskQueue,
          workflowId: `test-night-audit-${randomUUID()}`,
          args: [{ hotelId: hotel.hotelId, businessDate: day }],
        })
        .catch((error: unknown) => error),
    );
    expect(failure).toBeInstanceOf(WorkflowFailedError);
    expect(attempts).toBe(6);
  } finally {
    await workerConnection.close();
    await connection.close();
    mailer.close();
  }
  const audit = (await t.http.get(`/api/hotels/${hotel.slug}/night-audit`).set(as(hotel.accessToken)).expect(200)).body;
  expect(audit).toMatchObject({ closed_through: null, day_to_close: day, day_ended: true });
  expect(audit.runs).toEqual([
    expect.objectContaining({
      business_date: day,
      status: 'failed',
      error: expect.stringContaining('the books are locked'),
    }),
  ]);
  const inbox = async (token: string) =>
    (
      (await t.http.get(`/api/hotels/${hotel.slug}/notifications`).set(as(token)).expect(200)).body.items as {
        type: string;
        title: string;
      }[]
    ).filter((item) => item.type === 'night_audit_failed');
  expect(await inbox(hotel.accessToken)).toEqual([expect.objectContaining({ title: expect.stringContaining(day) })]);
  expect(await inbox(manager.accessToken)).toHaveLength(1);
  expect(await inbox(desk.accessToken)).toEqual([]);
}, 150_000);
