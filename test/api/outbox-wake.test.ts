import { randomUUID } from 'node:crypto';
import { publishHotelEvent } from '../../src/platform/realtime/events';
import { fakeChannexControl, startFakeChannex, type FakeChannex } from '../fakes/channex';
import { startFakeReceiver, type FakeReceiver } from '../fakes/webhooks';
import { as, registerHotel, type RegisteredHotel } from '../helpers/accounts';
import { createTestApp, type TestApp } from '../helpers/app';
import { startFaultStack, type FaultStack } from '../helpers/processes';
import { createCategory, createRoom } from '../helpers/structure';

/**
 * The coalesced wake (`outbox_wake`, migrations 120 and 122) as both its triggers use it: with the stack's worker stopped,
 * nothing relays the outbox, so what the triggers queued stays there to be counted, with no race against a delivery.
 * Many changes leave a workflow two wakes at most (the second reaches it after the last change's commit).
 */
jest.setTimeout(240_000);

let channex: FakeChannex;
let receiver: FakeReceiver;
let stack: FaultStack;
let t: TestApp;
let hotel: RegisteredHotel;
let subscriptionId: string;
let roomId: string;

beforeAll(async () => {
  channex = await startFakeChannex();
  receiver = await startFakeReceiver();
  stack = await startFaultStack('outbox_wake');
  Object.assign(stack.env, { CHANNEX_API_URL: channex.apiUrl, ALLOW_PRIVATE_OUTBOUND: 'true' });
  // The worker relays the registration's e-mail; stopped once the hotel is set up.
  await stack.startWorker();
  t = createTestApp(stack.env);
  hotel = await registerHotel(t);
  const api = (rest: string) => `/api/hotels/${hotel.slug}${rest}`;
  const category = await createCategory(t, hotel);
  roomId = (await createRoom(t, hotel, category.id)).id;
  const subscription = await t.http
    .post(api('/webhooks'))
    .set(as(hotel.accessToken))
    .send({ endpoint: receiver.url('/hooks/wake'), event_types: ['room_updated'] })
    .expect(201);
  subscriptionId = subscription.body.id;
  const apiKey = `key-${randomUUID()}`;
  const property = await fakeChannexControl(channex.url).openProperty(randomUUID(), {
    api_key: apiKey,
    room_types: [{ title: 'Double', rate_plans: [{ title: 'BAR' }] }],
  });
  await t.http
    .post(api('/channel-connection'))
    .set(as(hotel.accessToken))
    .send({
      provider: 'channex',
      api_key: apiKey,
      property_id: property.id,
      room_types: [{ room_type_id: property.room_types[0].id, category_id: category.id }],
      rate_plans: [],
    })
    .expect(201);
  await stack.killWorker();
});
afterAll(async () => {
  await t?.close();
  await stack?.stop();
  await receiver?.close();
  await channex?.close();
});

const waiting = async (workflowId: string) =>
  Number((await t.db('outbox').where({ workflow_id: workflowId }).whereNull('delivered_at').count('* as n'))[0].n);

it('the webhooks’ trigger leaves a subscription two undelivered wakes however many events it wants', async () => {
  for (let n = 0; n < 5; n += 1) {
    await t.db.transaction((trx) =>
      publishHotelEvent(trx, hotel.hotelId, { type: 'room_updated', payload: { room_id: roomId, n } }),
    );
  }
  expect(await waiting(`webhooks:${subscriptionId}`)).toBe(2);
});

it('the channel sync’s trigger leaves the hotel’s sync two undelivered wakes however much inventory changes', async () => {
  for (const day of [1, 3, 5, 7]) {
    await t.http
      .post(`/api/hotels/${hotel.slug}/bookings`)
      .set(as(hotel.accessToken))
      .send({
        room_id: roomId,
        check_in: `2031-06-0${day}`,
        check_out: `2031-06-0${day + 1}`,
        guest_first_name: 'Анна',
        guest_last_name: 'Будильник',
      })
      .expect(201);
  }
  expect(await waiting(`channels:${hotel.hotelId}`)).toBe(2);
});

it('a third wake is kept while a relay is delivering the workflow’s messages (they may reach it before this commit), not a fourth', async () => {
  const workflowId = `webhooks:${subscriptionId}`;
  const before = await waiting(workflowId);
  expect(before).toBe(2);
  // A relay's hold on the workflow while it signals those two: its session lock on the relay's keys.
  const relay = await t.db.client.acquireConnection();
  try {
    await relay.query('SELECT pg_advisory_lock(1869968482, hashtext($1))', [workflowId]);
    await t.db.transaction((trx) =>
      publishHotelEvent(trx, hotel.hotelId, { type: 'room_updated', payload: { room_id: roomId, n: 'in-flight' } }),
    );
    expect(await waiting(workflowId)).toBe(before + 1);
    await t.db.transaction((trx) =>
      publishHotelEvent(trx, hotel.hotelId, { type: 'room_updated', payload: { room_id: roomId, n: 'in-flight 2' } }),
    );
    expect(await waiting(workflowId)).toBe(before + 1);
    await relay.query('SELECT pg_advisory_unlock(1869968482, hashtext($1))', [workflowId]);
  } finally {
    await t.db.client.releaseConnection(relay);
  }
  // The relay gone: two waiting stand for the next one again.
  await t.db.transaction((trx) =>
    publishHotelEvent(trx, hotel.hotelId, { type: 'room_updated', payload: { room_id: roomId, n: 'after' } }),
  );
  expect(await waiting(workflowId)).toBe(before + 1);
});
