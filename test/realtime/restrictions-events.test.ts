import { as, registerHotel, type RegisteredHotel } from '../helpers/accounts';
import { localDay } from '../helpers/dates';
import { connectStaff, startTestServer, type StaffClient, type TestServer } from '../helpers/realtime';
import { createCategory } from '../helpers/structure';

let t: TestServer;
let owner: RegisteredHotel;
let other: RegisteredHotel;
let desk: StaffClient;
let stranger: StaffClient;

beforeAll(async () => {
  t = await startTestServer();
  [owner, other] = await Promise.all([registerHotel(t), registerHotel(t)]);
  desk = await connectStaff(t.wsUrl, owner.accessToken);
  stranger = await connectStaff(t.wsUrl, other.accessToken);
});
afterAll(async () => {
  await desk.close();
  await stranger.close();
  await t.close();
});

const write = (hotel: RegisteredHotel, items: Record<string, unknown>[]) =>
  t.http.put(`/api/hotels/${hotel.slug}/restrictions`).set(as(hotel.accessToken)).send({ items });
const changed = (categoryId: string) => (message: { type: string; payload?: Record<string, unknown> }) =>
  message.type === 'restrictions_changed' &&
  (message.payload?.items as { category_id: string }[]).some((item) => item.category_id === categoryId);

describe('restrictions realtime events', () => {
  it('the revenue calendar hears each bulk write of its own hotel, with the ranges and fields it changed', async () => {
    const category = await createCategory(t, owner);
    const from = localDay(10);
    const to = localDay(16);
    await write(owner, [
      { category_id: category.id, from, to, stop_sell: true },
      { category_id: category.id, from: to, to, min_stay_arrival: 3, max_stay: null },
    ]).expect(200);

    expect(await desk.next(changed(category.id))).toEqual({
      id: expect.any(Number),
      type: 'restrictions_changed',
      payload: {
        items: [
          { category_id: category.id, tariff_id: null, from, to, fields: ['stop_sell'] },
          { category_id: category.id, tariff_id: null, from: to, to, fields: ['min_stay_arrival', 'max_stay'] },
        ],
        nights: expect.any(Number),
      },
    });

    // Another hotel's write is heard by its own staff only.
    const theirs = await createCategory(t, other);
    await write(other, [{ category_id: theirs.id, from, to, closed_to_arrival: true }]).expect(200);
    await stranger.next(changed(theirs.id));
    expect(desk.collected.some(changed(theirs.id))).toBe(false);
  });

  it('a refused write announces nothing', async () => {
    const category = await createCategory(t, owner);
    const marker = await createCategory(t, owner);
    // The second item's dates run backwards: the batch is refused whole, its first item unwritten, and not announced.
    await write(owner, [
      { category_id: category.id, from: localDay(3), to: localDay(4), stop_sell: true },
      { category_id: category.id, from: localDay(9), to: localDay(5), stop_sell: true },
    ]).expect(400);
    await write(owner, [{ category_id: marker.id, from: localDay(3), to: localDay(4), stop_sell: true }]).expect(200);
    await desk.next(changed(marker.id));
    expect(desk.collected.some(changed(category.id))).toBe(false);
  });
});
