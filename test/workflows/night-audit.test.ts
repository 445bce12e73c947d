import { randomUUID } from 'node:crypto';
import { Client, Connection, WorkflowFailedError } from '@temporalio/client';
import { MockActivityEnvironment } from '@temporalio/testing';
import { NativeConnection, Worker } from '@temporalio/worker';
import { createActivities } from '../../activities';
import { createMailer, PermanentMailError, type Mailer } from '../../src/platform/mail';
import type { NightAuditActivities } from '../../workflows/contracts/night-audit';
import type { ReportActivities } from '../../workflows/contracts/reports';
import { addStaff, as, registerHotel, type RegisteredHotel } from '../helpers/accounts';
import { createTestApp, type TestApp } from '../helpers/app';
import { localDay } from '../helpers/dates';
import { messagesTo } from '../helpers/mail';
import { readStackInfo } from '../helpers/stack-env';
import { bringStayTo } from '../helpers/stays';
import { createCategory, createRoom } from '../helpers/structure';

/**
 * The night audit as the worker runs it, on a private worker whose activities may fail as a real one's would (the
 * database refusing a step, a relay refusing an address): retried, then the run recorded and the managers told.
 */
let t: TestApp;
beforeAll(() => {
  t = createTestApp();
});
afterAll(() => t.close());

const day = localDay(-1);
const api = (hotel: RegisteredHotel, path: string) => `/api/hotels/${hotel.slug}${path}`;
const get = (hotel: RegisteredHotel, path: string) =>
  t.http.get(api(hotel, path)).set(as(hotel.accessToken)).expect(200);

/** The audit of `day` run on a private worker with these activities replaced (and this mailer): its result or failure. */
async function runAudit(
  hotel: RegisteredHotel,
  replaced: (real: NightAuditActivities) => Partial<NightAuditActivities> = () => ({}),
  wrapMailer: (mailer: Mailer) => Mailer = (mailer) => mailer,
): Promise<unknown> {
  const mailer = createMailer(t.config.smtpUrl, t.config.mailFrom);
  const real = createActivities({
    db: t.db,
    config: t.config,
    mailer: wrapMailer(mailer),
  }) as unknown as NightAuditActivities;
  const address = readStackInfo().env.TEMPORAL_ADDRESS;
  const taskQueue = `test-night-audit-${randomUUID()}`;
  const workerConnection = await NativeConnection.connect({ address });
  const connection = await Connection.connect({ address });
  try {
    const worker = await Worker.create({
      connection: workerConnection,
      taskQueue,
      workflowsPath: require.resolve('../../workflows'),
      activities: { ...real, ...replaced(real) },
    });
    return await worker.runUntil(
      new Client({ connection }).workflow
        .execute('nightAudit', {
          taskQueue,
          workflowId: `test-night-audit-${randomUUID()}`,
          args: [{ hotelId: hotel.hotelId, businessDate: day }],
        })
        .catch((error: unknown) => error),
    );
  } finally {
    await workerConnection.close();
    await connection.close();
    mailer.close();
  }
}

const failedNotices = async (hotel: RegisteredHotel, token: string) =>
  (
    (await t.http.get(api(hotel, '/notifications')).set(as(token)).expect(200)).body.items as {
      type: string;
      title: string;
    }[]
  ).filter((item) => item.type === 'night_audit_failed');

it('retries a failing step, records the run failed and notifies the managers; run again, it skips the steps done', async () => {
  const hotel = await registerHotel(t);
  const manager = await addStaff(t, hotel, 'manager');
  const desk = await addStaff(t, hotel, 'receptionist');
  const category = await createCategory(t, hotel);
  const room = await createRoom(t, hotel, category.id);
  const booked = await t.http
    .post(api(hotel, '/bookings'))
    .set(as(hotel.accessToken))
    .send({
      room_id: room.id,
      check_in: day,
      check_out: localDay(2),
      guest_last_name: 'Повторная',
      guest_first_name: 'Ночь',
      price: '9000',
    })
    .expect(201);
  await bringStayTo(t, hotel, booked.body.id, 'checked_in');
  let attempts = 0;
  const failure = await runAudit(hotel, () => ({
    closeAuditDay: async () => {
      attempts += 1;
      throw new Error('the books are locked');
    },
  }));
  expect(failure).toBeInstanceOf(WorkflowFailedError);
  expect(attempts).toBe(6);
  const audit = (await get(hotel, '/night-audit')).body;
  expect(audit).toMatchObject({ closed_through: null, day_to_close: day, day_ended: true });
  expect(audit.runs).toEqual([
    expect.objectContaining({
      business_date: day,
      status: 'failed',
      error: expect.stringContaining('the books are locked'),
    }),
  ]);
  expect(await failedNotices(hotel, hotel.accessToken)).toEqual([
    expect.objectContaining({ title: expect.stringContaining(day) }),
  ]);
  expect(await failedNotices(hotel, manager.accessToken)).toHaveLength(1);
  expect(await failedNotices(hotel, desk.accessToken)).toEqual([]);

  // The stayover's room was marked for its clean, and cleaned that morning: the day run again leaves it clean.
  expect((await get(hotel, `/rooms/${room.id}`)).body).toMatchObject({ status: 'dirty' });
  await t.http
    .patch(api(hotel, `/rooms/${room.id}/status`))
    .set(as(hotel.accessToken))
    .send({ status: 'clean' })
    .expect(200);
  expect(await runAudit(hotel)).toMatchObject({ businessDate: day, roomsMarked: 0, dayClosed: 1, snapshots: 1 });
  expect((await get(hotel, `/rooms/${room.id}`)).body).toMatchObject({ status: 'clean' });
  expect((await get(hotel, '/night-audit')).body.runs).toEqual([
    expect.objectContaining({ business_date: day, status: 'succeeded' }),
  ]);
}, 240_000);

it('records the run failed and tells the managers when even its beginning keeps failing', async () => {
  const hotel = await registerHotel(t);
  const failure = await runAudit(hotel, () => ({
    beginNightAudit: async () => {
      throw new Error('the database is away');
    },
  }));
  expect(failure).toBeInstanceOf(WorkflowFailedError);
  expect(await failedNotices(hotel, hotel.accessToken)).toEqual([
    expect.objectContaining({ title: expect.stringContaining(day) }),
  ]);
}, 150_000);

it('succeeds once the day is closed though the relay refuses one recipient: the others get it, the refusal recorded', async () => {
  const hotel = await registerHotel(t);
  const manager = await addStaff(t, hotel, 'manager');
  const result = await runAudit(hotel, undefined, (mailer) => ({
    ...mailer,
    async send(message) {
      if (message.to === hotel.email) throw new PermanentMailError('SMTP refused the message (550)');
      return mailer.send(message);
    },
  }));
  expect(result).toMatchObject({ businessDate: day, dayClosed: 1, snapshots: 1, reportsSent: 1 });
  const audit = (await get(hotel, '/night-audit')).body;
  expect(audit).toMatchObject({ closed_through: day });
  expect(audit.runs).toEqual([
    expect.objectContaining({
      business_date: day,
      status: 'succeeded',
      report_error: expect.stringContaining(`${hotel.email}: SMTP refused the message (550)`),
    }),
  ]);
  const reports = (await messagesTo(manager.email)).filter((message) => message.subject.includes('отчёт за'));
  expect(reports).toHaveLength(1);
}, 150_000);

it('sends the daily report asked for to every manager though the relay refuses the owner, and a second run sends no one a second', async () => {
  const hotel = await registerHotel(t);
  const managers = await Promise.all([addStaff(t, hotel, 'manager'), addStaff(t, hotel, 'manager')]);
  const mailer = createMailer(t.config.smtpUrl, t.config.mailFrom);
  const refused: string[] = [];
  const activities = createActivities({
    db: t.db,
    config: t.config,
    mailer: {
      ...mailer,
      async send(message) {
        if (message.to === hotel.email) {
          refused.push(message.to);
          throw new PermanentMailError('SMTP refused the message (550)');
        }
        return mailer.send(message);
      },
    },
  }) as unknown as ReportActivities;
  try {
    const input = { hotelId: hotel.hotelId, date: day, key: `request-${randomUUID()}` };
    expect(await new MockActivityEnvironment().run(activities.sendDailyReportEmail, input)).toBe(2);
    expect(await new MockActivityEnvironment().run(activities.sendDailyReportEmail, input)).toBe(0);
  } finally {
    mailer.close();
  }
  expect(refused).toEqual([hotel.email, hotel.email]);
  for (const manager of managers) {
    const reports = (await messagesTo(manager.email)).filter((message) => message.subject.includes(`отчёт за ${day}`));
    expect(reports).toHaveLength(1);
  }
}, 60_000);
