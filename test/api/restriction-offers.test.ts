import { createTestApp, type TestApp } from '../helpers/app';
import { as, registerHotel, uniqueEmail, type RegisteredHotel } from '../helpers/accounts';
import { localDay } from '../helpers/dates';
import { createCategory, createRoom } from '../helpers/structure';

let t: TestApp;
let owner: RegisteredHotel;
beforeAll(async () => {
  t = createTestApp();
  owner = await registerHotel(t);
});
afterAll(() => t.close());

const api = (hotel: RegisteredHotel, path: string) => `/api/hotels/${hotel.slug}${path}`;
const stay = (from: number, to: number) => ({ check_in: localDay(from), check_out: localDay(to) });

async function categoryWithRoom(hotel = owner) {
  const category = await createCategory(t, hotel, { base_price: 4000 });
  const room = await createRoom(t, hotel, category.id);
  return { category, room };
}

/** A staff booking of a room, holding it over the nights `from`..`to` (days from today). */
const holdRoom = (roomId: string, from: number, to: number) =>
  t.http
    .post(api(owner, '/bookings'))
    .set(as(owner.accessToken))
    .send({ room_id: roomId, ...stay(from, to), guest_last_name: 'Петрова', guest_first_name: 'Анна' })
    .expect(201);

const write = (items: Record<string, unknown>[], hotel = owner) =>
  t.http.put(api(hotel, '/restrictions')).set(as(hotel.accessToken)).send({ items }).expect(200);

async function availabilityOf(categoryId: string, from: number, to: number) {
  const { body } = await t.http
    .get(api(owner, '/availability'))
    .set(as(owner.accessToken))
    .query({ from: localDay(from), to: localDay(to), category_id: categoryId })
    .expect(200);
  return body.categories[0];
}

describe('the staff availability judges the window as a stay', () => {
  it('says which restriction and night refuse it, and offers the nearest shifts free of both restrictions and stays', async () => {
    const { category, room } = await categoryWithRoom();
    const before = await availabilityOf(category.id, 19, 22);
    expect(before).toMatchObject({ free: [1, 1, 1], sellable: true, restrictions: [], alternatives: [] });

    // A stop-sell on day 20; the only room taken on day 16: the shift 3 days earlier holds it, so it is not offered.
    await write([{ category_id: category.id, from: localDay(20), to: localDay(20), stop_sell: true }]);
    await holdRoom(room.id, 16, 17);
    const after = await availabilityOf(category.id, 19, 22);
    expect(after).toMatchObject({ free: [1, 1, 1], sellable: false });
    expect(after.restrictions).toEqual([{ restriction: 'stop_sell', night: localDay(20), value: true }]);
    expect(after.alternatives).toEqual([stay(17, 20), stay(21, 24), stay(22, 25)]);

    // Cleared, the answer moves at once (restrictions move the hotel's inventory version).
    await write([{ category_id: category.id, from: localDay(20), to: localDay(20), stop_sell: null }]);
    expect(await availabilityOf(category.id, 19, 22)).toMatchObject({ sellable: true, restrictions: [] });
  });

  it('a stay no room can hold is not sellable without any restriction, and its alternatives are the free shifts', async () => {
    const { category, room } = await categoryWithRoom();
    await holdRoom(room.id, 41, 42);
    const answer = await availabilityOf(category.id, 40, 42);
    expect(answer).toMatchObject({ free: [1, 0], sellable: false, restrictions: [] });
    expect(answer.alternatives).toEqual([stay(39, 41), stay(38, 40), stay(42, 44), stay(37, 39), stay(43, 45)]);
  });
});

describe('quotes say whether the stay can be sold', () => {
  it('applies the category-wide and the tariff restrictions, and offers the shifts that break none', async () => {
    const { category } = await categoryWithRoom();
    const { body: tariff } = await t.http
      .post(api(owner, '/tariffs'))
      .set(as(owner.accessToken))
      .send({ name: `Тариф ${Math.random().toString(36).slice(2, 8)}` })
      .expect(201);
    await write([
      { category_id: category.id, tariff_id: tariff.id, from: localDay(30), to: localDay(30), min_stay_arrival: 3 },
      { category_id: category.id, from: localDay(29), to: localDay(29), closed_to_arrival: true },
      { category_id: category.id, from: localDay(31), to: localDay(31), closed_to_arrival: true },
    ]);
    const quote = (query: Record<string, unknown>) =>
      t.http
        .get(api(owner, '/quote'))
        .set(as(owner.accessToken))
        .query({ category_id: category.id, ...stay(30, 32), ...query })
        .expect(200);

    const onTariff = (await quote({ tariff_id: tariff.id })).body;
    expect(onTariff).toMatchObject({ total: '8000.00', sellable: false });
    expect(onTariff.restrictions).toEqual([{ restriction: 'min_stay_arrival', night: localDay(30), value: 3 }]);
    expect(onTariff.alternatives).toEqual([stay(28, 30), stay(32, 34), stay(27, 29), stay(33, 35)]);

    // Without the tariff only the category-wide rows apply: the stay is sold as asked.
    expect((await quote({})).body).toMatchObject({ sellable: true, restrictions: [], alternatives: [] });
  });
});

describe('the widget never offers what its booking would refuse', () => {
  it('marks the stay unavailable with the reason and alternatives; the booking is refused, an alternative taken', async () => {
    const hotel = await registerHotel(t);
    const { category } = await categoryWithRoom(hotel);
    await write([{ category_id: category.id, from: localDay(12), to: localDay(12), closed_to_departure: true }], hotel);
    const { body } = await t.http
      .get(`/api/widget/${hotel.slug}/availability`)
      .query({ from: localDay(10), to: localDay(12), guests: 1 })
      .expect(200);
    const [offer] = body.categories;
    expect(offer).toMatchObject({ free: [1, 1], available: false, sellable: false, total: null });
    expect(offer.restrictions).toEqual([{ restriction: 'closed_to_departure', night: localDay(12), value: true }]);
    // Every shift departs on another day: all six, closest first, the earlier first on a tie.
    expect(offer.alternatives).toEqual([
      stay(9, 11),
      stay(11, 13),
      stay(8, 10),
      stay(12, 14),
      stay(7, 9),
      stay(13, 15),
    ]);

    const book = (dates: { check_in: string; check_out: string }) =>
      t.http.post(`/api/widget/${hotel.slug}/bookings`).send({
        category_id: category.id,
        ...dates,
        guests_count: 1,
        guest_last_name: 'Орлова',
        guest_first_name: 'Вера',
        guest_phone: `+7999${String(process.pid % 1000).padStart(3, '0')}${String(Date.now() % 10000).padStart(4, '0')}`,
        guest_email: uniqueEmail('widget-guest'),
      });
    const refused = await book(stay(10, 12)).expect(422);
    expect(refused.body.code).toBe('restriction_closed_to_departure');
    await book(offer.alternatives[0]).expect(201);
  });
});
