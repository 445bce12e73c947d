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
  attributes: {
    id: string;
    property_id?: string;
    status?: string;
    room_type_id?: string;
    rooms?: { days: Record<string, string> }[];
  };
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

describe('the fake Channex: key rotation', () => {
  it('lets several keys open a property, and refuses a revoked key with 401 while the others keep working', async () => {
    const newKey = `new-key-${randomUUID()}`;
    const reopened = await control.openProperty(property.id, { api_key: newKey });
    expect(reopened.api_keys.sort()).toEqual([key, newKey].sort());
    expect((await api('GET', `/properties/${property.id}`)).status).toBe(200);
    expect((await api('GET', `/properties/${property.id}`, undefined, newKey)).status).toBe(200);
    await control.revokeKey(key);
    expect(await api('GET', `/properties/${property.id}`)).toEqual({
      status: 401,
      body: { errors: { code: 'unauthorized', title: 'Unauthorized' } },
    });
    expect((await api('GET', `/properties/${property.id}`, undefined, newKey)).status).toBe(200);
    await expect(control.revokeKey(key)).rejects.toThrow(/404/);
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

  it('answers what it holds, defaults where nothing was pushed (GET availability and restrictions)', async () => {
    await api('POST', '/availability', {
      values: [{ property_id: property.id, room_type_id: roomTypeId, date: day(1), availability: 3 }],
    });
    await api('POST', '/restrictions', {
      values: [{ property_id: property.id, rate_plan_id: ratePlanId, date: day(2), rate: '99.90', min_stay: 2 }],
    });
    const range = `filter[property_id]=${property.id}&filter[date][gte]=${day(1)}&filter[date][lte]=${day(2)}`;
    expect((await api('GET', `/availability?${range}`)).body.data).toEqual({
      [roomTypeId]: { [day(1)]: 3, [day(2)]: 0 },
    });
    const restrictions = await api('GET', `/restrictions?${range}&filter[restrictions]=availability,rate,min_stay`);
    expect(restrictions.body.data).toEqual({
      [ratePlanId]: {
        [day(1)]: { availability: 3, rate: '0.00', min_stay: 1 },
        [day(2)]: { availability: 0, rate: '99.90', min_stay: 2 },
      },
    });
  });

  it('answers the read-only values, and a query it cannot read with 400 bad_request', async () => {
    const range = `filter[property_id]=${property.id}&filter[date]=${day(1)}`;
    const readOnly = await api(
      'GET',
      `/restrictions?${range}&filter[restrictions]=availability_offset,max_availability`,
    );
    expect(readOnly.body.data).toEqual({
      [ratePlanId]: { [day(1)]: { availability_offset: 0, max_availability: null } },
    });
    for (const query of [
      `${range}&filter[restrictions]=colour`,
      `filter[property_id]=${property.id}&filter[restrictions]=rate`,
      `filter[property_id]=${property.id}&filter[date][gte]=${day(2)}&filter[date][lte]=${day(1)}&filter[restrictions]=rate`,
      `filter[date]=${day(1)}&filter[restrictions]=rate`,
    ]) {
      expect(await api('GET', `/restrictions?${query}`)).toEqual({
        status: 400,
        body: { errors: { code: 'bad_request', title: 'Bad Request', details: [expect.any(String)] } },
      });
    }
    expect((await api('GET', `/availability?filter[property_id]=${property.id}`)).status).toBe(400);
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

  it("applies a range that starts in the past from the property's today, and refuses one wholly in the past", async () => {
    await control.openProperty(property.id, { api_key: key, timezone: 'UTC' });
    const value = { property_id: property.id, room_type_id: roomTypeId, availability: 2 };
    const answer = await api('POST', '/availability', {
      values: [
        { ...value, date_from: day(-3), date_to: day(1) },
        { ...value, date_from: day(-3), date_to: day(-1), availability: 0 },
      ],
    });
    expect(answer.body.meta.warnings).toEqual([
      expect.objectContaining({ date_to: day(-1), warning: 'date: must not be wholly in the past' }),
    ]);
    expect((await control.ari(property.id)).availability[roomTypeId]).toEqual({ [day(0)]: 2, [day(1)]: 2 });
  });

  it('refuses a property opened with a time zone that is none (422)', async () => {
    await expect(control.openProperty(property.id, { api_key: key, timezone: 'Mars/Olympus' })).rejects.toThrow(/422/);
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

  it('counts restrictions calls apart from availability ones: 10 a minute of their own', async () => {
    const rate = { property_id: property.id, rate_plan_id: ratePlanId, date: day(1), rate: '100.00' };
    for (let call = 0; call < 10; call++) await api('POST', '/restrictions', { values: [rate] });
    expect((await api('POST', '/restrictions', { values: [rate] })).status).toBe(429);
    const value = { property_id: property.id, room_type_id: roomTypeId, date: day(1), availability: 1 };
    expect((await api('POST', '/availability', { values: [value] })).status).toBe(200);
    expect((await control.calls(property.id)).map(({ kind, status }) => `${kind} ${status}`)).toEqual([
      ...Array<string>(10).fill('restrictions 200'),
      'restrictions 429',
      'availability 200',
    ]);
  });

  it('answers no task when every value names a property the key does not open, and limits and logs such calls', async () => {
    const other = await control.openProperty(randomUUID(), { api_key: `other-${randomUUID()}` });
    const stray = (propertyId: string) => ({
      property_id: propertyId,
      room_type_id: roomTypeId,
      date: day(1),
      availability: 1,
    });
    await control.injectFault(property.id, 503, 1);
    const answer = await api('POST', '/availability', { values: [stray(other.id), stray(randomUUID())] });
    expect(answer.status).toBe(200);
    expect(answer.body.data).toEqual([]);
    expect(answer.body.meta.warnings).toEqual([
      expect.objectContaining({ warning: 'property_id: not found' }),
      expect.objectContaining({ warning: 'property_id: not found' }),
    ]);
    for (let call = 1; call < 10; call++) await api('POST', '/availability', { values: [stray(other.id)] });
    expect((await api('POST', '/availability', { values: [stray(other.id)] })).status).toBe(429);
    const logged = await control.keyCalls(key);
    expect(logged.map((call) => call.status)).toEqual([...Array<number>(10).fill(200), 429]);
    expect(logged[0]).toMatchObject({ kind: 'availability', values: 2, warnings: 2 });
    expect(await control.calls(other.id)).toEqual([]);
    // The property's own fault and limit are untouched by them.
    expect((await api('POST', '/availability', { values: [stray(property.id)] })).status).toBe(503);
    const placed = await api('POST', '/availability', { values: [stray(property.id)] });
    expect(placed.body.data).toEqual([expect.objectContaining({ type: 'task' })]);
  });

  it('answers no task when every value of an opened property is refused', async () => {
    const refused = { property_id: property.id, room_type_id: randomUUID(), date: day(1), availability: 1 };
    const answer = await api('POST', '/availability', { values: [refused] });
    expect(answer).toMatchObject({ status: 200, body: { data: [], meta: { warnings: [expect.anything()] } } });
    expect(await control.calls(property.id)).toEqual([
      expect.objectContaining({ status: 200, values: 1, warnings: 1 }),
    ]);
  });

  it('answers one task per property of a call naming several, each logged with its own values', async () => {
    const secondKeyProperty = await control.openProperty(randomUUID(), {
      api_key: key,
      room_types: [{ title: 'Suite', rate_plans: [{ title: 'BAR' }] }],
    });
    const suiteId = secondKeyProperty.room_types[0].id;
    const answer = await api('POST', '/availability', {
      values: [
        { property_id: property.id, room_type_id: roomTypeId, date: day(1), availability: 2 },
        { property_id: secondKeyProperty.id, room_type_id: suiteId, date: day(1), availability: 1 },
        { property_id: secondKeyProperty.id, room_type_id: roomTypeId, date: day(1), availability: 1 },
      ],
    });
    expect(answer.body.data).toHaveLength(2);
    expect(answer.body.data.map((task) => task.attributes.property_id).sort()).toEqual(
      [property.id, secondKeyProperty.id].sort(),
    );
    expect((await control.ari(secondKeyProperty.id)).availability).toEqual({ [suiteId]: { [day(1)]: 1 } });
    expect(await control.calls(property.id)).toEqual([expect.objectContaining({ values: 1, warnings: 0 })]);
    expect(await control.calls(secondKeyProperty.id)).toEqual([expect.objectContaining({ values: 2, warnings: 1 })]);
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

describe('the fake Channex: forced faults by kind', () => {
  it('spends an ARI fault on ARI calls only, not on a feed poll or another kind', async () => {
    await control.injectFault(property.id, 502, 1, 'restrictions');
    await control.injectFault(property.id, 503, 1, 'feed');
    expect((await api('GET', `/booking_revisions/feed?filter[property_id]=${property.id}`)).status).toBe(503);
    expect((await api('GET', `/booking_revisions/feed?filter[property_id]=${property.id}`)).status).toBe(200);
    const value = { property_id: property.id, room_type_id: roomTypeId, date: day(1), availability: 1 };
    expect((await api('POST', '/availability', { values: [value] })).status).toBe(200);
    const rate = { property_id: property.id, rate_plan_id: ratePlanId, date: day(1), rate: '100.00' };
    expect((await api('POST', '/restrictions', { values: [rate] })).status).toBe(502);
    expect((await api('POST', '/restrictions', { values: [rate] })).status).toBe(200);
    expect((await control.calls(property.id)).map(({ kind, status }) => [kind, status])).toEqual([
      ['booking_revisions_feed', 503],
      ['booking_revisions_feed', 200],
      ['availability', 200],
      ['restrictions', 502],
      ['restrictions', 200],
    ]);
  });

  it("takes a kind's own fault before one for any call, and refuses a kind it does not know (422)", async () => {
    await control.injectFault(property.id, 500, 1);
    await control.injectFault(property.id, 429, 1, 'availability');
    const value = { property_id: property.id, room_type_id: roomTypeId, date: day(1), availability: 1 };
    expect((await api('POST', '/availability', { values: [value] })).status).toBe(429);
    expect((await api('POST', '/availability', { values: [value] })).status).toBe(500);
    expect((await api('POST', '/availability', { values: [value] })).status).toBe(200);
    await expect(
      control.injectFault(property.id, 500, 1, 'bookings' as Parameters<FakeChannexControl['injectFault']>[3]),
    ).rejects.toThrow(/422/);
  });

  it('lists and deletes webhooks through the same guard: logged, and failed as forced', async () => {
    const hook = { property_id: property.id, callback_url: receiverUrl, event_mask: 'booking' };
    const made = await api('POST', '/webhooks', { webhook: hook });
    const listed = await api('GET', '/webhooks');
    expect(listed.body.data).toEqual([expect.objectContaining({ type: 'webhook', id: made.body.data.id })]);
    await control.injectFault(property.id, 503, 1);
    expect((await api('DELETE', `/webhooks/${made.body.data.id}`)).status).toBe(503);
    expect((await api('DELETE', `/webhooks/${made.body.data.id}`)).status).toBe(200);
    expect((await api('GET', '/webhooks')).body.data).toEqual([]);
    expect((await api('DELETE', `/webhooks/${made.body.data.id}`)).status).toBe(404);
    expect((await control.calls(property.id)).map(({ kind, status }) => [kind, status])).toEqual([
      ['webhooks', 201],
      ['webhooks', 200],
      ['webhooks', 503],
      ['webhooks', 200],
      ['webhooks', 200],
    ]);
  });
});

describe('the fake Channex: booking revisions', () => {
  const room = () => ({ room_type_id: roomTypeId, rate_plan_id: ratePlanId, rate: '5000.00' });
  /** A new booking of one room for the nights from day(`from`) to day(`to`). */
  const book = (from = 3, to = 4) =>
    control.makeRevision(property.id, { arrival_date: day(from), departure_date: day(to), rooms: [room()] });

  it('lists unacknowledged revisions in the feed until each is acknowledged', async () => {
    const made = await book(10, 12);
    expect(made).toMatchObject({ status: 'new', amount: '10000.00', property_id: property.id });
    const feed = await api('GET', `/booking_revisions/feed?filter[property_id]=${property.id}`);
    expect(feed.body).toEqual({
      data: [expect.objectContaining({ type: 'booking_revision', id: made.id })],
      meta: { page: 1, limit: 10, total: 1 },
    });
    expect(feed.body.data[0].attributes.rooms?.[0].days).toEqual({ [day(10)]: '5000.00', [day(11)]: '5000.00' });
    expect((await api('POST', `/booking_revisions/${made.id}/ack`)).status).toBe(200);
    expect((await api('GET', '/booking_revisions/feed')).body.data).toEqual([]);
    expect((await control.revisions(property.id))[0].acked_at).toEqual(expect.any(String));
    expect((await api('GET', `/booking_revisions/${made.id}`)).body.data.attributes.status).toBe('new');
    expect((await api('POST', `/booking_revisions/${randomUUID()}/ack`)).status).toBe(404);
  });

  it('shows each room with its occupancy, and refuses what an OTA could not send (422)', async () => {
    const sized = await control.openProperty(property.id, {
      api_key: key,
      room_types: [{ title: 'Twin', occ_adults: 2, rate_plans: [{ title: 'BAR' }] }],
    });
    const twin = { room_type_id: sized.room_types[0].id, rate_plan_id: sized.room_types[0].rate_plans[0].id };
    const stay = { arrival_date: day(4), departure_date: day(6) };
    const made = await control.makeRevision(property.id, {
      ...stay,
      rooms: [{ ...twin, adults: 2, children: 1, infants: 1, days: { [day(4)]: '100', [day(5)]: '120.5' } }],
    });
    expect(made.rooms[0]).toMatchObject({
      occupancy: { adults: 2, children: 1, infants: 1 },
      days: { [day(4)]: '100.00', [day(5)]: '120.50' },
      amount: '220.50',
    });
    const refusals: [string, Parameters<FakeChannexControl['makeRevision']>[1]][] = [
      ['a night without a price', { ...stay, rooms: [{ ...twin, days: { [day(4)]: '100' } }] }],
      ['a price that is no number', { ...stay, rooms: [{ ...twin, days: { [day(4)]: 'cheap', [day(5)]: '1' } }] }],
      ['a night outside the stay', { ...stay, rooms: [{ ...twin, days: { [day(4)]: '1', [day(9)]: '1' } }] }],
      ['more adults than the room type takes', { ...stay, rooms: [{ ...twin, adults: 3 }] }],
      ['negative infants', { ...stay, rooms: [{ ...twin, infants: -1 }] }],
    ];
    const accepted: string[] = [];
    for (const [what, spec] of refusals) {
      await control.makeRevision(property.id, spec).then(
        () => accepted.push(what),
        (error: Error) => expect(error.message).toMatch(/HTTP 422/),
      );
    }
    expect(accepted).toEqual([]);
    await control.makeRevision(property.id, { status: 'cancelled', booking_id: made.booking_id });
    await expect(
      control.makeRevision(property.id, { status: 'modified', booking_id: made.booking_id, departure_date: day(7) }),
    ).rejects.toThrow(/422/);
  });

  it('releases a held notification once: a list naming it twice, or again, is refused (422)', async () => {
    await control.setWebhook(property.id, receiverUrl);
    const held = await control.makeRevision(property.id, {
      arrival_date: day(4),
      departure_date: day(5),
      rooms: [room()],
      webhook: 'hold',
    });
    await expect(control.releaseHeld(property.id, [held.id, held.id])).rejects.toThrow(/422/);
    expect(await control.releaseHeld(property.id, [held.id])).toBe(1);
    await expect(control.releaseHeld(property.id, [held.id])).rejects.toThrow(/422/);
    expect(await control.deliveries(property.id)).toHaveLength(1);
  });

  it("serves a booking's revision before its previous one when asked, and refuses that for a new booking", async () => {
    const made = await book(4, 5);
    const modified = await control.makeRevision(property.id, {
      status: 'modified',
      booking_id: made.booking_id,
      departure_date: day(6),
      feed_order: 'before_previous',
    });
    const feed = await api('GET', `/booking_revisions/feed?filter[property_id]=${property.id}`);
    expect(feed.body.data.map((revision) => revision.id)).toEqual([modified.id, made.id]);
    await expect(
      control.makeRevision(property.id, {
        arrival_date: day(4),
        departure_date: day(5),
        feed_order: 'before_previous',
      }),
    ).rejects.toThrow(/422/);
  });

  it("serves the feed across a key's properties in the order made, whatever one property's clock says", async () => {
    const second = await control.openProperty(randomUUID(), {
      api_key: key,
      room_types: [{ title: 'Suite', rate_plans: [{ title: 'BAR' }] }],
    });
    const suite = { room_type_id: second.room_types[0].id, rate_plan_id: second.room_types[0].rate_plans[0].id };
    const stay = { arrival_date: day(4), departure_date: day(5) };
    await control.advanceClock(property.id, 3_600_000);
    const first = await control.makeRevision(property.id, { ...stay, rooms: [room()] });
    const later = await control.makeRevision(second.id, { ...stay, rooms: [suite] });
    expect((await api('GET', '/booking_revisions/feed')).body.data.map((revision) => revision.id)).toEqual([
      first.id,
      later.id,
    ]);
  });

  it('pages the feed with pagination[page] and pagination[limit]', async () => {
    const made = [];
    for (let index = 0; index < 3; index++) {
      made.push(await book(4, 5));
    }
    const page = (number: number) =>
      api(
        'GET',
        `/booking_revisions/feed?filter[property_id]=${property.id}&pagination[page]=${number}&pagination[limit]=2`,
      );
    const [first, second] = [await page(1), await page(2)];
    expect(first.body.meta).toEqual({ page: 1, limit: 2, total: 3 });
    expect([...first.body.data, ...second.body.data].map((revision) => revision.id)).toEqual(made.map(({ id }) => id));
    expect((await api('GET', '/booking_revisions/feed?pagination[limit]=0')).status).toBe(422);
  });

  it('shows a revision by id and takes a second acknowledgement as the first, to its own key only', async () => {
    const made = await book(4, 5);
    const shown = await api('GET', `/booking_revisions/${made.id}`);
    expect(shown).toMatchObject({ status: 200, body: { data: { type: 'booking_revision', id: made.id } } });
    expect(shown.body.data.attributes).toEqual(expect.objectContaining({ status: 'new', property_id: property.id }));
    const otherKey = `other-${randomUUID()}`;
    await control.openProperty(randomUUID(), { api_key: otherKey });
    expect((await api('GET', `/booking_revisions/${made.id}`, undefined, otherKey)).status).toBe(404);
    expect((await api('POST', `/booking_revisions/${made.id}/ack`, undefined, otherKey)).status).toBe(404);
    expect((await control.revisions(property.id))[0].acked_at).toBeNull();
    expect((await api('POST', `/booking_revisions/${made.id}/ack`)).status).toBe(200);
    const ackedAt = (await control.revisions(property.id))[0].acked_at;
    await control.advanceClock(property.id, 60_000);
    expect((await api('POST', `/booking_revisions/${made.id}/ack`)).status).toBe(200);
    expect((await control.revisions(property.id))[0].acked_at).toBe(ackedAt);
  });

  it('raises no alarm for a revision acknowledged before 30 minutes', async () => {
    await control.setWebhook(property.id, receiverUrl, { event_mask: '*' });
    const made = await book();
    await control.advanceClock(property.id, 29 * 60_000);
    await api('POST', `/booking_revisions/${made.id}/ack`);
    await control.advanceClock(property.id, 60 * 60_000);
    expect(await control.alarms(property.id)).toEqual([]);
    await control.deliveries(property.id);
    expect(received.map(({ event }) => event)).toEqual(['booking_new']);
  });

  it("notifies `booking` for every status, a specific name for its own only, and the revision's data when asked", async () => {
    await api('POST', '/webhooks', {
      webhook: { property_id: property.id, callback_url: `${receiverUrl}?all`, event_mask: 'booking', send_data: true },
    });
    await api('POST', '/webhooks', {
      webhook: { property_id: property.id, callback_url: `${receiverUrl}?cancel`, event_mask: 'booking_cancellation' },
    });
    const made = await book();
    await control.makeRevision(property.id, { status: 'cancelled', booking_id: made.booking_id });
    await control.deliveries(property.id);
    expect(received.map(({ event }) => event)).toEqual(['booking', 'booking', 'booking_cancellation']);
    expect(received[0].payload).toMatchObject({ revision_id: made.id, status: 'new', ota_name: 'Booking.com' });
    expect(received[2].payload).toEqual({
      booking_id: made.booking_id,
      property_id: property.id,
      revision_id: expect.any(String),
    });
  });

  it('raises an alarm for a revision left unacknowledged for 30 minutes, announced as non_acked_booking', async () => {
    await control.setWebhook(property.id, receiverUrl, { event_mask: 'non_acked_booking' });
    const made = await book();
    await control.advanceClock(property.id, 29 * 60_000);
    expect(await control.alarms(property.id)).toEqual([]);
    await control.advanceClock(property.id, 60_000);
    expect(await control.alarms(property.id)).toEqual([expect.objectContaining({ revision_id: made.id })]);
    await control.deliveries(property.id);
    expect(received).toEqual([expect.objectContaining({ event: 'non_acked_booking', payload: expect.anything() })]);
    expect(received[0].payload.revision_id).toBe(made.id);
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
    await book(5, 6);
    expect(await control.deliveries(property.id)).toEqual([expect.objectContaining({ status: 500 })]);
    expect(received).toHaveLength(1);
  });

  it('refuses a webhook without a callback URL (422)', async () => {
    const refused = await api('POST', '/webhooks', { webhook: { property_id: property.id, event_mask: '*' } });
    expect(refused).toMatchObject({ status: 422, body: { errors: { details: { callback_url: ['invalid'] } } } });
  });
});
