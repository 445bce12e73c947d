import { createTestApp, type TestApp } from '../helpers/app';
import { addStaff, as, registerHotel, type RegisteredHotel } from '../helpers/accounts';
import { localDay } from '../helpers/dates';
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
const calendar = (query: Record<string, string>, token = owner.accessToken, hotel = owner) =>
  t.http.get(api(hotel, '/availability/calendar')).set(as(token)).query(query);

interface CalendarCategory {
  category_id: string;
  total_rooms: number;
  free: number[];
  restrictions: Record<string, unknown>[];
}

describe('the revenue calendar', () => {
  it('counts the rooms to sell per category and night over a year, with the category-wide restrictions', async () => {
    const hotel = await registerHotel(t);
    const standard = await createCategory(t, hotel, { base_price: 4000 });
    const suite = await createCategory(t, hotel, { base_price: 9000 });
    const [first] = await Promise.all([createRoom(t, hotel, standard.id), createRoom(t, hotel, standard.id)]);
    await createRoom(t, hotel, suite.id);
    await t.http
      .post(api(hotel, '/bookings'))
      .set(as(hotel.accessToken))
      .send({
        room_id: first.id,
        check_in: localDay(3),
        check_out: localDay(5),
        guest_last_name: 'Иванов',
        guest_first_name: 'Пётр',
      })
      .expect(201);
    const tariff = await t.http
      .post(api(hotel, '/tariffs'))
      .set(as(hotel.accessToken))
      .send({ name: 'Невозвратный' })
      .expect(201);
    await t.http
      .put(api(hotel, '/restrictions'))
      .set(as(hotel.accessToken))
      .send({
        items: [
          { category_id: suite.id, from: localDay(360), to: localDay(365), stop_sell: true },
          { category_id: standard.id, from: localDay(4), to: localDay(4), min_stay_arrival: 2 },
          // A tariff's own restriction is not the category's: the calendar leaves it to GET /restrictions.
          { category_id: standard.id, tariff_id: tariff.body.id, from: localDay(7), to: localDay(7), stop_sell: true },
        ],
      })
      .expect(200);

    const { body } = await calendar({ from: localDay(0), to: localDay(366) }, hotel.accessToken, hotel).expect(200);
    expect(body.nights).toHaveLength(366);
    expect(body.nights[365]).toBe(localDay(365));
    const byId = new Map<string, CalendarCategory>(body.categories.map((c: CalendarCategory) => [c.category_id, c]));
    const standardNights = byId.get(standard.id)!;
    expect(standardNights.total_rooms).toBe(2);
    expect(standardNights.free.slice(2, 6)).toEqual([2, 1, 1, 2]);
    expect(standardNights.restrictions).toEqual([
      expect.objectContaining({ night: localDay(4), min_stay_arrival: 2, stop_sell: false }),
    ]);
    const suiteNights = byId.get(suite.id)!;
    expect(suiteNights.free.every((free) => free === 1)).toBe(true);
    expect(suiteNights.restrictions.map((night) => [night.night, night.stop_sell])).toEqual(
      [360, 361, 362, 363, 364, 365].map((offset) => [localDay(offset), true]),
    );

    // One category only, and what a change commits is in the next answer at once.
    await t.http
      .put(api(hotel, '/restrictions'))
      .set(as(hotel.accessToken))
      .send({ items: [{ category_id: suite.id, from: localDay(360), to: localDay(365), stop_sell: null }] })
      .expect(200);
    const again = await calendar(
      { from: localDay(0), to: localDay(366), category_id: suite.id },
      hotel.accessToken,
      hotel,
    );
    expect(again.body.categories).toEqual([
      {
        category_id: suite.id,
        total_rooms: 1,
        free: new Array(366).fill(1),
        held: new Array(366).fill(0),
        restrictions: [],
      },
    ]);
  });

  it('bounds the window to 366 nights, refusing a backwards one', async () => {
    await calendar({ from: localDay(0), to: localDay(367) }).expect(400);
    await calendar({ from: localDay(5), to: localDay(5) }).expect(400);
    await calendar({ from: localDay(5), to: localDay(2) }).expect(400);
    await calendar({ from: 'tomorrow', to: localDay(2) }).expect(400);
  });

  it("is for the staff who see bookings, and never shows another hotel's categories", async () => {
    const theirs = await createCategory(t, other);
    await createRoom(t, other, theirs.id);
    const { body } = await calendar({ from: localDay(0), to: localDay(30) }).expect(200);
    expect(body.categories.map((c: CalendarCategory) => c.category_id)).not.toContain(theirs.id);
    const foreign = await calendar({ from: localDay(0), to: localDay(30), category_id: theirs.id }).expect(200);
    expect(foreign.body.categories).toEqual([]);
    const housekeeper = await addStaff(t, owner, 'housekeeper');
    await calendar({ from: localDay(0), to: localDay(30) }, housekeeper.accessToken).expect(403);
    await calendar({ from: localDay(0), to: localDay(30) }, owner.accessToken, other).expect(403);
  });
});
