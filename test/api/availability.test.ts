import { createTestApp, type TestApp } from '../helpers/app';
import { as, registerHotel, type RegisteredHotel } from '../helpers/accounts';
import { createCategory, createRoom } from '../helpers/structure';
import type { Offers } from '../../src/modules/bookings';

/**
 * Availability (staff) and offers (the public widget) are answered from a per-process cache checked against the
 * hotel's inventory version on every request: each change must show in the very next answer. Every test first asks,
 * so that the change has a cached answer to invalidate.
 */

let t: TestApp;
beforeAll(() => {
  t = createTestApp();
});
afterAll(() => t.close());

/** A date `offset` days from today (UTC): from 2 on, never in the past in the hotels' Moscow time. */
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
const [D10, D11, D12, D13] = [day(10), day(11), day(12), day(13)];

const api = (hotel: RegisteredHotel, path: string) => `/api/hotels/${hotel.slug}${path}`;
/** What an answer says of a stay that can be sold (no restriction broken, nothing else to offer). */
const sellable = { sellable: true, restrictions: [], alternatives: [] };
const guest = { guest_last_name: 'Сидоров', guest_first_name: 'Олег' };

async function availability(hotel: RegisteredHotel, from = D10, to = D13, query = '') {
  const response = await t.http
    .get(api(hotel, `/availability?from=${from}&to=${to}${query}`))
    .set(as(hotel.accessToken))
    .expect(200);
  return response.body as {
    nights: string[];
    categories: { category_id: string; total_rooms: number; free: number[] }[];
    rooms: { room_id: string; category_id: string; free: boolean[] }[];
  };
}

const freeNightsOf = async (hotel: RegisteredHotel, roomId: string) =>
  (await availability(hotel)).rooms.find((room) => room.room_id === roomId)?.free;

/** The public widget's availability: the bookings service's offers. */
async function offers(hotel: RegisteredHotel, guests = 2, from = D10, to = D13) {
  const response = await t.http.get(`/api/widget/${hotel.slug}/availability`).query({ from, to, guests }).expect(200);
  return response.body as Offers;
}

const offerOf = async (hotel: RegisteredHotel, categoryId: string, guests = 2, from = D10, to = D13) =>
  (await offers(hotel, guests, from, to)).categories.find((offer) => offer.category_id === categoryId);

function book(hotel: RegisteredHotel, roomId: string, checkIn: string, checkOut: string) {
  return t.http
    .post(api(hotel, '/bookings'))
    .set(as(hotel.accessToken))
    .send({ ...guest, room_id: roomId, check_in: checkIn, check_out: checkOut })
    .expect(201);
}

const setStatus = (hotel: RegisteredHotel, roomId: string, body: Record<string, unknown>) =>
  t.http
    .patch(api(hotel, `/rooms/${roomId}/status`))
    .set(as(hotel.accessToken))
    .send(body)
    .expect(200);

async function quoteTotal(hotel: RegisteredHotel, query: string) {
  const response = await t.http
    .get(api(hotel, `/quote?${query}`))
    .set(as(hotel.accessToken))
    .expect(200);
  return response.body.total as string;
}

/** A hotel with one category of two double rooms. */
async function twoRoomHotel() {
  const hotel = await registerHotel(t);
  const category = await createCategory(t, hotel, { base_price: 4000 });
  const a = await createRoom(t, hotel, category.id, { number: '1', max_guests: 2 });
  const b = await createRoom(t, hotel, category.id, { number: '2', max_guests: 2 });
  return { hotel, category, a, b };
}

describe('a booking shows at once', () => {
  it('is taken in the very next answer, for staff and the widget; cancelling it frees the room', async () => {
    const { hotel, category, a, b } = await twoRoomHotel();
    expect(await availability(hotel)).toMatchObject({
      nights: [D10, D11, D12],
      categories: [{ category_id: category.id, total_rooms: 2, free: [2, 2, 2] }],
    });
    expect(await offerOf(hotel, category.id)).toMatchObject({ free: [2, 2, 2], available: true });

    const stay = (await book(hotel, a.id, D11, D12)).body;
    const staff = await availability(hotel);
    expect(staff.categories).toEqual([{ category_id: category.id, total_rooms: 2, free: [2, 1, 2], ...sellable }]);
    expect(staff.rooms).toEqual([
      { room_id: a.id, category_id: category.id, free: [true, false, true] },
      { room_id: b.id, category_id: category.id, free: [true, true, true] },
    ]);
    expect(await offerOf(hotel, category.id)).toMatchObject({ free: [2, 1, 2], available: true });

    await t.http
      .patch(api(hotel, `/bookings/${stay.id}`))
      .set(as(hotel.accessToken))
      .send({ status: 'cancelled' })
      .expect(200);
    expect(await freeNightsOf(hotel, a.id)).toEqual([true, true, true]);
    expect(await offerOf(hotel, category.id)).toMatchObject({ free: [2, 2, 2], available: true });
  });

  it('a stay written straight to the database counts too: the trigger sees every writer', async () => {
    const { hotel, category, a } = await twoRoomHotel();
    expect(await freeNightsOf(hotel, a.id)).toEqual([true, true, true]);
    await t.db('bookings').insert({
      hotel_id: hotel.hotelId,
      room_id: a.id,
      category_id: category.id,
      kind: 'hourly',
      // 15:00 to 17:00 in Moscow on the second day: within that night (check-in 14:00).
      start_at: `${D11}T12:00:00Z`,
      end_at: `${D11}T14:00:00Z`,
      status: 'inquiry',
      guest_last_name: 'Прямой',
      guest_first_name: 'Запрос',
      price: 0,
    });
    expect(await freeNightsOf(hotel, a.id)).toEqual([true, false, true]);
  });

  it('a category is available only when one room is free for the whole stay', async () => {
    const { hotel, category, a, b } = await twoRoomHotel();
    expect(await offerOf(hotel, category.id, 2, D10, D12)).toMatchObject({ available: true });
    await book(hotel, a.id, D10, D11);
    await book(hotel, b.id, D11, D12);
    expect(await offerOf(hotel, category.id, 2, D10, D12)).toMatchObject({
      free: [1, 1],
      available: false,
      total: null,
      per_night: null,
    });
  });
});

describe('rooms not for sale', () => {
  it('closed and maintenance rooms are taken for their nights, housekeeping statuses change nothing', async () => {
    const { hotel, category, a, b } = await twoRoomHotel();
    expect((await availability(hotel)).categories[0].free).toEqual([2, 2, 2]);
    await setStatus(hotel, a.id, { status: 'closed' });
    // Moscow nights start at 11:00Z: this span touches the second night only.
    await setStatus(hotel, b.id, {
      status: 'maintenance',
      maintenance_from: `${D11}T12:00:00Z`,
      maintenance_to: `${D12}T06:00:00Z`,
    });
    const staff = await availability(hotel);
    expect(staff.rooms.map((room) => room.free)).toEqual([
      [false, false, false],
      [true, false, true],
    ]);
    expect(await offerOf(hotel, category.id)).toMatchObject({ free: [1, 0, 1], available: false });

    await setStatus(hotel, a.id, { status: 'dirty' });
    expect(await freeNightsOf(hotel, a.id)).toEqual([true, true, true]);
    await setStatus(hotel, a.id, { status: 'clean' });
    expect(await offerOf(hotel, category.id)).toMatchObject({ free: [2, 1, 2], available: true });
  });

  it('the staff answer keeps its shape under a category filter', async () => {
    const { hotel, a } = await twoRoomHotel();
    const other = await createCategory(t, hotel);
    const c = await createRoom(t, hotel, other.id, { number: '3' });
    expect((await availability(hotel)).rooms.map((room) => room.room_id)).toEqual([a.id, expect.any(String), c.id]);
    const filtered = await availability(hotel, D10, D13, `&category_id=${other.id}`);
    expect(filtered).toEqual({
      from: D10,
      to: D13,
      nights: [D10, D11, D12],
      categories: [{ category_id: other.id, total_rooms: 1, free: [1, 1, 1], ...sellable }],
      rooms: [{ room_id: c.id, category_id: other.id, free: [true, true, true] }],
    });
  });
});

describe('offers for a party', () => {
  it('lists active categories with a sellable room for that many guests, counting only those rooms', async () => {
    const hotel = await registerHotel(t);
    const doubles = await createCategory(t, hotel, { name: 'Двухместный', sort_order: 1 });
    const family = await createCategory(t, hotel, { name: 'Семейный', sort_order: 2 });
    const suite = await createCategory(t, hotel, { name: 'Люкс', sort_order: 3 });
    const hidden = await createCategory(t, hotel, { name: 'Скрытый', sort_order: 4, is_active: false });
    await createRoom(t, hotel, doubles.id, { max_guests: 2 });
    await createRoom(t, hotel, family.id, { max_guests: 4 });
    const familyDouble = await createRoom(t, hotel, family.id, { max_guests: 2 });
    await createRoom(t, hotel, suite.id, { max_guests: 6, status: 'closed' });
    await createRoom(t, hotel, hidden.id, { max_guests: 4 });

    const forTwo = await offers(hotel, 2);
    expect(forTwo.nights).toEqual([D10, D11, D12]);
    expect(forTwo.categories.map((offer) => [offer.name, offer.max_guests, offer.free])).toEqual([
      ['Двухместный', 2, [1, 1, 1]],
      ['Семейный', 4, [2, 2, 2]],
    ]);
    const forThree = await offers(hotel, 3);
    expect(forThree.categories.map((offer) => [offer.name, offer.free])).toEqual([['Семейный', [1, 1, 1]]]);

    await t.http
      .patch(api(hotel, `/rooms/${familyDouble.id}`))
      .set(as(hotel.accessToken))
      .send({ category_id: doubles.id })
      .expect(200);
    expect((await offers(hotel, 2)).categories.map((offer) => [offer.name, offer.free])).toEqual([
      ['Двухместный', [2, 2, 2]],
      ['Семейный', [1, 1, 1]],
    ]);
  });

  it('prices the stay and the hour as the quote engine does, and follows a rate change at once', async () => {
    const hotel = await registerHotel(t);
    const category = await createCategory(t, hotel, {
      base_price: 5000,
      allow_hourly: true,
      hourly_base_price: 700,
      description: 'Вид на море',
    });
    const plain = await createCategory(t, hotel, { base_price: 3000 });
    await createRoom(t, hotel, category.id, { max_guests: 2 });
    await createRoom(t, hotel, plain.id, { max_guests: 2 });
    await t.http
      .post(api(hotel, '/rate-overrides'))
      .set(as(hotel.accessToken))
      .send({ category_id: category.id, date: D10, price: 9001, hourly_price: 950 })
      .expect(200);

    const stayQuote = `category_id=${category.id}&check_in=${D10}&check_out=${D13}`;
    // Check-in at 14:00 in Moscow is 11:00Z.
    const hourQuote = `category_id=${category.id}&start_at=${D10}T11:00:00Z&end_at=${D10}T12:00:00Z`;
    expect(await offerOf(hotel, category.id)).toEqual({
      category_id: category.id,
      name: expect.any(String),
      description: 'Вид на море',
      photos: [],
      max_guests: 2,
      free: [1, 1, 1],
      available: true,
      total: await quoteTotal(hotel, stayQuote),
      per_night: '6333.67',
      tourist_tax: (await t.http.get(api(hotel, `/quote?${stayQuote}`)).set(as(hotel.accessToken))).body.tourist_tax,
      hourly: { allowed: true, price_per_hour: await quoteTotal(hotel, hourQuote) },
      ...sellable,
    });
    expect((await offerOf(hotel, category.id))?.total).toBe('19001.00');
    expect(await offerOf(hotel, plain.id)).toMatchObject({
      total: '9000.00',
      per_night: '3000.00',
      hourly: { allowed: false, price_per_hour: null },
    });

    await t.http
      .post(api(hotel, '/rate-overrides'))
      .set(as(hotel.accessToken))
      .send({ category_id: category.id, date: D12, price: 12000 })
      .expect(200);
    expect(await offerOf(hotel, category.id)).toMatchObject({
      total: await quoteTotal(hotel, stayQuote),
      per_night: '8667.00',
    });
    expect(await quoteTotal(hotel, stayQuote)).toBe('26001.00');
  });

  it('bounds the stay (1 to 31 nights, not in the past) and the party (1 to 20), for any caller of the service', async () => {
    const { hotel } = await twoRoomHotel();
    const refused = { status: 400, code: 'validation_failed' };
    const offersOf = (guests: number, from = D10, to = D13) =>
      t.services.bookings.offers(hotel.hotelId, { from, to, guests });
    await expect(offersOf(2, D10, day(42))).rejects.toMatchObject(refused);
    await expect(offersOf(2, D10, D10)).rejects.toMatchObject(refused);
    await expect(offersOf(2, D11, D10)).rejects.toMatchObject(refused);
    await expect(offersOf(2, day(-2), day(1))).rejects.toMatchObject(refused);
    await expect(offersOf(0)).rejects.toMatchObject(refused);
    await expect(offersOf(21)).rejects.toMatchObject(refused);
    await expect(offersOf(2.5)).rejects.toMatchObject(refused);
    await expect(offersOf(2, '2027-02-30', D13)).rejects.toMatchObject(refused);
    expect((await offersOf(20, D10, day(41))).nights).toHaveLength(31);
    const widget = `/api/widget/${hotel.slug}/availability`;
    await t.http
      .get(widget)
      .query({ from: day(-2), to: day(1), guests: 2 })
      .expect(400);
    await t.http
      .get(widget)
      .query({ from: D10, to: day(42), guests: 2 })
      .expect(400);
  });
});
