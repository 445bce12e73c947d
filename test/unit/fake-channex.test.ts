import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import {
  fakeChannexControl,
  startFakeChannex,
  type FakeChannex,
  type FakeChannexControl,
  type OpenedProperty,
} from '../fakes/channex';

let fake: FakeChannex;
let control: FakeChannexControl;
/** A PMS's webhook endpoint: the notifications it received, in order; answers `receiverStatus`. */
let receiver: Server;
let receiverUrl: string;
let received: { event: string; payload: { revision_id: string; booking_id: string } }[] = [];
let receiverStatus = 200;

beforeAll(async () => {
  fake = await startFakeChannex();
  control = fakeChannexControl(fake.url);
  receiver = createServer((request, response) => {
    let text = '';
    request.on('data', (chunk: Buffer) => (text += chunk.toString()));
    request.on('end', () => {
      received.push(JSON.parse(text) as (typeof received)[number]);
      response.writeHead(receiverStatus).end();
    });
  });
  receiver.listen(0, '127.0.0.1');
  await once(receiver, 'listening');
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/channex`;
});
afterAll(async () => {
  await fake.close();
  receiver.close();
});

let property: OpenedProperty;
let key: string;
let roomTypeId: string;
let ratePlanId: string;
beforeEach(async () => {
  received = [];
  receiverStatus = 200;
  key = `key-${randomUUID()}`;
  property = await control.openProperty(randomUUID(), {
    api_key: key,
    title: 'Siyanie',
    room_types: [{ title: 'Standard', count_of_rooms: 5, rate_plans: [{ title: 'BAR' }] }],
  });
  roomTypeId = property.room_types[0].id;
  ratePlanId = property.room_types[0].rate_plans[0].id;
});

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

interface Resource {
  type: string;
  id: string;
  attributes: { id: string; status?: string; room_type_id?: string; rooms?: { days: Record<string, string> }[] };
}

/** A Channex answer: `data` is one resource or a list of them (typed as both, for the assertions' sake). */
interface ApiBody {
  data: Resource & Resource[];
  meta: { warnings: unknown[] };
}

async function api(method: string, path: string, body?: unknown, apiKey = key) {
  const response = await fetch(`${fake.apiUrl}${path}`, {
    method,
    headers: { 'user-api-key': apiKey, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as ApiBody };
}

describe('the fake Channex: catalogue and auth', () => {
  it('shows a property, its room types and rate plans to its key', async () => {
    const shown = await api('GET', `/properties/${property.id}`);
    expect(shown).toMatchObject({ status: 200, body: { data: { type: 'property', id: property.id } } });
    const roomTypes = await api('GET', `/room_types?filter[property_id]=${property.id}`);
    expect(roomTypes.body).toEqual({
      data: [expect.objectContaining({ type: 'room_type', id: roomTypeId })],
      meta: { page: 1, limit: 10, total: 1 },
    });
    const ratePlans = await api('GET', `/rate_plans?filter[property_id]=${property.id}&pagination[limit]=1`);
    expect(ratePlans.body.data[0].attributes).toMatchObject({ id: ratePlanId, room_type_id: roomTypeId });
  });

  it('refuses an unknown key with 401, and another key sees nothing of the property (404)', async () => {
    expect(await api('GET', `/properties/${property.id}`, undefined, 'no-such-key')).toEqual({
      status: 401,
      body: { errors: { code: 'unauthorized', title: 'Unauthorized' } },
    });
    const other = await control.openProperty(randomUUID(), { api_key: `other-${randomUUID()}` });
    const otherKey = `other-key-${randomUUID()}`;
    await control.openProperty(other.id, { api_key: otherKey });
    expect((await api('GET', `/properties/${property.id}`, undefined, otherKey)).status).toBe(404);
    expect((await api('GET', `/room_types?filter[property_id]=${property.id}`, undefined, otherKey)).status).toBe(404);
  });
});

describe('the fake Channex: ARI', () => {
  it('applies values in order, ranges and weekdays, rates as strings or minor units', async () => {
    const answer = await api('POST', '/availability', {
      values: [
        { property_id: property.id, room_type_id: roomTypeId, date_from: day(1), date_to: day(3), availability: 4 },
        { property_id: property.id, room_type_id: roomTypeId, date: day(2), availability: 1 },
      ],
    });
    expect(answer).toMatchObject({ status: 200, body: { meta: { message: 'Success', warnings: [] } } });
    await api('POST', '/restrictions', {
      values: [
        { property_id: property.id, rate_plan_id: ratePlanId, date_from: day(1), date_to: day(2), rate: '4500.5' },
        { property_id: property.id, rate_plan_id: ratePlanId, date: day(2), rate: 390000, stop_sell: true },
      ],
    });
    const ari = await control.ari(property.id);
    expect(ari.availability[roomTypeId]).toEqual({ [day(1)]: 4, [day(2)]: 1, [day(3)]: 4 });
    expect(ari.restrictions[ratePlanId][day(1)]).toMatchObject({ rate: '4500.50', stop_sell: false });
    expect(ari.restrictions[ratePlanId][day(2)]).toMatchObject({ rate: '3900.00', stop_sell: true });
  });

  it.each([
    ['an unknown room type', { room_type_id: randomUUID() }],
    ['a date that is no date', { date: '2027-02-30' }],
    ['a negative availability', { availability: -1 }],
    ['a date in the past', { date: day(-5) }],
    ['a range that ends before it starts', { date: undefined, date_from: day(5), date_to: day(4) }],
  ])('answers %s as a warning under a 200, and applies the rest', async (_what, change) => {
    const bad = { property_id: property.id, room_type_id: roomTypeId, date: day(7), availability: 2, ...change };
    const good = { property_id: property.id, room_type_id: roomTypeId, date: day(8), availability: 3 };
    const answer = await api('POST', '/availability', { values: [bad, good] });
    expect(answer.status).toBe(200);
    expect(answer.body.meta.warnings).toEqual([expect.objectContaining({ warning: expect.any(String) })]);
    expect((await control.ari(property.id)).availability[roomTypeId]).toEqual({ [day(8)]: 3 });
  });

  it.each([
    ['no values', {}],
    ['values that are not a list', { values: 'all' }],
    ['a value that is not an object', { values: [1] }],
    ['a body that is not JSON', '{"values": ['],
  ])('refuses %s with 422', async (_what, body) => {
    const answer = await api('POST', '/restrictions', body);
    expect(answer).toMatchObject({ status: 422, body: { errors: { code: 'validation_error' } } });
  });

  it('allows 10 availability calls a minute per property, then 429, and again once the minute has passed', async () => {
    const value = { property_id: property.id, room_type_id: roomTypeId, date: day(1), availability: 1 };
    for (let call = 0; call < 10; call++)
      expect((await api('POST', '/availability', { values: [value] })).status).toBe(200);
    expect(await api('POST', '/availability', { values: [value] })).toEqual({
      status: 429,
      body: { errors: { code: 'http_too_many_requests', title: 'Too Many Requests' } },
    });
    const rate = { property_id: property.id, rate_plan_id: ratePlanId, date: day(1), rate: '100.00' };
    expect((await api('POST', '/restrictions', { values: [rate] })).status).toBe(200);
    await control.advanceClock(property.id, 60_000);
    expect((await api('POST', '/availability', { values: [value] })).status).toBe(200);
    const calls = await control.calls(property.id);
    expect(calls.filter((call) => call.kind === 'availability').map((call) => call.status)).toEqual([
      ...Array<number>(10).fill(200),
      429,
      200,
    ]);
  });

  it('fails the next calls as forced (429 or 5xx), changing nothing', async () => {
    await control.injectFault(property.id, 503, 2);
    const value = { property_id: property.id, room_type_id: roomTypeId, date: day(1), availability: 1 };
    expect((await api('POST', '/availability', { values: [value] })).status).toBe(503);
    expect((await api('GET', `/properties/${property.id}`)).status).toBe(503);
    expect((await control.ari(property.id)).availability).toEqual({});
    expect((await api('POST', '/availability', { values: [value] })).status).toBe(200);
  });
});

describe('the fake Channex: booking revisions', () => {
  const room = () => ({ room_type_id: roomTypeId, rate_plan_id: ratePlanId, rate: '5000.00' });

  it('lists unacknowledged revisions in the feed until each is acknowledged', async () => {
    const made = await control.makeRevision(property.id, {
      arrival_date: day(10),
      departure_date: day(12),
      rooms: [room()],
    });
    expect(made).toMatchObject({ status: 'new', amount: '10000.00', property_id: property.id });
    const feed = await api('GET', `/booking_revisions/feed?filter[property_id]=${property.id}`);
    expect(feed.body).toEqual({
      data: [expect.objectContaining({ type: 'booking_revision', id: made.id })],
      meta: { page: 1, limit: 10, total: 1 },
    });
    expect(feed.body.data[0].attributes.rooms?.[0].days).toEqual({ [day(10)]: '5000.00', [day(11)]: '5000.00' });
    expect((await api('POST', `/booking_revisions/${made.id}/ack`)).status).toBe(200);
    expect((await api('GET', '/booking_revisions/feed')).body.data).toEqual([]);
    expect((await api('GET', `/booking_revisions/${made.id}`)).body.data.attributes.status).toBe('new');
    expect((await api('POST', `/booking_revisions/${randomUUID()}/ack`)).status).toBe(404);
  });

  it('raises an alarm for a revision left unacknowledged for 30 minutes', async () => {
    const made = await control.makeRevision(property.id, {
      arrival_date: day(3),
      departure_date: day(4),
      rooms: [room()],
    });
    await control.advanceClock(property.id, 29 * 60_000);
    expect(await control.alarms(property.id)).toEqual([]);
    await control.advanceClock(property.id, 60_000);
    expect(await control.alarms(property.id)).toEqual([expect.objectContaining({ revision_id: made.id })]);
    await api('POST', `/booking_revisions/${made.id}/ack`);
    expect(await control.alarms(property.id)).toEqual([]);
  });

  it('notifies a registered webhook, twice when asked, and a held-back revision after a later one', async () => {
    const registered = await api('POST', '/webhooks', {
      webhook: { property_id: property.id, callback_url: receiverUrl, event_mask: '*' },
    });
    expect(registered.status).toBe(201);
    const first = await control.makeRevision(property.id, {
      arrival_date: day(5),
      departure_date: day(7),
      rooms: [room()],
      webhook: 'twice',
    });
    const modified = await control.makeRevision(property.id, {
      status: 'modified',
      booking_id: first.booking_id,
      departure_date: day(8),
      webhook: 'hold',
    });
    const cancelled = await control.makeRevision(property.id, {
      status: 'cancelled',
      booking_id: first.booking_id,
    });
    expect(await control.releaseHeld(property.id)).toBe(1);
    await control.deliveries(property.id);
    expect(received.map(({ event, payload }) => [event, payload.revision_id])).toEqual([
      ['booking_new', first.id],
      ['booking_new', first.id],
      ['booking_cancellation', cancelled.id],
      ['booking_modification', modified.id],
    ]);
    expect(modified).toMatchObject({ booking_id: first.booking_id, departure_date: day(8), amount: '15000.00' });
  });

  it('logs a failed delivery and does not try again', async () => {
    receiverStatus = 500;
    await control.setWebhook(property.id, receiverUrl);
    await control.makeRevision(property.id, { arrival_date: day(5), departure_date: day(6), rooms: [room()] });
    expect(await control.deliveries(property.id)).toEqual([expect.objectContaining({ status: 500 })]);
    expect(received).toHaveLength(1);
  });

  it('refuses a webhook without a callback URL (422)', async () => {
    const refused = await api('POST', '/webhooks', { webhook: { property_id: property.id, event_mask: '*' } });
    expect(refused).toMatchObject({ status: 422, body: { errors: { details: { callback_url: ['invalid'] } } } });
  });
});
