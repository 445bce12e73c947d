import { fakeChannexControl, startFakeChannex, type FakeChannex, type FakeChannexControl } from '../fakes/channex';
import type { BookingRevision, RevisionSpec } from '../fakes/channex';
import { addStaff, as, registerHotel, type RegisteredHotel } from '../helpers/accounts';
import { createTestApp, type TestApp } from '../helpers/app';
import { databaseHits } from '../helpers/personal-data';
import { startFaultStack, type FaultStack } from '../helpers/processes';
import { createCategory, createRoom } from '../helpers/structure';
import { until } from '../helpers/wait';

/**
 * Booking intake end to end on a private stack (its API listening for the fake Channex's webhooks, its worker
 * running the intake): OTA revisions made at a fake Channex through its controls, delivered once, twice, held back
 * or not at all, land as our bookings, once and in the channel's order, and are acknowledged after their commit.
 */
jest.setTimeout(300_000);

const PROPERTY = 'c1a7e0de-0000-4000-8000-00000000a001';
const API_KEY = 'intake-test-key-0001';
const WAIT = { timeoutMs: 90_000, intervalMs: 250 };

let channex: FakeChannex;
let control: FakeChannexControl;
let stack: FaultStack;
let t: TestApp;
let hotel: RegisteredHotel;
/** The channel's room types: `double` (2 rooms), `single` (1 room), `suite` (not mapped). */
const roomType: Record<'double' | 'single' | 'suite', { id: string; ratePlan: string }> = {} as never;
let categories: { double: string; single: string };

beforeAll(async () => {
  channex = await startFakeChannex();
  control = fakeChannexControl(channex.url);
  stack = await startFaultStack('channel_intake');
  Object.assign(stack.env, { CHANNEX_API_URL: channex.apiUrl });
  await Promise.all([stack.startWorker(), stack.startApi()]);
  t = createTestApp(stack.env);
  hotel = await registerHotel(t);
  const opened = await control.openProperty(PROPERTY, {
    api_key: API_KEY,
    room_types: ['Double', 'Single', 'Suite'].map((title) => ({ title, rate_plans: [{ title: `${title} BAR` }] })),
  });
  opened.room_types.forEach((type, index) => {
    roomType[(['double', 'single', 'suite'] as const)[index]] = { id: type.id, ratePlan: type.rate_plans[0].id };
  });
  categories = {
    double: (await createCategory(t, hotel, { capacity: 3 })).id,
    single: (await createCategory(t, hotel)).id,
  };
  for (const category of [categories.double, categories.double])
    await createRoom(t, hotel, category, { max_guests: 3 });
  await createRoom(t, hotel, categories.single);
  await t.http
    .post(api('/channel-connection'))
    .set(as(hotel.accessToken))
    .send({
      provider: 'channex',
      api_key: API_KEY,
      property_id: PROPERTY,
      room_types: [
        { room_type_id: roomType.double.id, category_id: categories.double },
        { room_type_id: roomType.single.id, category_id: categories.single },
      ],
      rate_plans: [],
    })
    .expect((response) => expect(response.body).toMatchObject({ property_id: PROPERTY }));
  // The webhook is registered to call this stack's API where it listens (its public address).
  const publicApp = createTestApp({ ...stack.env, BASE_URL: stack.apiUrl });
  await publicApp.http.put(api('/channel-intake/webhook')).set(as(hotel.accessToken)).expect(200);
  await publicApp.close();
});
afterAll(async () => {
  await t?.close();
  await stack?.stop();
  await channex?.close();
});

function api(rest: string, slug = hotel.slug) {
  return `/api/hotels/${slug}${rest}`;
}

let codes = 0;
/** A new OTA booking of `type` over `nights` nights from `from` days ahead, its code unique to the test. */
function booking(type: keyof typeof roomType, from: number, nights: number, extra: Partial<RevisionSpec> = {}) {
  const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
  return {
    ota_reservation_code: `T${Date.now()}${++codes}`,
    arrival_date: day(from),
    departure_date: day(from + nights),
    rooms: [{ room_type_id: roomType[type].id, rate_plan_id: roomType[type].ratePlan, rate: '4500.00' }],
    customer: { name: 'Anna', surname: `Guest${codes}` },
    ...extra,
  } satisfies RevisionSpec;
}

const revision = (spec: RevisionSpec) => control.makeRevision(PROPERTY, spec);

/** The stay of an OTA booking as the desk books it. */
const stayOf = (spec: { arrival_date: string; departure_date: string }) => ({
  check_in: spec.arrival_date,
  check_out: spec.departure_date,
});

async function acknowledged(...revisions: BookingRevision[]) {
  const ids = new Set(revisions.map((item) => item.id));
  await until(
    async () =>
      (await control.revisions(PROPERTY))
        .filter((item) => ids.has(item.id))
        .every((item) => item.acknowledge_status === 'acknowledged'),
    { what: `revisions ${[...ids].join(', ')} acknowledged`, ...WAIT },
  );
}

interface Listed {
  id: string;
  category_id: string;
  status: string;
  source: string;
  check_in: string;
  check_out: string;
  price: string;
  guests_count: number;
  guest_last_name: string;
  notes: string;
  created_at: string;
}

/** Our bookings of the OTA reservation `code` (the desk finds it in the notes). */
async function bookingsOf(code: string): Promise<Listed[]> {
  const response = await t.http.get(api('/bookings')).query({ limit: 100 }).set(as(hotel.accessToken)).expect(200);
  return (response.body as Listed[]).filter((item) => item.notes.includes(code));
}

async function revisionsOfBooking(id: string) {
  const response = await t.http
    .get(api(`/bookings/${id}/channel-revisions`))
    .set(as(hotel.accessToken))
    .expect(200);
  return response.body.items as { revision_id: string; outcome: string; payment_collect: string }[];
}

async function unplacedOf(revisionId: string) {
  const { body } = await t.http.get(api('/channel-intake/unplaced')).set(as(hotel.accessToken)).expect(200);
  return (body.items as { id: string; revision_id: string; unplaced_reason: string }[]).find(
    (entry) => entry.revision_id === revisionId,
  );
}

/** A modification of the channel booking to the room type not mapped: left unplaced, its record for the staff. */
async function leftAsSuite(channelBookingId: string) {
  const suite = await revision({
    status: 'modified',
    booking_id: channelBookingId,
    rooms: [{ room_type_id: roomType.suite.id, rate_plan_id: roomType.suite.ratePlan, rate: '4500.00' }],
  });
  await acknowledged(suite);
  const item = await unplacedOf(suite.id);
  expect(item).toMatchObject({ unplaced_reason: 'unmapped_room_type' });
  return { item, suite };
}

async function aRoomOf(categoryId: string) {
  const { body } = await t.http.get(api('/rooms')).set(as(hotel.accessToken)).expect(200);
  return (body as { id: string; category_id: string }[]).find((room) => room.category_id === categoryId)!;
}

/** The staff were told (urgently) of the revision left for them. */
async function staffTold(revisionId: string) {
  const inbox = await t.http.get(api('/notifications')).set(as(hotel.accessToken)).expect(200);
  expect(inbox.body.items).toEqual(
    expect.arrayContaining([
      expect.objectContaining({
        type: 'channel_booking_unplaced',
        data: expect.objectContaining({ revision_id: revisionId }),
      }),
    ]),
  );
}

describe('OTA revisions', () => {
  it('a new booking, its modification and its cancellation reach our booking, each acknowledged', async () => {
    const spec = booking('double', 10, 2, { payment_collect: 'ota' });
    const made = await revision(spec);
    await acknowledged(made);
    const [created] = await bookingsOf(spec.ota_reservation_code);
    expect(created).toMatchObject({
      status: 'confirmed',
      source: 'ota',
      check_in: spec.arrival_date,
      check_out: spec.departure_date,
      price: '9000.00',
      guests_count: 2,
      guest_last_name: spec.customer.surname,
    });
    expect(created.notes).toContain(`Booking.com · ${spec.ota_reservation_code}`);
    expect(created.notes).toContain('Оплату получает: OTA');
    expect(await revisionsOfBooking(created.id)).toMatchObject([
      { revision_id: made.id, outcome: 'applied', payment_collect: 'ota' },
    ]);

    const modified = await revision({
      status: 'modified',
      booking_id: made.booking_id,
      departure_date: booking('double', 13, 0).arrival_date,
      rooms: [{ ...spec.rooms[0], adults: 3, rate: '4000.00' }],
    });
    await acknowledged(modified);
    expect((await bookingsOf(spec.ota_reservation_code))[0]).toMatchObject({
      id: created.id,
      check_out: modified.departure_date,
      price: '12000.00',
      guests_count: 3,
    });

    const cancelled = await revision({ status: 'cancelled', booking_id: made.booking_id });
    await acknowledged(cancelled);
    expect((await bookingsOf(spec.ota_reservation_code))[0]).toMatchObject({ id: created.id, status: 'cancelled' });
    expect((await revisionsOfBooking(created.id)).map((item) => item.outcome)).toEqual([
      'applied',
      'applied',
      'applied',
    ]);
  });

  it('delivered many times is applied once', async () => {
    const spec = booking('double', 20, 1);
    const made = await revision({ ...spec, webhook: 'twice' });
    await control.notifyAgain(PROPERTY, made.id, 3);
    await acknowledged(made);
    await until(
      async () => (await control.deliveries(PROPERTY)).filter((item) => item.revision_id === made.id).length >= 5,
      {
        what: 'five deliveries',
        ...WAIT,
      },
    );
    // Every delivery answered before looking: none may have made a second booking since.
    await until(async () => (await control.deliveries(PROPERTY)).every((item) => item.status === 200), {
      what: 'every delivery answered 200',
      ...WAIT,
    });
    const found = await bookingsOf(spec.ota_reservation_code);
    expect(found).toHaveLength(1);
    expect(await revisionsOfBooking(found[0].id)).toHaveLength(1);
  });

  it('out of order (a modification before its new booking) ends as the channel’s latest', async () => {
    const spec = booking('double', 30, 2);
    const made = await revision({ ...spec, webhook: 'hold' });
    const modified = await revision({
      status: 'modified',
      booking_id: made.booking_id,
      arrival_date: booking('double', 31, 0).arrival_date,
      webhook: 'hold',
    });
    await control.releaseHeld(PROPERTY, [modified.id, made.id]);
    await acknowledged(made, modified);
    const found = await bookingsOf(spec.ota_reservation_code);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({
      check_in: modified.arrival_date,
      check_out: spec.departure_date,
      price: '4500.00',
    });
    // Both in the feed when the first call woke the intake: applied in the channel's order, whatever the calls' order.
    expect(await revisionsOfBooking(found[0].id)).toMatchObject([
      { revision_id: made.id, outcome: 'applied' },
      { revision_id: modified.id, outcome: 'applied' },
    ]);
  });

  it('out of order (a cancellation before a modification) ends cancelled', async () => {
    const spec = booking('double', 40, 2);
    const made = await revision(spec);
    await acknowledged(made);
    const modified = await revision({
      status: 'modified',
      booking_id: made.booking_id,
      departure_date: booking('double', 45, 0).arrival_date,
      webhook: 'hold',
    });
    const cancelled = await revision({ status: 'cancelled', booking_id: made.booking_id, webhook: 'hold' });
    await control.releaseHeld(PROPERTY, [cancelled.id, modified.id]);
    await acknowledged(modified, cancelled);
    const [found] = await bookingsOf(spec.ota_reservation_code);
    expect(found.status).toBe('cancelled');
    expect(await revisionsOfBooking(found.id)).toMatchObject([
      { revision_id: made.id, outcome: 'applied' },
      { revision_id: modified.id, outcome: 'applied' },
      { revision_id: cancelled.id, outcome: 'applied' },
    ]);
  });

  it('is acknowledged only after its booking is committed, even when the channel fails along the way', async () => {
    await control.injectFault(PROPERTY, 503, 2);
    const spec = booking('double', 50, 1);
    const made = await revision(spec);
    await acknowledged(made);
    const [found] = await bookingsOf(spec.ota_reservation_code);
    const acks = (await control.calls(PROPERTY)).filter(
      (call) => call.kind === 'booking_revision_ack' && call.status === 200,
    );
    expect(acks.length).toBeGreaterThan(0);
    expect(Date.parse(acks.at(-1)!.at)).toBeGreaterThanOrEqual(Date.parse(found.created_at));
    expect(await bookingsOf(spec.ota_reservation_code)).toHaveLength(1);
  });
});

describe('an OTA booking that cannot be placed', () => {
  it('is stored as unplaced, the staff told, acknowledged; staff place it once a room is free', async () => {
    const first = booking('single', 60, 2);
    const second = booking('single', 61, 2);
    const placed = await revision(first);
    await acknowledged(placed);
    const clashing = await revision(second);
    await acknowledged(clashing);
    expect(await bookingsOf(second.ota_reservation_code)).toHaveLength(0);

    const unplaced = await t.http.get(api('/channel-intake/unplaced')).set(as(hotel.accessToken)).expect(200);
    const item = (unplaced.body.items as { id: string; revision_id: string; unplaced_reason: string }[]).find(
      (entry) => entry.revision_id === clashing.id,
    );
    expect(item).toMatchObject({ unplaced_reason: 'no_free_room' });
    const inbox = await t.http.get(api('/notifications')).set(as(hotel.accessToken)).expect(200);
    expect(inbox.body.items).toEqual(
      expect.arrayContaining([expect.objectContaining({ type: 'channel_booking_unplaced' })]),
    );

    const [taken] = await bookingsOf(first.ota_reservation_code);
    await t.http
      .patch(api(`/bookings/${taken.id}`))
      .set(as(hotel.accessToken))
      .send({ status: 'cancelled', cancel_reason: 'room needed' })
      .expect(200);
    const done = await t.http
      .post(api(`/channel-intake/unplaced/${item!.id}/place`))
      .set(as(hotel.accessToken))
      .send({})
      .expect(200);
    expect(done.body).toMatchObject({ outcome: 'placed', booking: { source: 'ota', check_in: second.arrival_date } });
    await t.http
      .post(api(`/channel-intake/unplaced/${item!.id}/dismiss`))
      .set(as(hotel.accessToken))
      .expect(409);
  });

  it('of a room type not mapped is kept too, and staff may dismiss it', async () => {
    const made = await revision(booking('suite', 70, 1));
    await acknowledged(made);
    const unplaced = await t.http.get(api('/channel-intake/unplaced')).set(as(hotel.accessToken)).expect(200);
    const item = (unplaced.body.items as { id: string; revision_id: string; unplaced_reason: string }[]).find(
      (entry) => entry.revision_id === made.id,
    );
    expect(item).toMatchObject({ unplaced_reason: 'unmapped_room_type' });
    const dismissed = await t.http
      .post(api(`/channel-intake/unplaced/${item!.id}/dismiss`))
      .set(as(hotel.accessToken))
      .expect(200);
    expect(dismissed.body).toMatchObject({ outcome: 'dismissed', guest: { surname: expect.any(String) } });
    const left = await t.http.get(api('/channel-intake/unplaced')).set(as(hotel.accessToken)).expect(200);
    expect(left.body.items.map((entry: { id: string }) => entry.id)).not.toContain(item!.id);
  });
});

describe('an OTA reservation of several rooms', () => {
  /** Two rooms of `double` (the first for 1 adult, the second for 3) from `from` days ahead over `nights` nights. */
  function twoRooms(from: number, nights: number, extra: Partial<RevisionSpec> = {}) {
    const spec = booking('double', from, nights, extra);
    const [room] = spec.rooms;
    return {
      ...spec,
      rooms: [
        { ...room, adults: 1 },
        { ...room, adults: 3, rate: '5000.00' },
      ],
    };
  }

  /** Our bookings of the reservation, in its rooms' order (the room's place is in the notes). */
  const roomsOf = async (code: string) => (await bookingsOf(code)).sort((a, b) => a.notes.localeCompare(b.notes));

  it('makes one booking per room, each with the OTA code and its room’s guests and price, once however delivered', async () => {
    const spec = twoRooms(200, 2);
    const made = await revision({ ...spec, webhook: 'twice' });
    await control.notifyAgain(PROPERTY, made.id, 2);
    await acknowledged(made);
    await until(async () => (await control.deliveries(PROPERTY)).every((item) => item.status === 200), {
      what: 'every delivery answered 200',
      ...WAIT,
    });
    const found = await roomsOf(spec.ota_reservation_code);
    expect(found).toMatchObject([
      { status: 'confirmed', source: 'ota', check_in: spec.arrival_date, guests_count: 1, price: '9000.00' },
      { status: 'confirmed', source: 'ota', check_in: spec.arrival_date, guests_count: 3, price: '10000.00' },
    ]);
    expect(found[0].notes).toContain(`Booking.com · ${spec.ota_reservation_code} · номер 1 из 2`);
    expect(found[1].notes).toContain(`Booking.com · ${spec.ota_reservation_code} · номер 2 из 2`);
    for (const stay of found)
      expect(await revisionsOfBooking(stay.id)).toMatchObject([{ revision_id: made.id, outcome: 'applied' }]);
  });

  it('a room gone is cancelled, the other changed and kept; a cancellation cancels them all', async () => {
    const spec = twoRooms(210, 2);
    const made = await revision(spec);
    await acknowledged(made);
    const [first, second] = await roomsOf(spec.ota_reservation_code);
    const modified = await revision({
      status: 'modified',
      booking_id: made.booking_id,
      departure_date: booking('double', 213, 0).arrival_date,
      rooms: [spec.rooms[0]],
    });
    await acknowledged(modified);
    const after = await bookingsOf(spec.ota_reservation_code);
    expect(after.find((item) => item.id === first.id)).toMatchObject({
      status: 'confirmed',
      check_out: modified.departure_date,
    });
    expect(after.find((item) => item.id === second.id)).toMatchObject({ status: 'cancelled' });
    expect(after).toHaveLength(2);

    const cancelled = await revision({ status: 'cancelled', booking_id: made.booking_id });
    await acknowledged(cancelled);
    expect((await bookingsOf(spec.ota_reservation_code)).map((item) => item.status)).toEqual([
      'cancelled',
      'cancelled',
    ]);
  });

  it('a room added gets its booking; a room whose room type changed moves to that category', async () => {
    const spec = booking('double', 230, 1);
    const made = await revision(spec);
    await acknowledged(made);
    const [first] = await bookingsOf(spec.ota_reservation_code);
    const single = { room_type_id: roomType.single.id, rate_plan_id: roomType.single.ratePlan, rate: '3000.00' };
    const modified = await revision({
      status: 'modified',
      booking_id: made.booking_id,
      rooms: [single, spec.rooms[0]],
    });
    await acknowledged(modified);
    const after = await bookingsOf(spec.ota_reservation_code);
    expect(after).toHaveLength(2);
    expect(after.find((item) => item.id === first.id)).toMatchObject({
      status: 'confirmed',
      category_id: categories.single,
      price: '3000.00',
    });
    expect(after.find((item) => item.id !== first.id)).toMatchObject({
      status: 'confirmed',
      category_id: categories.double,
      price: '4500.00',
    });
  });

  it('with one room that cannot be placed books none of them: stored as unplaced, the staff told', async () => {
    // Three rooms of a category of two: the third finds no free room, so the first two are not booked either.
    const spec = twoRooms(220, 1);
    const made = await revision({ ...spec, rooms: [...spec.rooms, spec.rooms[0]] });
    await acknowledged(made);
    expect(await bookingsOf(spec.ota_reservation_code)).toHaveLength(0);
    const unplaced = await t.http.get(api('/channel-intake/unplaced')).set(as(hotel.accessToken)).expect(200);
    expect(unplaced.body.items).toEqual(
      expect.arrayContaining([expect.objectContaining({ revision_id: made.id, unplaced_reason: 'no_free_room' })]),
    );
    await staffTold(made.id);
  });

  it('a room whose room type changed takes any free room of that category, past those taken', async () => {
    // A second single room for a reservation of two singles; each double in turn the only one free.
    await createRoom(t, hotel, categories.single);
    const { body: all } = await t.http.get(api('/rooms')).set(as(hotel.accessToken)).expect(200);
    const doubles = (all as { id: string; category_id: string }[])
      .filter((room) => room.category_id === categories.double)
      .map((room) => room.id);
    const single = { room_type_id: roomType.single.id, rate_plan_id: roomType.single.ratePlan, rate: '3000.00' };
    for (const [run, free] of doubles.entries()) {
      const spec = { ...booking('double', 240 + 3 * run, 1), rooms: [single, single] };
      const made = await revision(spec);
      await acknowledged(made);
      for (const room of doubles.filter((id) => id !== free))
        await t.http
          .post(api('/bookings'))
          .set(as(hotel.accessToken))
          .send({ guest_last_name: 'Desk', guest_first_name: 'Held', room_id: room, ...stayOf(spec) })
          .expect(201);
      const [first, second] = await roomsOf(spec.ota_reservation_code);
      const modified = await revision({
        status: 'modified',
        booking_id: made.booking_id,
        rooms: [{ ...booking('double', 0, 1).rooms[0] }, single],
      });
      await acknowledged(modified);
      const after = await bookingsOf(spec.ota_reservation_code);
      expect(after.find((item) => item.id === first.id)).toMatchObject({
        status: 'confirmed',
        category_id: categories.double,
      });
      expect(after.find((item) => item.id === second.id)).toMatchObject({ status: 'confirmed' });
    }
  });

  it('a modification of one room left for the staff is not placed on one of its bookings, the others left live', async () => {
    const spec = twoRooms(250, 1);
    const made = await revision(spec);
    await acknowledged(made);
    const before = await roomsOf(spec.ota_reservation_code);
    const { item, suite } = await leftAsSuite(made.booking_id);
    // A free room (its doubles hold the reservation's two rooms).
    const room = await aRoomOf(categories.single);
    const refused = await t.http
      .post(api(`/channel-intake/unplaced/${item!.id}/place`))
      .set(as(hotel.accessToken))
      .send({ room_id: room.id })
      .expect(409);
    expect(refused.body.code).toBe('several_rooms');
    expect(await roomsOf(spec.ota_reservation_code)).toMatchObject(
      before.map(({ id }) => ({ id, status: 'confirmed', check_in: spec.arrival_date })),
    );
    expect(await unplacedOf(suite.id)).toBeDefined();
  });
});

describe('a revision the channel answers that cannot be read', () => {
  it('is recorded as unreadable beside the others, unacknowledged, the staff told; applied once it can be read', async () => {
    const garbled = await revision(booking('double', 66, 1, { off_spec: true }));
    const readable = await revision(booking('double', 68, 1));
    await acknowledged(readable);
    const recorded = () =>
      t
        .db('channel_revisions')
        .where({ hotel_id: hotel.hotelId })
        .whereIn('revision_id', [garbled.id, readable.id])
        .orderBy('revision_id')
        .select('revision_id', 'outcome', 'unplaced_detail');
    await until(async () => (await recorded()).length === 2, { what: 'both revisions recorded', ...WAIT });
    expect(await recorded()).toEqual(
      expect.arrayContaining([
        { revision_id: readable.id, outcome: 'applied', unplaced_detail: null },
        { revision_id: garbled.id, outcome: 'unreadable', unplaced_detail: expect.stringContaining('status') },
      ]),
    );
    const atChannel = (await control.revisions(PROPERTY)).find((item) => item.id === garbled.id);
    expect(atChannel?.acknowledge_status).toBe('pending');
    await staffTold(garbled.id);

    // The channel answers it as documented again: it is applied and acknowledged, its record taken over.
    await control.repairRevision(PROPERTY, garbled.id);
    await acknowledged(garbled);
    expect(await bookingsOf(garbled.ota_reservation_code)).toHaveLength(1);
    expect(await recorded()).toContainEqual({ revision_id: garbled.id, outcome: 'applied', unplaced_detail: null });
  });
});

describe('what staff hold against the channel', () => {
  const setStatus = (id: string, status: string) =>
    t.http
      .patch(api(`/bookings/${id}`))
      .set(as(hotel.accessToken))
      .send({ status })
      .expect(200);
  const placing = (id: string, body: object = {}) =>
    t.http
      .post(api(`/channel-intake/unplaced/${id}/place`))
      .set(as(hotel.accessToken))
      .send(body);

  it('a modification keeps the staff’s notes; one of a live booking left unplaced is placed on that booking', async () => {
    const spec = booking('double', 100, 2);
    const made = await revision(spec);
    await acknowledged(made);
    const [created] = await bookingsOf(spec.ota_reservation_code);
    const staffNote = `${created.notes}\nVIP: late arrival`;
    await t.http
      .patch(api(`/bookings/${created.id}`))
      .set(as(hotel.accessToken))
      .send({ notes: staffNote })
      .expect(200);
    const modified = await revision({
      status: 'modified',
      booking_id: made.booking_id,
      rooms: [{ ...spec.rooms[0], adults: 3 }],
    });
    await acknowledged(modified);
    expect((await bookingsOf(spec.ota_reservation_code))[0]).toMatchObject({ guests_count: 3, notes: staffNote });

    const { item } = await leftAsSuite(made.booking_id);
    const room = await aRoomOf(categories.double);
    const { body: placed } = await placing(item!.id, { room_id: room.id }).expect(200);
    expect(placed.booking).toMatchObject({ id: created.id, room_id: room.id });
    expect(await bookingsOf(spec.ota_reservation_code)).toHaveLength(1);
  });

  it('priced in another currency than the hotel’s is left unplaced, never booked as roubles', async () => {
    await control.openProperty(PROPERTY, { api_key: API_KEY, currency: 'EUR' });
    const spec = booking('double', 110, 1);
    const made = await revision(spec).finally(() =>
      control.openProperty(PROPERTY, { api_key: API_KEY, currency: 'RUB' }),
    );
    await acknowledged(made);
    expect(await unplacedOf(made.id)).toMatchObject({ unplaced_reason: 'other_currency' });
    expect(await bookingsOf(spec.ota_reservation_code)).toHaveLength(0);
  });

  it('a cancellation left unplaced is not placed; a modification of a stay checked out makes no second booking', async () => {
    const spec = booking('double', 0, 1);
    const made = await revision(spec);
    await acknowledged(made);
    const [created] = await bookingsOf(spec.ota_reservation_code);
    await setStatus(created.id, 'checked_in');
    const cancelled = await revision({ status: 'cancelled', booking_id: made.booking_id });
    await acknowledged(cancelled);
    const item = await unplacedOf(cancelled.id);
    expect(item).toMatchObject({ unplaced_reason: 'refused' });
    const refused = await placing(item!.id).expect(409);
    expect(refused.body.code).toBe('revision_cancellation');
    expect(await bookingsOf(spec.ota_reservation_code)).toMatchObject([{ id: created.id, status: 'checked_in' }]);

    const left = booking('double', 0, 1);
    const stay = await revision(left);
    await acknowledged(stay);
    const [ours] = await bookingsOf(left.ota_reservation_code);
    await setStatus(ours.id, 'checked_in');
    await setStatus(ours.id, 'checked_out');
    const late = await revision({
      status: 'modified',
      booking_id: stay.booking_id,
      rooms: [{ ...left.rooms[0], adults: 1 }],
    });
    await acknowledged(late);
    expect(await unplacedOf(late.id)).toMatchObject({ unplaced_reason: 'checked_out' });
    expect(await bookingsOf(left.ota_reservation_code)).toMatchObject([{ id: ours.id, status: 'checked_out' }]);
  });
});

describe('a hotel that only connected its channel', () => {
  it('takes in its OTA bookings by the minute’s poll, its webhook never registered', async () => {
    const other = await registerHotel(t);
    const property = 'c1a7e0de-0000-4000-8000-00000000a002';
    const key = 'intake-test-key-0002';
    const opened = await control.openProperty(property, {
      api_key: key,
      room_types: [{ title: 'Twin', rate_plans: [{ title: 'Twin BAR' }] }],
    });
    const category = (await createCategory(t, other)).id;
    await createRoom(t, other, category);
    await t.http
      .post(api('/channel-connection', other.slug))
      .set(as(other.accessToken))
      .send({
        provider: 'channex',
        api_key: key,
        property_id: property,
        room_types: [{ room_type_id: opened.room_types[0].id, category_id: category }],
        rate_plans: [],
      })
      .expect((response) => expect(response.body).toMatchObject({ property_id: property }));
    const [type] = opened.room_types;
    const made = await control.makeRevision(property, {
      ...booking('double', 5, 1),
      rooms: [{ room_type_id: type.id, rate_plan_id: type.rate_plans[0].id, rate: '3000.00' }],
      webhook: 'none',
    });
    await until(
      async () =>
        (await control.revisions(property)).find((item) => item.id === made.id)?.acknowledge_status === 'acknowledged',
      { what: 'the revision acknowledged', ...WAIT },
    );
    const { body } = await t.http.get(api('/bookings', other.slug)).set(as(other.accessToken)).expect(200);
    expect((body as Listed[]).filter((item) => item.source === 'ota')).toHaveLength(1);
  });
});

describe('the webhook route', () => {
  it('refuses a call without the hotel’s token, whatever it claims, and changes nothing', async () => {
    const spec = booking('double', 80, 1);
    const made = await revision({ ...spec, webhook: 'none' });
    const body = { event: 'booking', property_id: PROPERTY, payload: { revision_id: made.id, property_id: PROPERTY } };
    await t.http.post('/api/channels/channex/webhook').send(body).expect(401);
    await t.http
      .post('/api/channels/channex/webhook')
      .set('x-channel-intake-token', 'f'.repeat(64))
      .send(body)
      .expect(401);
    // The revision is still there to take (the feed finds it within the minute), but a forged call took nothing.
    expect(await bookingsOf(spec.ota_reservation_code)).toHaveLength(0);
  });
});

describe('personal data', () => {
  it('an OTA guest erased leaves none of their name or contacts, in the database or the revisions shown', async () => {
    const n = String(Date.now() % 1e7).padStart(7, '0');
    const [surname, phone, mail] = [`Otaguest${n}`, `+7916${n}`, `ota${n}@guest.example`];
    const spec = booking('double', 90, 1, { customer: { name: 'Anna', surname, mail, phone }, notes: `call ${phone}` });
    const made = await revision(spec);
    await acknowledged(made);
    const [created] = await bookingsOf(spec.ota_reservation_code);
    const cancelled = await revision({ status: 'cancelled', booking_id: made.booking_id });
    await acknowledged(cancelled);
    expect(await databaseHits(t, [surname, phone, mail])).toEqual(
      expect.arrayContaining(['channel_revisions.revision']),
    );
    const { body: stay } = await t.http
      .get(api(`/bookings/${created.id}`))
      .set(as(hotel.accessToken))
      .expect(200);
    const guest = (stay.guests as { guest_id: string; is_primary: boolean }[]).find((item) => item.is_primary)!;
    await t.http
      .post(api(`/personal-data/guests/${guest.guest_id}/erasure`))
      .set(as(hotel.accessToken))
      .expect(200);
    expect(await databaseHits(t, [surname, phone, mail])).toEqual([]);
    const shown = JSON.stringify(await revisionsOfBooking(created.id));
    for (const needle of [surname, phone, mail]) expect(shown).not.toContain(needle);
  });
});

describe('another hotel', () => {
  it('sees none of the hotel’s OTA bookings and can act on none', async () => {
    const other = await registerHotel(t);
    const desk = await addStaff(t, other, 'receptionist');
    const mine = await t.http.get(api('/channel-intake/unplaced')).set(as(hotel.accessToken)).expect(200);
    const theirs = await t.http.get(api('/channel-intake/unplaced', other.slug)).set(as(desk.accessToken)).expect(200);
    expect(theirs.body.items).toEqual([]);
    await t.http.get(api('/channel-intake/unplaced')).set(as(desk.accessToken)).expect(403);
    for (const item of mine.body.items as { id: string }[])
      await t.http
        .post(api(`/channel-intake/unplaced/${item.id}/dismiss`, other.slug))
        .set(as(desk.accessToken))
        .expect(404);
  });
});

describe('the webhook’s registration', () => {
  it('answers the channel’s failure as a provider error (503), never a 500, and changes nothing', async () => {
    await control.injectFault(PROPERTY, 500, 5);
    const { status, body } = await t.http.put(api('/channel-intake/webhook')).set(as(hotel.accessToken));
    expect({ status, code: body.code }).toEqual({ status: 503, code: 'channel_unavailable' });
  });

  it('answers the channel’s 429 as a 503 with the channel’s own Retry-After', async () => {
    await control.injectFault(PROPERTY, 429, 5, 'any', 17);
    const response = await t.http.put(api('/channel-intake/webhook')).set(as(hotel.accessToken));
    expect({ status: response.status, code: response.body.code, retryAfter: response.headers['retry-after'] }).toEqual({
      status: 503,
      code: 'channel_unavailable',
      retryAfter: '17',
    });
  });

  // Last: the key stays revoked.
  it('answers a stored key the channel no longer takes as the channel’s refusal (502), not the caller’s input', async () => {
    await control.injectFault(PROPERTY, 429, 0);
    await control.revokeKey(API_KEY);
    const { status, body } = await t.http.put(api('/channel-intake/webhook')).set(as(hotel.accessToken));
    expect({ status, code: body.code }).toEqual({ status: 502, code: 'channel_refused' });
  });
});
