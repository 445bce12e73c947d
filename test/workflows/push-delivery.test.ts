import { randomUUID } from 'node:crypto';
import { Client, Connection } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { MockActivityEnvironment } from '@temporalio/testing';
import { NativeConnection, Worker } from '@temporalio/worker';
import { createActivities } from '../../activities';
import type { NotificationInput } from '../../src/modules/notifications';
import { pushActivities } from '../../src/modules/push/push.activities';
import { MAX_PAYLOAD_BYTES } from '../../src/modules/push/push.payload';
import { createMailer } from '../../src/platform/mail';
import {
  PUSH_RATE_LIMITED,
  PUSH_REFUSED,
  type PushActivities,
  type PushDeliveryResult,
} from '../../workflows/contracts/push';
import { startFakePushService, type BrowserSubscription, type FakePushService } from '../fakes/push';
import { addStaff, as, registerHotel, type RegisteredHotel } from '../helpers/accounts';
import { createTestApp, type TestApp } from '../helpers/app';
import { readStackInfo, TEST_APP_ENV } from '../helpers/stack-env';

/**
 * The push delivery workflow as the worker runs it (a private worker on its own task queue, with this test's app's
 * activities, so it trusts the fake push service), and its activities one attempt at a time.
 */
let fake: FakePushService;
let t: TestApp;
let activities: PushActivities;
let worker: Worker;
let workerRun: Promise<void>;
let workerConnection: NativeConnection;
let connection: Connection;
let client: Client;
const taskQueue = `test-push-${randomUUID()}`;

beforeAll(async () => {
  fake = await startFakePushService({ vapidPublicKey: TEST_APP_ENV.VAPID_PUBLIC_KEY });
  t = createTestApp({ ALLOW_PRIVATE_OUTBOUND: 'true', PUSH_CA_FILE: fake.caFile });
  activities = pushActivities(t.services.push);
  const address = readStackInfo().env.TEMPORAL_ADDRESS;
  workerConnection = await NativeConnection.connect({ address });
  worker = await Worker.create({
    connection: workerConnection,
    taskQueue,
    workflowsPath: require.resolve('../../workflows'),
    activities,
  });
  workerRun = worker.run();
  connection = await Connection.connect({ address });
  client = new Client({ connection });
});
afterAll(async () => {
  worker.shutdown();
  await workerRun;
  await workerConnection.close();
  await connection.close();
  await t.close();
  await fake.close();
});
beforeEach(() => fake.reset());

/** Runs the workflow of the notification to its end on the private worker. */
async function deliver(hotelId: string, notificationId: string): Promise<PushDeliveryResult> {
  return client.workflow.execute('pushDelivery', {
    taskQueue,
    workflowId: `pushDelivery:test-${randomUUID()}`,
    args: [{ hotelId, notificationId }],
  });
}

const created = (hotel: RegisteredHotel, input: NotificationInput) =>
  t.db.transaction((trx) => t.services.notifications.notify(trx, hotel.hotelId, input));

async function device(hotel: RegisteredHotel, token: string): Promise<BrowserSubscription> {
  const browser = fake.subscribe();
  await t.http.post(`/api/hotels/${hotel.slug}/push/subscribe`).set(as(token)).send(browser).expect(200);
  return browser;
}

interface Staffed {
  hotel: RegisteredHotel;
  owner: BrowserSubscription;
  receptionist: BrowserSubscription[];
  housekeeper: BrowserSubscription;
  receptionistToken: string;
}

async function staffedHotel(): Promise<Staffed> {
  const hotel = await registerHotel(t);
  const receptionist = await addStaff(t, hotel, 'receptionist');
  const housekeeper = await addStaff(t, hotel, 'housekeeper');
  return {
    hotel,
    owner: await device(hotel, hotel.accessToken),
    receptionist: [await device(hotel, receptionist.accessToken), await device(hotel, receptionist.accessToken)],
    housekeeper: await device(hotel, housekeeper.accessToken),
    receptionistToken: receptionist.accessToken,
  };
}

const sorted = (endpoints: string[]) => [...endpoints].sort();

/** The failure an attempt ends with (it must fail). */
const failureOf = (attempt: Promise<unknown>) =>
  attempt.then(
    () => expect('the attempt').toBe('a failure') as never,
    (error: unknown) => (expect(error).toBeInstanceOf(ApplicationFailure), error as ApplicationFailure),
  );

describe('pushDelivery', () => {
  it('pushes the notification, decrypted by the push service, to the devices of the roles that receive its type', async () => {
    const staffed = await staffedHotel();
    const elsewhere = await registerHotel(t);
    const foreign = await device(elsewhere, elsewhere.accessToken);
    const bookingId = randomUUID();
    const notification = await created(staffed.hotel, {
      type: 'widget_booking',
      title: 'Новая бронь с сайта',
      body: 'Номер 12, 3 ночи',
      data: { booking_id: bookingId, guest_phone: '+79990001122', nights: 3 },
    });

    expect(await deliver(staffed.hotel.hotelId, notification.id)).toEqual({ sent: 3, gone: 0, failed: 0 });
    const received = fake.received();
    // hotel_admin and receptionist receive widget bookings by default; the housekeeper does not.
    expect(sorted(received.map((push) => push.endpoint))).toEqual(
      sorted([staffed.owner.endpoint, ...staffed.receptionist.map((browser) => browser.endpoint)]),
    );
    for (const push of received) {
      expect(push.payload).toEqual({
        type: 'widget_booking',
        title: 'Новая бронь с сайта',
        body: 'Номер 12, 3 ночи',
        data: { notification_id: notification.id, booking_id: bookingId },
      });
      expect(push.vapid.sub).toBe(TEST_APP_ENV.VAPID_SUBJECT);
      expect(push.ttl).toBeGreaterThan(0);
    }
    expect(fake.received(foreign.endpoint)).toEqual([]);
    expect(fake.rejected()).toEqual([]);

    // The same switches as in-app notifications: the receptionists' widget bookings turned off.
    await t.http
      .patch(`/api/hotels/${staffed.hotel.slug}/notification-settings`)
      .set(as(staffed.hotel.accessToken))
      .send({ receptionist: { widget_booking: false } })
      .expect(200);
    fake.reset();
    const later = await created(staffed.hotel, { type: 'widget_booking', title: 'Ещё одна', body: '' });
    expect(await deliver(staffed.hotel.hotelId, later.id)).toEqual({ sent: 1, gone: 0, failed: 0 });
    expect(fake.received().map((push) => push.endpoint)).toEqual([staffed.owner.endpoint]);
  });

  it('never pushes another hotel’s devices, even given another hotel’s notification id', async () => {
    const staffed = await staffedHotel();
    const elsewhere = await registerHotel(t);
    await device(elsewhere, elsewhere.accessToken);
    const theirs = await created(elsewhere, { type: 'widget_booking', title: 'Чужая бронь', body: '' });
    expect(await deliver(staffed.hotel.hotelId, theirs.id)).toEqual({ sent: 0, gone: 0, failed: 0 });
    expect(await activities.pushTargets({ hotelId: staffed.hotel.hotelId, notificationId: theirs.id })).toEqual([]);
    expect(fake.received()).toEqual([]);
  });

  it('deletes a subscription the push service calls gone (410) and still pushes the others', async () => {
    const staffed = await staffedHotel();
    fake.answer(staffed.owner.endpoint, { status: 410 });
    const notification = await created(staffed.hotel, { type: 'widget_booking', title: 'Бронь', body: '' });
    expect(await deliver(staffed.hotel.hotelId, notification.id)).toEqual({ sent: 2, gone: 1, failed: 0 });
    expect(await t.db('push_subscriptions').where({ endpoint: staffed.owner.endpoint })).toEqual([]);
    expect(
      await t.db('push_subscriptions').whereIn(
        'endpoint',
        staffed.receptionist.map((b) => b.endpoint),
      ),
    ).toHaveLength(2);
  });

  it('retries a 429 after its Retry-After', async () => {
    const staffed = await staffedHotel();
    const [first] = staffed.receptionist;
    await t.http
      .patch(`/api/hotels/${staffed.hotel.slug}/notification-settings`)
      .set(as(staffed.hotel.accessToken))
      .send({ hotel_admin: { widget_booking: false } })
      .expect(200);
    fake.answer(first.endpoint, { status: 429, retryAfter: '2' });
    const notification = await created(staffed.hotel, { type: 'widget_booking', title: 'Бронь', body: '' });
    expect(await deliver(staffed.hotel.hotelId, notification.id)).toEqual({ sent: 2, gone: 0, failed: 0 });
    const [retried] = fake.received(first.endpoint);
    expect(retried.at - fake.lastScriptedAt(first.endpoint)!).toBeGreaterThanOrEqual(1900);

    // One attempt on its own: the failure asks Temporal for exactly that delay.
    fake.answer(first.endpoint, { status: 429, retryAfter: '7' });
    const [subscriptionId] = await t.db('push_subscriptions').where({ endpoint: first.endpoint }).pluck('id');
    const input = { hotelId: staffed.hotel.hotelId, notificationId: notification.id, subscriptionId };
    const failure = await failureOf(new MockActivityEnvironment().run(activities.sendPush, input));
    expect(failure.type).toBe(PUSH_RATE_LIMITED);
    expect(failure.nonRetryable).toBe(false);
    expect(failure.nextRetryDelay).toBe(7000);
  });

  it('retries a failing push service and gives up on a refusal', async () => {
    const staffed = await staffedHotel();
    const notification = await created(staffed.hotel, { type: 'widget_booking', title: 'Бронь', body: '' });
    const [subscriptionId] = await t.db('push_subscriptions').where({ endpoint: staffed.owner.endpoint }).pluck('id');
    const input = { hotelId: staffed.hotel.hotelId, notificationId: notification.id, subscriptionId };
    const attempt = () => new MockActivityEnvironment().run(activities.sendPush, input);

    fake.answer(staffed.owner.endpoint, { status: 503 });
    const unavailable = await failureOf(attempt());
    expect(unavailable.nonRetryable).toBe(false);
    fake.answer(staffed.owner.endpoint, { status: 413 });
    const refused = await failureOf(attempt());
    expect(refused.type).toBe(PUSH_REFUSED);
    expect(refused.nonRetryable).toBe(true);
    expect(await attempt()).toBe('sent');
    // The housekeeper's device is not the notification's: nothing is sent to it.
    const [housekeeperSubscription] = await t
      .db('push_subscriptions')
      .where({ endpoint: staffed.housekeeper.endpoint })
      .pluck('id');
    expect(
      await new MockActivityEnvironment().run(activities.sendPush, {
        ...input,
        subscriptionId: housekeeperSubscription,
      }),
    ).toBe('skipped');
    expect(fake.received().map((push) => push.endpoint)).toEqual([staffed.owner.endpoint]);
  });

  // The jest timeout is the only clock: the old bounds (an attempt waited 15 s for an answer, then 5 s before the
  // next) could not finish within it.
  it('abandons an attempt the push service never answers and pushes again soon after', async () => {
    const hotel = await registerHotel(t);
    const owner = await device(hotel, hotel.accessToken);
    fake.answer(owner.endpoint, { status: 'never' });
    const notification = await created(hotel, { type: 'widget_booking', title: 'Бронь', body: '' });
    expect(await deliver(hotel.hotelId, notification.id)).toEqual({ sent: 1, gone: 0, failed: 0 });
    const [hung, retried, ...more] = fake.attempts(owner.endpoint);
    expect(hung.status).toBeUndefined();
    expect(hung.abandonedAt).toBeGreaterThan(hung.at);
    expect(retried.status).toBe(201);
    expect(more).toEqual([]);
    expect(fake.received(owner.endpoint)).toHaveLength(1);
  }, 14_000);

  it('refuses for good a device at an address the worker may not call', async () => {
    // The worker as deployed, which may not address private networks: the fake push service is on 127.0.0.1.
    const config = { ...t.config, allowPrivateOutbound: false };
    const mailer = createMailer(t.config.smtpUrl, t.config.mailFrom);
    const worker = createActivities({ db: t.db, config, mailer }) as PushActivities;
    const staffed = await staffedHotel();
    const notification = await created(staffed.hotel, { type: 'widget_booking', title: 'Бронь', body: '' });
    const [subscriptionId] = await t.db('push_subscriptions').where({ endpoint: staffed.owner.endpoint }).pluck('id');
    const input = { hotelId: staffed.hotel.hotelId, notificationId: notification.id, subscriptionId };
    const refused = await failureOf(new MockActivityEnvironment().run(worker.sendPush, input));
    expect(refused.type).toBe(PUSH_REFUSED);
    expect(refused.nonRetryable).toBe(true);
    expect(refused.message).toMatch(/127\.0\.0\.1/);
    expect(fake.received()).toEqual([]);
    mailer.close();
  });

  it('keeps the payload within 2 KB, shortening a long body', async () => {
    const staffed = await staffedHotel();
    const notification = await created(staffed.hotel, {
      type: 'widget_booking',
      title: 'Длинная',
      body: 'Ж'.repeat(2000),
    });
    await deliver(staffed.hotel.hotelId, notification.id);
    const [push] = fake.received(staffed.owner.endpoint);
    expect(push.bytes).toBeLessThanOrEqual(MAX_PAYLOAD_BYTES);
    const { body } = push.payload as { body: string };
    expect(body.endsWith('…')).toBe(true);
    expect(body.length).toBeGreaterThan(500);
  });

  it('sends nothing for a notification whose transaction rolled back', async () => {
    const staffed = await staffedHotel();
    let id = '';
    await expect(
      t.db.transaction(async (trx) => {
        id = (
          await t.services.notifications.notify(trx, staffed.hotel.hotelId, {
            type: 'widget_booking',
            title: 'Нет',
            body: '',
          })
        ).id;
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await deliver(staffed.hotel.hotelId, id)).toEqual({ sent: 0, gone: 0, failed: 0 });
    expect(fake.received()).toEqual([]);
  });
});
