import { randomUUID } from 'node:crypto';
import { fakeChannexControl, type FakeAri, type OpenedProperty } from '../fakes/channex';
import { addStaff, as, registerHotel, type RegisteredHotel } from '../helpers/accounts';
import { reencryptChannelKeys } from '../../src/modules/channels';
import { decryptSecret } from '../../src/platform/crypto';
import { createTestApp, testConfig, type TestApp } from '../helpers/app';
import { localDay } from '../helpers/dates';
import { readStackInfo, TEST_APP_ENV } from '../helpers/stack-env';
import { createCategory, createRoom } from '../helpers/structure';
import { until } from '../helpers/wait';

/**
 * A hotel connecting its Channex property, against the stack's fake Channex (which the stack's worker pushes to):
 * the mapping checked against the channel, the key never shown, and the channel's state following ours.
 */

let t: TestApp;
const control = () => fakeChannexControl(readStackInfo().env.CHANNEX_FAKE_URL);
const SYNC_DAYS = 365;
const days = Array.from({ length: SYNC_DAYS }, (_, offset) => localDay(offset));

beforeAll(() => {
  t = createTestApp();
});
afterAll(() => t.close());

const path = (hotel: RegisteredHotel) => `/api/hotels/${hotel.slug}/channel-connection`;

interface Setup {
  hotel: RegisteredHotel;
  property: OpenedProperty;
  apiKey: string;
  categoryId: string;
  tariffId: string;
  roomIds: string[];
  body: Record<string, unknown>;
}

/** A hotel with one category of two rooms and a tariff, and a Channex property with a room type and rate plan. */
async function setUp(): Promise<Setup> {
  const hotel = await registerHotel(t);
  const category = await createCategory(t, hotel, { base_price: 4000 });
  const roomIds = [(await createRoom(t, hotel, category.id)).id, (await createRoom(t, hotel, category.id)).id];
  const tariff = await t.http
    .post(`/api/hotels/${hotel.slug}/tariffs`)
    .set(as(hotel.accessToken))
    .send({ name: 'Лучший тариф' })
    .expect(201);
  const apiKey = `key-${randomUUID()}`;
  const property = await control().openProperty(randomUUID(), {
    api_key: apiKey,
    title: 'Тестовый отель',
    room_types: [{ title: 'Double', count_of_rooms: 2, rate_plans: [{ title: 'BAR' }] }],
  });
  const [roomType] = property.room_types;
  const body = {
    provider: 'channex',
    api_key: apiKey,
    property_id: property.id,
    room_types: [{ room_type_id: roomType.id, category_id: category.id }],
    rate_plans: [{ rate_plan_id: roomType.rate_plans[0].id, tariff_id: tariff.body.id }],
  };
  return { hotel, property, apiKey, categoryId: category.id, tariffId: tariff.body.id, roomIds, body };
}

const connect = (setup: Setup, body = setup.body) =>
  t.http.post(path(setup.hotel)).set(as(setup.hotel.accessToken)).send(body);

const ids = (setup: Setup) => ({
  roomTypeId: setup.property.room_types[0].id,
  ratePlanId: setup.property.room_types[0].rate_plans[0].id,
});

/** Waits until the channel holds what `expected` says of the property (every date of it). */
async function channelHolds(setup: Setup, expected: (ari: FakeAri) => boolean, what: string) {
  let last: FakeAri | undefined;
  return until(
    async () => {
      last = await control().ari(setup.property.id);
      return expected(last) && last;
    },
    {
      what: () => `${what}; the channel holds ${JSON.stringify(last).slice(0, 400)}`,
      timeoutMs: 60_000,
      intervalMs: 250,
    },
  );
}

/** The connection's full sync done: both kinds at the channel for every day. */
const fullySynced = (setup: Setup) =>
  channelHolds(
    setup,
    (state) =>
      Object.keys(availabilityOf(setup, state)).length === SYNC_DAYS &&
      Object.keys(restrictionsOf(setup, state)).length === SYNC_DAYS,
    'the full sync',
  );
const availabilityOf = (setup: Setup, ari: FakeAri) => ari.availability[ids(setup).roomTypeId] ?? {};
const restrictionsOf = (setup: Setup, ari: FakeAri) => ari.restrictions[ids(setup).ratePlanId] ?? {};

async function book(setup: Setup, from: number, to: number) {
  await t.http
    .post(`/api/hotels/${setup.hotel.slug}/bookings`)
    .set(as(setup.hotel.accessToken))
    .send({
      room_id: setup.roomIds[0],
      check_in: localDay(from),
      check_out: localDay(to),
      guest_last_name: 'Иванов',
      guest_first_name: 'Пётр',
    })
    .expect(201);
}

describe('connecting a channel manager', () => {
  it('checks the mapping, keeps the key unseen, and puts our next 365 days at the channel', async () => {
    const setup = await setUp();
    await book(setup, 3, 5);
    await t.http
      .put(`/api/hotels/${setup.hotel.slug}/restrictions`)
      .set(as(setup.hotel.accessToken))
      .send({
        items: [
          { category_id: setup.categoryId, from: localDay(10), to: localDay(12), min_stay_arrival: 2 },
          {
            category_id: setup.categoryId,
            tariff_id: setup.tariffId,
            from: localDay(20),
            to: localDay(20),
            stop_sell: true,
          },
        ],
      })
      .expect(200);
    await t.http
      .post(`/api/hotels/${setup.hotel.slug}/rate-overrides`)
      .set(as(setup.hotel.accessToken))
      .send({ category_id: setup.categoryId, date: localDay(30), price: 6500 })
      .expect(200);

    const created = await connect(setup).expect(201);
    expect(JSON.stringify(created.body)).not.toContain(setup.apiKey);
    expect(created.body).toMatchObject({
      provider: 'channex',
      property_id: setup.property.id,
      api_key_hint: `…${setup.apiKey.slice(-4)}`,
      rate_plans: [{ ...(setup.body.rate_plans as object[])[0], room_type_id: ids(setup).roomTypeId }],
    });
    const read = await t.http.get(path(setup.hotel)).set(as(setup.hotel.accessToken)).expect(200);
    expect(JSON.stringify(read.body)).not.toContain(setup.apiKey);

    const ari = await channelHolds(
      setup,
      (state) => Object.keys(restrictionsOf(setup, state)).length === SYNC_DAYS,
      'the full sync',
    );
    const calendar = await t.http
      .get(`/api/hotels/${setup.hotel.slug}/availability/calendar`)
      .query({ from: days[0], to: localDay(SYNC_DAYS) })
      .set(as(setup.hotel.accessToken))
      .expect(200);
    const free: number[] = calendar.body.categories[0].free;
    expect(free.slice(3, 5)).toEqual([1, 1]);
    expect(availabilityOf(setup, ari)).toEqual(Object.fromEntries(days.map((day, index) => [day, free[index]])));
    const none = {
      min_stay_arrival: 1,
      min_stay_through: 1,
      max_stay: 0,
      closed_to_arrival: false,
      closed_to_departure: false,
      stop_sell: false,
    };
    const expected = Object.fromEntries(
      days.map((day, offset) => [
        day,
        {
          ...none,
          rate: offset === 30 ? '6500.00' : '4000.00',
          min_stay_arrival: offset >= 10 && offset <= 12 ? 2 : 1,
          stop_sell: offset === 20,
        },
      ]),
    );
    expect(restrictionsOf(setup, ari)).toEqual(expected);
    // Few calls: one per kind, the ranges folding equal days.
    const pushes = (await control().calls(setup.property.id)).filter(
      (call) => call.kind !== 'property' && call.status === 200,
    );
    expect(pushes.filter((call) => call.kind === 'availability')).toHaveLength(1);
    expect(pushes.filter((call) => call.kind === 'restrictions')).toEqual([
      expect.objectContaining({ values: 7, warnings: 0 }),
    ]);
  });

  it('names the ids the channel does not list, refuses a wrong key and another hotel’s category, stores nothing', async () => {
    const setup = await setUp();
    const unknown = await connect(setup, {
      ...setup.body,
      room_types: [
        ...(setup.body.room_types as object[]),
        { room_type_id: 'no-such-room-type', category_id: (await createCategory(t, setup.hotel)).id },
      ],
      rate_plans: [{ rate_plan_id: 'no-such-plan', tariff_id: setup.tariffId }],
    }).expect(422);
    expect(unknown.body).toMatchObject({
      code: 'channel_mapping_unknown',
      errors: ['room_type_id no-such-room-type', 'rate_plan_id no-such-plan'],
    });
    const wrongKey = await connect(setup, { ...setup.body, api_key: 'not-the-key-at-all' }).expect(422);
    expect(wrongKey.body.code).toBe('channel_unauthorized');
    const unknownProperty = await connect(setup, { ...setup.body, property_id: randomUUID() }).expect(422);
    expect(unknownProperty.body.code).toBe('channel_property_unknown');
    const other = await registerHotel(t);
    const theirs = await createCategory(t, other);
    const notOurs = await connect(setup, {
      ...setup.body,
      room_types: [{ room_type_id: ids(setup).roomTypeId, category_id: theirs.id }],
    }).expect(422);
    expect(notOurs.body).toMatchObject({ code: 'channel_mapping_not_ours', errors: [`category_id ${theirs.id}`] });
    await t.http.get(path(setup.hotel)).set(as(setup.hotel.accessToken)).expect(404);
  });

  it('is the owner’s and managers’: the desk and another hotel get nothing', async () => {
    const setup = await setUp();
    await connect(setup).expect(201);
    await connect(setup).expect(409);
    const desk = await addStaff(t, setup.hotel, 'receptionist');
    await t.http.get(path(setup.hotel)).set(as(desk.accessToken)).expect(403);
    const other = await registerHotel(t);
    const foreign = await t.http.get(path(setup.hotel)).set(as(other.accessToken));
    expect([403, 404]).toContain(foreign.status);
    expect(JSON.stringify(foreign.body)).not.toContain(setup.property.id);
    await t.http
      .post(`${path(setup.hotel)}/sync`)
      .set(as(other.accessToken))
      .expect(foreign.status);
    const manager = await addStaff(t, setup.hotel, 'manager');
    await t.http.get(path(setup.hotel)).set(as(manager.accessToken)).expect(200);
  });

  it('refuses a second hotel the property another hotel holds (409), naming why; nothing stored', async () => {
    const setup = await setUp();
    await connect(setup).expect(201);
    const second = await registerHotel(t);
    const category = await createCategory(t, second);
    const tariff = await t.http
      .post(`/api/hotels/${second.slug}/tariffs`)
      .set(as(second.accessToken))
      .send({ name: 'Другой тариф' })
      .expect(201);
    const taken = await t.http
      .post(path(second))
      .set(as(second.accessToken))
      .send({
        ...setup.body,
        room_types: [{ room_type_id: ids(setup).roomTypeId, category_id: category.id }],
        rate_plans: [{ rate_plan_id: ids(setup).ratePlanId, tariff_id: tariff.body.id }],
      })
      .expect(409);
    expect(taken.body).toMatchObject({ code: 'channel_property_taken' });
    expect(JSON.stringify(taken.body)).toContain('property_id');
    await t.http.get(path(second)).set(as(second.accessToken)).expect(404);
  });
});

describe('key rotation', () => {
  it('re-encrypts the channel key under the new key, idempotently; an unknown key stops it', async () => {
    const setup = await setUp();
    await connect(setup).expect(201);
    const row = () => t.db('channel_connections').where({ hotel_id: setup.hotel.hotelId }).first();
    const before = await row();
    const k2 = Buffer.alloc(32, 2).toString('base64');
    const rotated = testConfig({
      ENCRYPTION_KEYS: `${TEST_APP_ENV.ENCRYPTION_KEYS},k2:${k2}`,
      ENCRYPTION_KEY_ID: 'k2',
    });
    const onlyK2 = testConfig({ ENCRYPTION_KEYS: `k2:${k2}` });
    const options = { hotelId: setup.hotel.hotelId };
    await expect(reencryptChannelKeys(t.db, onlyK2.encryption, 10, options)).rejects.toThrow(
      /encrypted with key "test1", which is not configured/,
    );
    expect(await reencryptChannelKeys(t.db, rotated.encryption, 1, options)).toEqual({ reencrypted: 1 });
    const after = await row();
    expect(after.api_key_encrypted.split('.')[1]).toBe('k2');
    expect(decryptSecret(after.api_key_encrypted, onlyK2.encryption)).toBe(setup.apiKey);
    expect(after.updated_at).toEqual(before.updated_at);
    expect(await reencryptChannelKeys(t.db, rotated.encryption, 10, options)).toEqual({ reencrypted: 0 });
  });
});

const price = (setup: Setup, offset: number, amount: number) =>
  t.http
    .post(`/api/hotels/${setup.hotel.slug}/rate-overrides`)
    .set(as(setup.hotel.accessToken))
    .send({ category_id: setup.categoryId, date: localDay(offset), price: amount })
    .expect(200);

describe('the sync', () => {
  it('brings a booking, a restriction and a price to the channel, coalescing a burst into few calls', async () => {
    const setup = await setUp();
    await connect(setup).expect(201);
    await fullySynced(setup);

    await book(setup, 40, 42);
    await channelHolds(setup, (state) => availabilityOf(setup, state)[localDay(40)] === 1, 'the booking');

    await t.http
      .put(`/api/hotels/${setup.hotel.slug}/restrictions`)
      .set(as(setup.hotel.accessToken))
      .send({
        items: [{ category_id: setup.categoryId, from: localDay(50), to: localDay(51), closed_to_arrival: true }],
      })
      .expect(200);
    await t.http
      .post(`/api/hotels/${setup.hotel.slug}/rate-overrides`)
      .set(as(setup.hotel.accessToken))
      .send({ category_id: setup.categoryId, date: localDay(60), price: 7100 })
      .expect(200);
    await channelHolds(
      setup,
      (state) =>
        restrictionsOf(setup, state)[localDay(51)]?.closed_to_arrival === true &&
        restrictionsOf(setup, state)[localDay(60)]?.rate === '7100.00',
      'the restriction and the price',
    );

    // A burst: 20 changes within a moment (every night from 100 on closed to departure, one write each).
    const before = (await control().calls(setup.property.id)).length;
    for (let offset = 100; offset < 120; offset += 1) {
      await t.http
        .put(`/api/hotels/${setup.hotel.slug}/restrictions`)
        .set(as(setup.hotel.accessToken))
        .send({
          items: [
            { category_id: setup.categoryId, from: localDay(offset), to: localDay(offset), closed_to_departure: true },
          ],
        })
        .expect(200);
    }
    await channelHolds(
      setup,
      (state) => restrictionsOf(setup, state)[localDay(119)]?.closed_to_departure === true,
      'the burst',
    );
    const burst = (await control().calls(setup.property.id))
      .slice(before)
      .filter((call) => call.kind === 'restrictions');
    // Coalesced: far fewer calls than changes, never two of a kind within the channel's 6 s (its own clock).
    expect(burst.length).toBeLessThan(10);
    expect(burst.every((call) => call.status === 200)).toBe(true);
    const times = (await control().calls(setup.property.id))
      .filter((call) => call.kind === 'restrictions')
      .map((call) => Date.parse(call.at));
    expect(times.slice(1).filter((at, index) => at - times[index] < 5_900)).toEqual([]);
    const final = await control().ari(setup.property.id);
    expect(days.slice(100, 120).every((day) => restrictionsOf(setup, final)[day].closed_to_departure)).toBe(true);
    expect(restrictionsOf(setup, final)[localDay(120)].closed_to_departure).toBe(false);
  });

  it('pushes during a stream of changes that never pauses, not only once it stops', async () => {
    const setup = await setUp();
    await connect(setup).expect(201);
    await fullySynced(setup);
    // Writes back to back (never a quiet second), until the channel holds the first one; a sync that waited for
    // the stream to stop would see none of it while the stream goes on.
    const write = (offset: number) =>
      t.http
        .put(`/api/hotels/${setup.hotel.slug}/restrictions`)
        .set(as(setup.hotel.accessToken))
        .send({ items: [{ category_id: setup.categoryId, from: localDay(offset), to: localDay(offset), max_stay: 9 }] })
        .expect(200);
    let writes = 0;
    const reached = async () =>
      restrictionsOf(setup, await control().ari(setup.property.id))[localDay(200)]?.max_stay === 9;
    for (; writes < 3000 && !(writes > 0 && (await reached())); writes += 1) await write(200 + (writes % 100));
    expect(writes).toBeLessThan(3000);
  });

  it('tries again after a 429 and a 503, in order, until the hotel disconnects', async () => {
    const setup = await setUp();
    await connect(setup).expect(201);
    await fullySynced(setup);
    const availabilityStatuses = async () =>
      (await control().calls(setup.property.id))
        .filter((call) => call.kind === 'availability')
        .map((call) => call.status);
    let night = 70;
    for (const status of [429, 503]) {
      await control().injectFault(setup.property.id, status, 1, 'availability');
      await book(setup, night, night + 1);
      const booked = localDay(night);
      await channelHolds(setup, (state) => availabilityOf(setup, state)[booked] === 1, `the booking after a ${status}`);
      expect((await availabilityStatuses()).slice(-2)).toEqual([status, 200]);
      night += 2;
    }
    const read = await t.http.get(path(setup.hotel)).set(as(setup.hotel.accessToken)).expect(200);
    expect(read.body.last_error).toBeNull();

    await t.http.delete(path(setup.hotel)).set(as(setup.hotel.accessToken)).expect(204);
    await t.http.get(path(setup.hotel)).set(as(setup.hotel.accessToken)).expect(404);
    await t.http
      .post(`${path(setup.hotel)}/sync`)
      .set(as(setup.hotel.accessToken))
      .expect(404);
  });

  it('keeps values the channel refused under a 200 owed and shown until a push of them succeeds; a sync on request resends all', async () => {
    const setup = await setUp();
    await connect(setup).expect(201);
    await fullySynced(setup);
    const { roomTypeId, ratePlanId } = ids(setup);
    const shape = (ratePlans: { id: string; title: string }[]) =>
      control().openProperty(setup.property.id, {
        api_key: setup.apiKey,
        room_types: [{ id: roomTypeId, title: 'Double', count_of_rooms: 2, rate_plans: ratePlans }],
      });
    const lastError = async () =>
      (await t.http.get(path(setup.hotel)).set(as(setup.hotel.accessToken)).expect(200)).body.last_error as
        string | null;

    // The channel no longer knows the rate plan: the price is refused under a 200.
    await shape([]);
    await price(setup, 60, 7100);
    await until(async () => (await lastError())?.includes('rate_plan_id') ?? false, {
      what: 'the refusal on the connection',
      timeoutMs: 60_000,
    });
    // A later push (a booking) is clean for availability, but sends the refused price again: still refused, shown.
    await book(setup, 40, 42);
    await channelHolds(setup, (state) => availabilityOf(setup, state)[localDay(40)] === 1, 'the booking');
    expect(await lastError()).toContain('rate_plan_id');

    // The rate plan back: the next push brings the price it missed, and the connection is clean again.
    await shape([{ id: ratePlanId, title: 'BAR' }]);
    await book(setup, 44, 45);
    await channelHolds(setup, (state) => restrictionsOf(setup, state)[localDay(60)]?.rate === '7100.00', 'the price');
    expect(await lastError()).toBeNull();

    // A channel that lost its state is given everything again on request: both kinds, every day, though none moved.
    const before = (await control().calls(setup.property.id)).length;
    await t.http
      .post(`${path(setup.hotel)}/sync`)
      .set(as(setup.hotel.accessToken))
      .expect(202);
    const resent = await until(
      async () => {
        const calls = (await control().calls(setup.property.id)).slice(before).filter((call) => call.status === 200);
        return ['availability', 'restrictions'].every((kind) => calls.some((call) => call.kind === kind)) && calls;
      },
      { what: 'the full sync on request', timeoutMs: 60_000 },
    );
    expect(resent.filter((call) => call.kind === 'restrictions')[0].values).toBeGreaterThan(1);
  });

  it('records a refused request (422) and a revoked key (401) on the connection, tells staff, and goes on', async () => {
    const setup = await setUp();
    await connect(setup).expect(201);
    await fullySynced(setup);
    const read = () => t.http.get(path(setup.hotel)).set(as(setup.hotel.accessToken)).expect(200);

    await control().injectFault(setup.property.id, 422, 1, 'restrictions');
    await price(setup, 61, 6100);
    await until(async () => (await read()).body.last_error?.includes('422') ?? false, {
      what: 'the 422 on the connection',
      timeoutMs: 60_000,
    });
    // The staff's notice follows the error's record (its own step after the push's outcome).
    await until(
      async () => {
        const inbox = await t.http
          .get(`/api/hotels/${setup.hotel.slug}/notifications`)
          .set(as(setup.hotel.accessToken))
          .expect(200);
        return inbox.body.items.some((item: { type: string }) => item.type === 'channel_sync_failed');
      },
      { what: 'the staff told', timeoutMs: 30_000 },
    );
    // Not retried: one 422 and no call after it until the next change, which brings the refused price too.
    const statuses = async () =>
      (await control().calls(setup.property.id)).filter((call) => call.kind === 'restrictions').map((c) => c.status);
    expect((await statuses()).slice(-1)).toEqual([422]);
    await book(setup, 46, 47);
    await channelHolds(
      setup,
      (state) =>
        availabilityOf(setup, state)[localDay(46)] === 1 &&
        restrictionsOf(setup, state)[localDay(61)]?.rate === '6100.00',
      'the next change and the refused price',
    );
    // The channel holds the values a moment before the push's outcome is recorded on the connection.
    await until(async () => (await read()).body.last_error === null, { what: 'the error cleared', timeoutMs: 30_000 });
    expect((await statuses()).filter((status) => status === 422)).toHaveLength(1);

    await control().revokeKey(setup.apiKey);
    await book(setup, 48, 49);
    await until(async () => (await read()).body.last_error !== null, { what: 'the 401 recorded', timeoutMs: 60_000 });
  });

  it('brings a booking window, a block and its release, a closed room, a tariff change and its deletion', async () => {
    const setup = await setUp();
    await connect(setup).expect(201);
    await fullySynced(setup);
    const slug = setup.hotel.slug;
    const owner = as(setup.hotel.accessToken);

    // Bookable from 5 days ahead: the nights before are closed to arrival at the channel (no field of its own).
    await t.http
      .put(`/api/hotels/${slug}/restrictions`)
      .set(owner)
      .send({ items: [{ category_id: setup.categoryId, from: localDay(0), to: localDay(20), min_advance_days: 5 }] })
      .expect(200);
    await channelHolds(
      setup,
      (state) =>
        days.slice(0, 5).every((day) => restrictionsOf(setup, state)[day].closed_to_arrival) &&
        days.slice(5, 21).every((day) => !restrictionsOf(setup, state)[day].closed_to_arrival),
      'the booking window',
    );

    const block = await t.http
      .post(`/api/hotels/${slug}/blocks`)
      .set(owner)
      .send({
        name: 'Конференция',
        status: 'definite',
        price_per_night: '3500',
        allotment: [{ category_id: setup.categoryId, from: localDay(80), to: localDay(81), rooms: 1 }],
      })
      .expect(201);
    await channelHolds(setup, (state) => availabilityOf(setup, state)[localDay(81)] === 1, 'the block');
    await t.http
      .patch(`/api/hotels/${slug}/blocks/${block.body.id}`)
      .set(owner)
      .send({ status: 'cancelled' })
      .expect(200);
    await channelHolds(setup, (state) => availabilityOf(setup, state)[localDay(81)] === 2, 'the block released');

    await t.http
      .patch(`/api/hotels/${slug}/rooms/${setup.roomIds[1]}/status`)
      .set(owner)
      .send({ status: 'closed' })
      .expect(200);
    await channelHolds(
      setup,
      (state) => days.every((day) => availabilityOf(setup, state)[day] <= 1),
      'the closed room',
    );

    await t.http.patch(`/api/hotels/${slug}/tariffs/${setup.tariffId}`).set(owner).send({ min_nights: 3 }).expect(200);
    await channelHolds(
      setup,
      (state) => days.every((day) => restrictionsOf(setup, state)[day].min_stay_arrival === 3),
      'the tariff change',
    );
    await t.http.delete(`/api/hotels/${slug}/tariffs/${setup.tariffId}`).set(owner).expect(200);
    await channelHolds(
      setup,
      (state) => days.every((day) => restrictionsOf(setup, state)[day].stop_sell),
      'the tariff deleted: nothing sold under it',
    );
  });
});

describe('reconciliation', () => {
  const read = (setup: Setup) => t.http.get(path(setup.hotel)).set(as(setup.hotel.accessToken)).expect(200);
  const reconcile = (setup: Setup) =>
    t.http
      .post(`${path(setup.hotel)}/reconcile`)
      .set(as(setup.hotel.accessToken))
      .expect(202);
  const mismatches = async (setup: Setup) =>
    (
      await t.http.get(`/api/hotels/${setup.hotel.slug}/notifications`).set(as(setup.hotel.accessToken)).expect(200)
    ).body.items.filter((item: { type: string }) => item.type === 'channel_reconciliation_mismatch');
  const writes = async (setup: Setup) =>
    (await control().calls(setup.property.id)).filter(
      (call) => call.kind === 'availability' || call.kind === 'restrictions',
    );
  /** The full sync's calls logged (the fake logs a call once its answer is sent, the push records itself after). */
  const fullSyncLogged = async (setup: Setup) => {
    await until(async () => (await read(setup)).body.last_synced_at !== null, { what: 'the full sync recorded' });
    return (await writes(setup)).length;
  };
  const reconciled = (setup: Setup, what: string) =>
    until(async () => (await read(setup)).body.last_reconciliation ?? false, { what, timeoutMs: 60_000 });

  it('finds what was changed at the channel behind our back, sends ours again, records it and tells staff', async () => {
    const setup = await setUp();
    await connect(setup).expect(201);
    await fullySynced(setup);
    const { roomTypeId, ratePlanId } = ids(setup);
    await control().editAtChannel(setup.property.id, 'availability', [
      { room_type_id: roomTypeId, date: localDay(10), availability: 0 },
    ]);
    await control().editAtChannel(setup.property.id, 'restrictions', [
      { rate_plan_id: ratePlanId, date: localDay(11), rate: '1.00' },
      { rate_plan_id: ratePlanId, date: localDay(12), closed_to_arrival: true },
    ]);
    expect((await read(setup)).body.last_reconciliation).toBeNull();
    const writesAfter = await fullSyncLogged(setup);

    await reconcile(setup);
    await channelHolds(
      setup,
      (state) =>
        availabilityOf(setup, state)[localDay(10)] === 2 &&
        restrictionsOf(setup, state)[localDay(11)].rate === '4000.00' &&
        !restrictionsOf(setup, state)[localDay(12)].closed_to_arrival,
      'ours again at the channel',
    );
    const record = await reconciled(setup, 'the reconciliation recorded');
    expect(record).toMatchObject({ differences: 3 });
    expect(record.samples).toEqual([
      {
        kind: 'availability',
        item_id: roomTypeId,
        date: localDay(10),
        sent: { availability: 2 },
        held: { availability: 0 },
      },
      {
        kind: 'restrictions',
        item_id: ratePlanId,
        date: localDay(11),
        sent: { rate: '4000.00' },
        held: { rate: '1.00' },
      },
      {
        kind: 'restrictions',
        item_id: ratePlanId,
        date: localDay(12),
        sent: { closed_to_arrival: false },
        held: { closed_to_arrival: true },
      },
    ]);
    expect(JSON.stringify(record)).not.toContain('request');
    const [notice] = await mismatches(setup);
    expect(notice).toMatchObject({ data: { differences: 3 } });
    expect(notice.body).toContain(localDay(10));
    // Only the differing days went again: one value of each kind (days 11 and 12 are one range of ours). The fake logs
    // a call once its answer is sent: waited for.
    const again = await until(
      async () => {
        const calls = (await writes(setup)).slice(writesAfter);
        return calls.length >= 2 && calls;
      },
      { what: 'the writes logged' },
    );
    expect(again.map((call) => [call.kind, call.values])).toEqual([
      ['availability', 1],
      ['restrictions', 1],
    ]);
  });

  it('records a check that found nothing, sends nothing and tells no one', async () => {
    const setup = await setUp();
    await connect(setup).expect(201);
    await fullySynced(setup);
    await fullSyncLogged(setup);
    const before = (await control().calls(setup.property.id)).length;
    await reconcile(setup);
    expect(await reconciled(setup, 'the reconciliation recorded')).toEqual({
      at: expect.any(String),
      differences: 0,
      samples: [],
    });
    const calls = (await control().calls(setup.property.id)).slice(before);
    expect(calls.map((call) => call.kind).sort()).toEqual(['availability_read', 'restrictions_read']);
    expect(await mismatches(setup)).toEqual([]);
  });

  it('goes on with the push when a read is refused or keeps failing: the changes merged with it reach the channel', async () => {
    const setup = await setUp();
    await connect(setup).expect(201);
    await fullySynced(setup);
    const { roomTypeId } = ids(setup);
    await control().editAtChannel(setup.property.id, 'availability', [
      { room_type_id: roomTypeId, date: localDay(20), availability: 0 },
    ]);
    const reads = async () =>
      (await control().calls(setup.property.id))
        .filter((call) => call.kind === 'restrictions_read')
        .map((call) => call.status);
    let seen: unknown;
    const failedWith = (what: string, text: string) =>
      until(
        async () => {
          seen = (await read(setup)).body;
          return (
            (seen as { last_reconciliation?: { failed?: string } }).last_reconciliation?.failed?.includes(text) ?? false
          );
        },
        { what: () => `${what}: the connection ${JSON.stringify(seen)}`, timeoutMs: 20_000 },
      );

    // Refused (a 400): the check recorded as failed, nothing compared; the booking made with it reaches the channel.
    await control().injectFault(setup.property.id, 400, 1, 'restrictions');
    await book(setup, 30, 32);
    await reconcile(setup);
    await failedWith('the refused check recorded', '400');
    await channelHolds(setup, (state) => availabilityOf(setup, state)[localDay(30)] === 1, 'the booking');
    expect((await read(setup)).body.last_reconciliation).toEqual({
      at: expect.any(String),
      differences: 0,
      samples: [],
      failed: expect.stringContaining('400'),
    });

    // The channel keeps failing the read (503 after 503): not retried, the booking goes all the same.
    await control().injectFault(setup.property.id, 503, 100, 'restrictions');
    await book(setup, 40, 42);
    await reconcile(setup);
    await failedWith('the failed check recorded', 'не отвечает');
    await channelHolds(setup, (state) => availabilityOf(setup, state)[localDay(40)] === 1, 'the second booking');
    await control().injectFault(setup.property.id, 503, 0, 'restrictions');
    expect(await reads()).toEqual([400, 503]);
    // Nothing compared: the day changed at the channel stays as it is, no one told, the pushes recorded as done.
    expect(availabilityOf(setup, await control().ari(setup.property.id))[localDay(20)]).toBe(0);
    expect(await mismatches(setup)).toEqual([]);
    await until(
      async () => {
        const { last_synced_at: synced, last_reconciliation: check } = (await read(setup)).body;
        return synced !== null && new Date(synced) >= new Date(check.at);
      },
      { what: 'the push after the check recorded' },
    );
    expect((await read(setup)).body.last_error).toBeNull();
  });
});
