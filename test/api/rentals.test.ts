import { randomUUID } from 'node:crypto';
import { createTestApp, type TestApp } from '../helpers/app';
import { addStaff, as, registerHotel, type RegisteredHotel } from '../helpers/accounts';
import { createCategory, createRoom } from '../helpers/structure';

let t: TestApp;
let owner: RegisteredHotel;
let other: RegisteredHotel;
beforeAll(async () => {
  t = createTestApp();
  [owner, other] = await Promise.all([registerHotel(t), registerHotel(t)]);
});
afterAll(() => t.close());

const api = (hotel: RegisteredHotel, path: string) => `/api/hotels/${hotel.slug}${path}`;
const guest = { guest_name: 'Иванов Пётр', guest_phone: '+7 999 111-22-33' };
/** An instant on the clock of a new hotel (Europe/Moscow, UTC+3 all year). */
const moscow = (day: string, hour: number) => `${day}T${String(hour).padStart(2, '0')}:00:00+03:00`;
const hourly = (day: string, from: number, to: number) => ({
  kind: 'hourly',
  start_at: moscow(day, from),
  end_at: moscow(day, to),
});

async function objectIn(hotel = owner, body: Record<string, unknown> = {}) {
  const response = await t.http
    .post(api(hotel, '/rental-objects'))
    .set(as(hotel.accessToken))
    .send({
      name: `Корт ${randomUUID().slice(0, 8)}`,
      price_per_hour: 1500,
      price_per_day: 8000,
      open_hour: 8,
      close_hour: 22,
      is_active: true,
      ...body,
    })
    .expect(201);
  return response.body as { id: string; name: string };
}

function book(body: Record<string, unknown>, hotel = owner, headers: Record<string, string> = {}) {
  return t.http
    .post(api(hotel, '/rental-bookings'))
    .set(as(hotel.accessToken))
    .set(headers)
    .send({ ...guest, ...body });
}

const patch = (id: string, body: Record<string, unknown>, hotel = owner) =>
  t.http
    .patch(api(hotel, `/rental-bookings/${id}`))
    .set(as(hotel.accessToken))
    .send(body);

const countBookings = async (hotel = owner) =>
  Number((await t.db('rental_bookings').where({ hotel_id: hotel.hotelId }).count('* as n').first())?.n);

describe('rental objects', () => {
  it("lists the registration's three drafts with the spec's rates", async () => {
    const drafts = await t.http
      .get(api(owner, '/rental-objects?is_active=false'))
      .set(as(owner.accessToken))
      .expect(200);
    expect(drafts.body).toEqual([
      expect.objectContaining({ sort_order: 1, price_per_hour: '1500.00', price_per_day: '8000.00', open_hour: 8 }),
      expect.objectContaining({ sort_order: 2, price_per_hour: '2500.00', price_per_day: '12000.00', close_hour: 23 }),
      expect.objectContaining({ sort_order: 3, price_per_hour: '3000.00', price_per_day: '15000.00', open_hour: 9 }),
    ]);
    expect(drafts.body.every((object: { is_active: boolean }) => !object.is_active)).toBe(true);
  });

  it('create with every field, read, update, list, delete; money goes out as strings', async () => {
    const created = await t.http
      .post(api(owner, '/rental-objects'))
      .set(as(owner.accessToken))
      .send({
        name: 'Бильярд',
        icon: 'billiards',
        color: '#1E88E5',
        text_color: '#fff',
        price_per_hour: 900.5,
        price_per_day: '5000',
        open_hour: 10,
        close_hour: 24,
        sort_order: 7,
        is_active: true,
        buffer_minutes: 15,
      })
      .expect(201);
    expect(created.body).toMatchObject({
      name: 'Бильярд',
      icon: 'billiards',
      color: '#1E88E5',
      text_color: '#fff',
      price_per_hour: '900.50',
      price_per_day: '5000.00',
      open_hour: 10,
      close_hour: 24,
      sort_order: 7,
      is_active: true,
      buffer_minutes: 15,
    });
    const path = api(owner, `/rental-objects/${created.body.id}`);
    await t.http.get(path).set(as(owner.accessToken)).expect(200);
    const updated = await t.http
      .patch(path)
      .set(as(owner.accessToken))
      .send({ open_hour: 12, is_active: false })
      .expect(200);
    expect(updated.body).toMatchObject({ open_hour: 12, close_hour: 24, is_active: false });
    const drafts = await t.http
      .get(api(owner, '/rental-objects?is_active=false'))
      .set(as(owner.accessToken))
      .expect(200);
    expect(drafts.body.map((object: { id: string }) => object.id)).toContain(created.body.id);
    await t.http.delete(path).set(as(owner.accessToken)).expect(200);
    await t.http.get(path).set(as(owner.accessToken)).expect(404);
    await t.http.patch(path).set(as(owner.accessToken)).send({ name: 'X' }).expect(404);
    await t.http.delete(path).set(as(owner.accessToken)).expect(404);
  });

  it.each([
    [{ price_per_hour: 1 }, 'body.name'],
    [{ name: '' }, 'body.name'],
    [{ name: 'x'.repeat(101) }, 'body.name'],
    [{ name: 'X', icon: 'i'.repeat(51) }, 'body.icon'],
    [{ name: 'X', color: 'red' }, 'body.color'],
    [{ name: 'X', text_color: '#12345' }, 'body.text_color'],
    [{ name: 'X', price_per_hour: -1 }, 'body.price_per_hour'],
    [{ name: 'X', price_per_day: '12.345' }, 'body.price_per_day'],
    [{ name: 'X', open_hour: 24 }, 'body.open_hour'],
    [{ name: 'X', close_hour: 0 }, 'body.close_hour'],
    [{ name: 'X', close_hour: 25 }, 'body.close_hour'],
    [{ name: 'X', open_hour: 10, close_hour: 10 }, 'body.close_hour'],
    [{ name: 'X', buffer_minutes: 721 }, 'body.buffer_minutes'],
    [{ name: 'X', sort_order: 1e6 }, 'body.sort_order'],
  ])('400 for %j', async (body, path) => {
    const response = await t.http.post(api(owner, '/rental-objects')).set(as(owner.accessToken)).send(body).expect(400);
    expect(response.body.details.map((d: { path: string }) => d.path)).toContain(path);
  });

  it('opening must stay before closing when only one of the two hours changes (400)', async () => {
    const object = await objectIn(owner, { open_hour: 8, close_hour: 12 });
    const path = api(owner, `/rental-objects/${object.id}`);
    await t.http.patch(path).set(as(owner.accessToken)).send({ open_hour: 12 }).expect(400);
    await t.http.patch(path).set(as(owner.accessToken)).send({ close_hour: 8 }).expect(400);
    await t.http.patch(path).set(as(owner.accessToken)).send({ close_hour: 9 }).expect(200);
  });

  it('all staff read; only management writes', async () => {
    const maid = await addStaff(t, owner, 'housekeeper');
    const manager = await addStaff(t, owner, 'manager');
    await t.http.get(api(owner, '/rental-objects')).set(as(maid.accessToken)).expect(200);
    await t.http.post(api(owner, '/rental-objects')).set(as(maid.accessToken)).send({ name: 'Сауна' }).expect(403);
    await t.http.post(api(owner, '/rental-objects')).set(as(manager.accessToken)).send({ name: 'Сауна' }).expect(201);
  });

  it('an object with bookings, cancelled ones too, cannot be deleted (409): its history stays', async () => {
    const object = await objectIn();
    const booked = await book({ rental_object_id: object.id, ...hourly('2030-01-10', 10, 11) }).expect(201);
    const cancelled = await patch(booked.body.id, { status: 'cancelled' }).expect(200);
    await t.http
      .delete(api(owner, `/rental-objects/${object.id}`))
      .set(as(owner.accessToken))
      .expect(409);
    // The history is there as it was: the object, and its cancelled booking, by id and in the calendar.
    await t.http
      .get(api(owner, `/rental-objects/${object.id}`))
      .set(as(owner.accessToken))
      .expect(200);
    const kept = await t.http.get(api(owner, `/rental-bookings/${booked.body.id}`)).set(as(owner.accessToken));
    expect(kept.status).toBe(200);
    expect(kept.body).toEqual(cancelled.body);
    const calendar = await t.http
      .get(api(owner, `/rental-bookings?rental_object_id=${object.id}&from=2030-01-10&to=2030-01-10&status=cancelled`))
      .set(as(owner.accessToken))
      .expect(200);
    expect(calendar.body.map((booking: { id: string }) => booking.id)).toEqual([booked.body.id]);
  });
});

describe('hourly bookings', () => {
  it('books whole hours within the opening hours, priced from the rate (a client price is ignored)', async () => {
    const object = await objectIn(owner, { price_per_hour: '1250.50' });
    const response = await book({ rental_object_id: object.id, ...hourly('2030-02-01', 8, 11), price: 1 }).expect(201);
    expect(response.body).toMatchObject({
      rental_object_id: object.id,
      kind: 'hourly',
      start_at: '2030-02-01T05:00:00.000Z',
      end_at: '2030-02-01T08:00:00.000Z',
      date_from: null,
      date_to: null,
      price: '3751.50',
      status: 'confirmed',
      source: 'front_desk',
      guest_name: 'Иванов Пётр',
      created_by: owner.userId,
      cancelled_at: null,
    });
    const read = await t.http
      .get(api(owner, `/rental-bookings/${response.body.id}`))
      .set(as(owner.accessToken))
      .expect(200);
    expect(read.body.id).toBe(response.body.id);
    // Up to the closing hour.
    await book({ rental_object_id: object.id, ...hourly('2030-02-01', 20, 22) }).expect(201);
  });

  it.each([
    ['before opening', 7, 9],
    ['past closing', 21, 23],
  ])('422 %s, nothing written', async (_label, from, to) => {
    const object = await objectIn();
    const before = await countBookings();
    const response = await book({ rental_object_id: object.id, ...hourly('2030-02-02', from, to) }).expect(422);
    expect(response.body.error).toContain('08:00 до 22:00');
    expect(await countBookings()).toBe(before);
  });

  it.each([
    [
      'not on a whole hour',
      { start_at: '2030-02-03T10:30:00+03:00', end_at: moscow('2030-02-03', 12) },
      'body.start_at',
    ],
    [
      'ending before it starts',
      { start_at: moscow('2030-02-03', 12), end_at: moscow('2030-02-03', 11) },
      'body.end_at',
    ],
    [
      'hours for a daily booking',
      { kind: 'daily', start_at: moscow('2030-02-03', 10), end_at: moscow('2030-02-03', 11) },
      'body.kind',
    ],
    ['no end', { start_at: moscow('2030-02-03', 10) }, 'body'],
  ])('400 %s', async (_label, times, path) => {
    const object = await objectIn();
    const response = await book({ rental_object_id: object.id, kind: 'hourly', ...times }).expect(400);
    expect(response.body.details.map((d: { path: string }) => d.path)).toContain(path);
  });

  it('keeps the buffer free after a booking: within it a 409 names the booking, after it 201', async () => {
    const object = await objectIn(owner, { buffer_minutes: 60 });
    await book({ rental_object_id: object.id, ...hourly('2030-03-01', 10, 12), guest_name: 'Первый' }).expect(201);
    const clash = await book({ rental_object_id: object.id, ...hourly('2030-03-01', 12, 13) }).expect(409);
    expect(clash.body.error).toContain('Первый');
    expect(clash.body.error).toContain('60 мин');
    await book({ rental_object_id: object.id, ...hourly('2030-03-01', 13, 14) }).expect(201);
    // The new booking's own buffer may not reach into the next one either.
    await book({ rental_object_id: object.id, ...hourly('2030-03-01', 16, 17), guest_name: 'Вечерний' }).expect(201);
    const before = await book({ rental_object_id: object.id, ...hourly('2030-03-01', 15, 16) }).expect(409);
    expect(before.body.error).toContain('Вечерний');
    // Other objects are not affected.
    const another = await objectIn(owner, { buffer_minutes: 60 });
    await book({ rental_object_id: another.id, ...hourly('2030-03-01', 12, 13) }).expect(201);
  });

  it('10 concurrent requests for one slot: exactly one 201, the rest 409, none a 5xx', async () => {
    const object = await objectIn(owner, { buffer_minutes: 30 });
    const responses = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        book({ rental_object_id: object.id, ...hourly('2030-03-02', 10 + (i % 2), 12), guest_name: `Гость ${i}` }),
      ),
    );
    expect(responses.filter((r) => r.status >= 500).map((r) => r.body)).toEqual([]);
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(9);
    const winner = responses.find((r) => r.status === 201)!.body.guest_name;
    for (const lost of responses.filter((r) => r.status === 409)) expect(lost.body.error).toContain(winner);
    expect(await t.db('rental_bookings').where({ rental_object_id: object.id })).toHaveLength(1);
  });

  it('a draft object is not bookable (422)', async () => {
    const [draft] = (
      await t.http.get(api(owner, '/rental-objects?is_active=false')).set(as(owner.accessToken)).expect(200)
    ).body as { id: string }[];
    await book({ rental_object_id: draft.id, ...hourly('2030-03-03', 10, 11) }).expect(422);
  });

  it('cancelling frees the slot at once; a cancelled booking changes no more', async () => {
    const object = await objectIn(owner, { buffer_minutes: 30 });
    const first = await book({ rental_object_id: object.id, ...hourly('2030-03-04', 10, 12) }).expect(201);
    await book({ rental_object_id: object.id, ...hourly('2030-03-04', 11, 12) }).expect(409);
    const cancelled = await patch(first.body.id, { status: 'cancelled' }).expect(200);
    expect(cancelled.body).toMatchObject({ status: 'cancelled', cancelled_at: expect.any(String) });
    await book({ rental_object_id: object.id, ...hourly('2030-03-04', 11, 12) }).expect(201);
    await patch(first.body.id, { status: 'confirmed' }).expect(422);
    await patch(first.body.id, { comment: 'Поздно' }).expect(422);
  });

  it('moving a booking re-prices it and is held to the same rules; the booking does not clash with itself', async () => {
    const object = await objectIn(owner, { buffer_minutes: 60 });
    const moved = await book({ rental_object_id: object.id, ...hourly('2030-03-05', 10, 11) }).expect(201);
    await book({ rental_object_id: object.id, ...hourly('2030-03-05', 15, 16), guest_name: 'Сосед' }).expect(201);
    const longer = await patch(moved.body.id, { end_at: moscow('2030-03-05', 13) }).expect(200);
    expect(longer.body).toMatchObject({ end_at: '2030-03-05T10:00:00.000Z', price: '4500.00' });
    const clash = await patch(moved.body.id, { end_at: moscow('2030-03-05', 15) }).expect(409);
    expect(clash.body.error).toContain('Сосед');
    await patch(moved.body.id, { end_at: moscow('2030-03-05', 23) }).expect(422);
    const daily = await patch(moved.body.id, { kind: 'daily', date_from: '2030-03-06', date_to: '2030-03-06' }).expect(
      200,
    );
    expect(daily.body).toMatchObject({ kind: 'daily', date_from: '2030-03-06', price: '8000.00' });
    await patch(moved.body.id, { kind: 'hourly' }).expect(400);
  });
});

describe('daily bookings', () => {
  it('hold the object from its opening on the first day to its closing on the last, priced per day', async () => {
    const object = await objectIn(owner, { open_hour: 9, close_hour: 20, price_per_day: 15000 });
    const response = await book({
      rental_object_id: object.id,
      kind: 'daily',
      date_from: '2030-04-01',
      date_to: '2030-04-03',
    }).expect(201);
    expect(response.body).toMatchObject({
      kind: 'daily',
      date_from: '2030-04-01',
      date_to: '2030-04-03',
      start_at: '2030-04-01T06:00:00.000Z',
      end_at: '2030-04-03T17:00:00.000Z',
      price: '45000.00',
    });
    await book({ rental_object_id: object.id, ...hourly('2030-04-02', 10, 11) }).expect(409);
    await book({ rental_object_id: object.id, ...hourly('2030-04-04', 9, 10) }).expect(201);
  });

  it('400 for a last day before the first, or more than 93 days', async () => {
    const object = await objectIn();
    const daily = (date_from: string, date_to: string) =>
      book({ rental_object_id: object.id, kind: 'daily', date_from, date_to });
    await daily('2030-04-10', '2030-04-09').expect(400);
    await daily('2030-04-10', '2030-07-12').expect(400);
    await daily('2030-04-10', '2030-07-11').expect(201);
  });
});

describe('idempotency, room bookings, calendar and events', () => {
  it('Idempotency-Key: the same request answers the first booking again; another body with the key is a 422', async () => {
    const object = await objectIn();
    const key = randomUUID();
    const body = { rental_object_id: object.id, ...hourly('2030-05-01', 10, 11) };
    const first = await book(body, owner, { 'Idempotency-Key': key }).expect(201);
    const again = await book(body, owner, { 'Idempotency-Key': key }).expect(201);
    expect(again.body.id).toBe(first.body.id);
    await book({ ...body, guest_name: 'Другой' }, owner, { 'Idempotency-Key': key }).expect(422);
    expect(await t.db('rental_bookings').where({ rental_object_id: object.id })).toHaveLength(1);
  });

  it("charges a rental to a room booking of this hotel; another hotel's booking or none is a 400", async () => {
    const object = await objectIn();
    const roomBookingOf = async (hotel: RegisteredHotel) => {
      const category = await createCategory(t, hotel);
      const room = await createRoom(t, hotel, category.id);
      const stay = await t.http
        .post(api(hotel, '/bookings'))
        .set(as(hotel.accessToken))
        .send({
          room_id: room.id,
          check_in: '2030-05-10',
          check_out: '2030-05-12',
          guest_last_name: 'Иванов',
          guest_first_name: 'Пётр',
        })
        .expect(201);
      return stay.body.id as string;
    };
    const ours = await roomBookingOf(owner);
    const charged = await book({ rental_object_id: object.id, ...hourly('2030-05-11', 10, 11), booking_id: ours });
    expect(charged.status).toBe(201);
    expect(charged.body.booking_id).toBe(ours);
    const before = await countBookings();
    for (const booking_id of [await roomBookingOf(other), randomUUID()]) {
      const refused = await book({ rental_object_id: object.id, ...hourly('2030-05-11', 12, 13), booking_id }).expect(
        400,
      );
      expect(refused.body.details).toEqual([{ path: 'body.booking_id', message: 'Бронирование номера не найдено' }]);
      await patch(charged.body.id, { booking_id }).expect(400);
    }
    expect(await countBookings()).toBe(before);
    await patch(charged.body.id, { booking_id: null }).expect(200);
  });

  it('lists a calendar window of hotel-local days, by object and status, at most 93 days', async () => {
    const object = await objectIn();
    const late = await book({ rental_object_id: object.id, ...hourly('2030-06-02', 21, 22) }).expect(201);
    const next = await book({ rental_object_id: object.id, ...hourly('2030-06-03', 8, 9) }).expect(201);
    const list = (query: string) =>
      t.http.get(api(owner, `/rental-bookings?rental_object_id=${object.id}&${query}`)).set(as(owner.accessToken));
    const ids = (response: { body: { id: string }[] }) => response.body.map((booking) => booking.id);
    expect(ids(await list('from=2030-06-02&to=2030-06-02').expect(200))).toEqual([late.body.id]);
    expect(ids(await list('from=2030-06-01&to=2030-06-03').expect(200))).toEqual([late.body.id, next.body.id]);
    const paged = await list('from=2030-06-01&to=2030-06-03&limit=1').expect(200);
    expect(ids(paged)).toEqual([late.body.id]);
    expect(paged.headers['x-next-cursor']).toEqual(expect.any(String));
    await patch(late.body.id, { status: 'cancelled' }).expect(200);
    expect(ids(await list('from=2030-06-01&to=2030-06-03&status=confirmed').expect(200))).toEqual([next.body.id]);
    await list('from=2030-06-01&to=2030-09-02').expect(400);
    await list('from=2030-06-03&to=2030-06-01').expect(400);
    await list('from=2030-06-01').expect(400);
  });

  it('announces creations and changes to the staff of the hotel', async () => {
    const object = await objectIn();
    const booked = await book({ rental_object_id: object.id, ...hourly('2030-06-10', 10, 11) }).expect(201);
    await patch(booked.body.id, { status: 'cancelled' }).expect(200);
    const events = await t
      .db('realtime_events')
      .where({ hotel_id: owner.hotelId })
      .whereRaw("payload->>'rental_booking_id' = ?", [booked.body.id])
      .orderBy('created_at')
      .select('type', 'payload');
    expect(events).toEqual([
      {
        type: 'rental_booking_created',
        payload: expect.objectContaining({ rental_object_id: object.id, kind: 'hourly', status: 'confirmed' }),
      },
      {
        type: 'rental_booking_updated',
        payload: expect.objectContaining({ status: 'cancelled', changes: { status: 'cancelled' } }),
      },
    ]);
  });
});

describe('the service the widget calls', () => {
  it('activeObjects: active objects by sort_order, public fields only', async () => {
    const hotel = await registerHotel(t);
    await objectIn(hotel, { name: 'Второй', sort_order: 2 });
    await objectIn(hotel, { name: 'Первый', sort_order: 1, color: '#000', buffer_minutes: 15 });
    const objects = await t.services.rentals.activeObjects(hotel.hotelId);
    expect(objects.map((object) => object.name)).toEqual(['Первый', 'Второй']);
    expect(objects[0]).toEqual({
      id: expect.any(String),
      name: 'Первый',
      icon: null,
      color: '#000',
      text_color: null,
      price_per_hour: '1500.00',
      price_per_day: '8000.00',
      open_hour: 8,
      close_hour: 22,
      buffer_minutes: 15,
      sort_order: 1,
    });
  });

  it('bookings.create: an online booking without a user, ahead only, answered as the idempotent helper does', async () => {
    const object = await objectIn();
    const actor = { userId: null, hotelSlug: owner.slug };
    const input = {
      rental_object_id: object.id,
      kind: 'hourly' as const,
      start_at: new Date(moscow('2030-07-01', 10)),
      end_at: new Date(moscow('2030-07-01', 12)),
      guest_name: 'Онлайн Гость',
      guest_phone: '+79990001122',
      source: 'online' as const,
    };
    const result = await t.services.rentals.bookings.create(owner.hotelId, input, actor, 'widget-key-1');
    expect(result).toMatchObject({ status: 201, body: { source: 'online', created_by: null, price: '3000.00' } });
    const replay = await t.services.rentals.bookings.create(owner.hotelId, input, actor, 'widget-key-1');
    expect(replay.body.id).toBe(result.body.id);
    await expect(
      t.services.rentals.bookings.create(
        owner.hotelId,
        { ...input, start_at: new Date('2020-01-01T07:00:00Z'), end_at: new Date('2020-01-01T08:00:00Z') },
        actor,
      ),
    ).rejects.toMatchObject({ status: 422 });
  });

  it('freeSlots: the hours of a day where an hour and the buffer after it fit, none gone by', async () => {
    const object = await objectIn(owner, { open_hour: 8, close_hour: 13, buffer_minutes: 60 });
    await book({ rental_object_id: object.id, ...hourly('2030-07-02', 10, 11) }).expect(201);
    const slots = await t.services.rentals.freeSlots(owner.hotelId, object.id, '2030-07-02');
    expect(slots).toEqual([
      { start_at: new Date(moscow('2030-07-02', 8)), end_at: new Date(moscow('2030-07-02', 9)) },
      { start_at: new Date(moscow('2030-07-02', 12)), end_at: new Date(moscow('2030-07-02', 13)) },
    ]);
    expect(await t.services.rentals.freeSlots(owner.hotelId, object.id, '2020-07-02')).toEqual([]);
  });
});

describe('access', () => {
  it('the desk books; housekeepers do not see bookings; accountants read but do not book', async () => {
    const object = await objectIn();
    const maid = await addStaff(t, owner, 'housekeeper');
    const accountant = await addStaff(t, owner, 'accountant');
    const receptionist = await addStaff(t, owner, 'receptionist');
    const window = '/rental-bookings?from=2030-08-01&to=2030-08-01';
    await t.http.get(api(owner, window)).set(as(maid.accessToken)).expect(403);
    await t.http.get(api(owner, window)).set(as(accountant.accessToken)).expect(200);
    const body = { ...guest, rental_object_id: object.id, ...hourly('2030-08-01', 10, 11) };
    await t.http.post(api(owner, '/rental-bookings')).set(as(accountant.accessToken)).send(body).expect(403);
    await t.http.post(api(owner, '/rental-bookings')).set(as(receptionist.accessToken)).send(body).expect(201);
  });

  it('another hotel: 403 on our routes, 404 for our records through theirs, our objects cannot be booked', async () => {
    const object = await objectIn();
    const booked = await book({ rental_object_id: object.id, ...hourly('2030-08-02', 10, 11) }).expect(201);
    await t.http.get(api(owner, '/rental-objects')).set(as(other.accessToken)).expect(403);
    await t.http
      .get(api(other, `/rental-objects/${object.id}`))
      .set(as(other.accessToken))
      .expect(404);
    await t.http
      .get(api(other, `/rental-bookings/${booked.body.id}`))
      .set(as(other.accessToken))
      .expect(404);
    await patch(booked.body.id, { status: 'cancelled' }, other).expect(404);
    await book({ rental_object_id: object.id, ...hourly('2030-08-03', 10, 11) }, other).expect(400);
    expect((await t.db('rental_bookings').where({ id: booked.body.id }).first()).status).toBe('confirmed');
  });
});
