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
const guest = { guest_last_name: 'Петрова', guest_first_name: 'Анна' };
type Night = Record<string, unknown> & { night: string; tariff_id: string | null };

async function roomIn(hotel = owner, fields: Record<string, unknown> = {}) {
  const category = await createCategory(t, hotel, { base_price: 5000, ...fields });
  return { category, room: await createRoom(t, hotel, category.id) };
}

async function tariffOf(hotel = owner) {
  const response = await t.http
    .post(api(hotel, '/tariffs'))
    .set(as(hotel.accessToken))
    .send({ name: `Тариф ${Math.random().toString(36).slice(2, 8)}` })
    .expect(201);
  return response.body.id as string;
}

const write = (items: Record<string, unknown>[], token = owner.accessToken, hotel = owner) =>
  t.http.put(api(hotel, '/restrictions')).set(as(token)).send({ items });

async function read(query: Record<string, string>, token = owner.accessToken): Promise<Night[]> {
  const response = await t.http.get(api(owner, '/restrictions')).set(as(token)).query(query).expect(200);
  return response.body;
}

/** The nights read back as `night: value` of one field, for one category (category-wide rows unless a tariff). */
async function valuesOf(categoryId: string, field: string, from: string, to: string, tariffId: string | null = null) {
  const nights = await read({ category_id: categoryId, from, to });
  return Object.fromEntries(
    nights.filter((row) => row.tariff_id === tariffId && row[field] !== null).map((row) => [row.night, row[field]]),
  );
}

const book = (body: Record<string, unknown>, token = owner.accessToken) =>
  t.http
    .post(api(owner, '/bookings'))
    .set(as(token))
    .send({ ...guest, ...body });

describe('writing restrictions in bulk', () => {
  it('a range written over the middle of another leaves two pieces; other fields and tariffs stay as they were', async () => {
    const { category } = await roomIn();
    const tariff = await tariffOf();
    const first = await write([
      { category_id: category.id, from: '2031-05-01', to: '2031-05-07', min_stay_arrival: 3 },
      { category_id: category.id, tariff_id: tariff, from: '2031-05-01', to: '2031-05-07', min_stay_arrival: 5 },
    ]).expect(200);
    expect(first.body).toEqual({ items: 2, nights: 14 });
    await write([
      { category_id: category.id, from: '2031-05-03', to: '2031-05-04', min_stay_arrival: 2, stop_sell: true },
    ]).expect(200);
    expect(await valuesOf(category.id, 'min_stay_arrival', '2031-04-30', '2031-05-08')).toEqual({
      '2031-05-01': 3,
      '2031-05-02': 3,
      '2031-05-03': 2,
      '2031-05-04': 2,
      '2031-05-05': 3,
      '2031-05-06': 3,
      '2031-05-07': 3,
    });
    expect(await valuesOf(category.id, 'min_stay_arrival', '2031-05-01', '2031-05-07', tariff)).toEqual(
      Object.fromEntries(['01', '02', '03', '04', '05', '06', '07'].map((d) => [`2031-05-${d}`, 5])),
    );

    // Cleared in the middle: the field goes, the stop-sell written with it stays; written back, the range is whole.
    await write([{ category_id: category.id, from: '2031-05-02', to: '2031-05-05', min_stay_arrival: null }]).expect(
      200,
    );
    expect(await valuesOf(category.id, 'min_stay_arrival', '2031-05-01', '2031-05-07')).toEqual({
      '2031-05-01': 3,
      '2031-05-06': 3,
      '2031-05-07': 3,
    });
    expect(await valuesOf(category.id, 'stop_sell', '2031-05-01', '2031-05-07')).toEqual({
      '2031-05-01': false,
      '2031-05-03': true,
      '2031-05-04': true,
      '2031-05-06': false,
      '2031-05-07': false,
    });
    await write([{ category_id: category.id, from: '2031-05-02', to: '2031-05-05', min_stay_arrival: 3 }]).expect(200);
    expect(Object.values(await valuesOf(category.id, 'min_stay_arrival', '2031-05-01', '2031-05-07'))).toEqual(
      Array(7).fill(3),
    );

    // Everything cleared: the nights have no entry left at all.
    await write([
      { category_id: category.id, from: '2031-05-01', to: '2031-05-07', min_stay_arrival: null, stop_sell: false },
      { category_id: category.id, tariff_id: tariff, from: '2031-05-01', to: '2031-05-07', min_stay_arrival: null },
    ]).expect(200);
    expect(await read({ category_id: category.id, from: '2031-05-01', to: '2031-05-07' })).toEqual([]);
  });

  it('writes only the weekdays named, and reads back every field of a night', async () => {
    const { category } = await roomIn();
    // 2031-09-01 is a Monday: Saturdays and Sundays of two weeks.
    await write([
      { category_id: category.id, from: '2031-09-01', to: '2031-09-14', weekdays: [6, 7], closed_to_arrival: true },
    ]).expect(200);
    const nights = await read({ category_id: category.id, from: '2031-09-01', to: '2031-09-30' });
    expect(nights.map((row) => row.night)).toEqual(['2031-09-06', '2031-09-07', '2031-09-13', '2031-09-14']);
    expect(nights[0]).toEqual({
      category_id: category.id,
      tariff_id: null,
      night: '2031-09-06',
      min_stay_arrival: null,
      min_stay_through: null,
      max_stay: null,
      closed_to_arrival: true,
      closed_to_departure: false,
      stop_sell: false,
      min_advance_days: null,
      max_advance_days: null,
    });
  });

  it('reads by category and by tariff, at most 366 nights at once', async () => {
    const { category } = await roomIn();
    const { category: second } = await roomIn();
    const tariff = await tariffOf();
    await write([
      { category_id: category.id, from: '2031-10-01', to: '2031-10-01', max_stay: 7 },
      { category_id: second.id, from: '2031-10-01', to: '2031-10-01', max_stay: 8 },
      { category_id: second.id, tariff_id: tariff, from: '2031-10-01', to: '2031-10-01', max_stay: 9 },
    ]).expect(200);
    const all = await read({ from: '2031-10-01', to: '2031-10-01' });
    expect(all.map((row) => row.max_stay).sort()).toEqual([7, 8, 9]);
    expect((await read({ from: '2031-10-01', to: '2031-10-01', tariff_id: tariff })).map((r) => r.max_stay)).toEqual([
      9,
    ]);
    expect(
      (await read({ from: '2031-10-01', to: '2031-10-01', category_id: second.id })).map((r) => r.tariff_id),
    ).toEqual([null, tariff]);
    await read({ from: '2031-01-01', to: '2032-01-01', category_id: second.id }); // 366 nights, one category
    await read({ from: '2031-10-01', to: '2031-10-31' }); // every category: 31 nights
    const allTooWide = await t.http
      .get(api(owner, '/restrictions'))
      .set(as(owner.accessToken))
      .query({ from: '2031-10-01', to: '2031-11-01' })
      .expect(400);
    expect(allTooWide.body.code).toBe('validation_failed');
    const tooWide = await t.http
      .get(api(owner, '/restrictions'))
      .set(as(owner.accessToken))
      .query({ from: '2031-01-01', to: '2032-01-02', category_id: second.id })
      .expect(400);
    expect(tooWide.body.code).toBe('validation_failed');
    await t.http
      .get(api(owner, '/restrictions'))
      .set(as(owner.accessToken))
      .query({ from: '2031-02-01', to: '2031-01-01' })
      .expect(400);
    await t.http.get(api(owner, '/restrictions')).set(as(owner.accessToken)).query({ from: '2031-02-01' }).expect(400);
  });

  it('refuses bad items with 400 and writes nothing of the batch', async () => {
    const { category } = await roomIn();
    const ok = { category_id: category.id, from: '2032-01-01', to: '2032-01-02', stop_sell: true };
    const bad: Record<string, unknown>[] = [
      { ...ok, to: '2034-01-02' }, // over 731 nights
      { ...ok, from: '1999-12-31' }, // before the calendar of restrictions
      { ...ok, to: '2100-01-01' },
      { ...ok, from: '2032-01-03' }, // ends before it starts
      { category_id: category.id, from: '2032-01-01', to: '2032-01-02' }, // no field
      { ...ok, min_stay_arrival: 0 },
      { ...ok, max_stay: 366 },
      { ...ok, min_advance_days: -1 },
      { ...ok, max_advance_days: 732 },
      { ...ok, weekdays: [0] },
      { ...ok, weekdays: [1, 1] },
      { ...ok, stop_sell: 'yes' },
      { ...ok, category_id: 'not-a-uuid' },
      { ...ok, min_stay_arrival: 5, max_stay: 4 }, // contradictory in one item
      { ...ok, min_advance_days: 10, max_advance_days: 9 },
    ];
    for (const item of bad) {
      const response = await write([ok, item]);
      expect([response.status, response.body.code, item]).toEqual([400, 'validation_failed', item]);
    }
    await write([{ ...ok, min_stay_arrival: 4, max_stay: 4, min_advance_days: 9, max_advance_days: 9 }]).expect(200);
    await write([{ ...ok, stop_sell: null, min_stay_arrival: null, max_stay: null }]).expect(200);
    await write(Array(101).fill(ok)).expect(400);
    await write([]).expect(400);
    await write(Array(100).fill(ok)).expect(200);
    await write([{ ...ok, from: '2032-02-01', to: '2034-01-31' }]).expect(200); // 731 nights
    expect(await read({ category_id: category.id, from: '2032-01-01', to: '2032-01-31' })).toHaveLength(2);
  });

  it("refuses another hotel's category or tariff, writing nothing; the other hotel sees nothing of it", async () => {
    const { category } = await roomIn();
    const { category: foreign } = await roomIn(other);
    const foreignTariff = await tariffOf(other);
    const mine = { category_id: category.id, from: '2032-03-01', to: '2032-03-02', closed_to_departure: true };
    const response = await write([mine, { ...mine, category_id: foreign.id }]).expect(400);
    expect(response.body.details).toEqual([{ path: 'body.items.1.category_id', message: 'Категория не найдена' }]);
    const byTariff = await write([mine, { ...mine, tariff_id: foreignTariff }]).expect(400);
    expect(byTariff.body.details[0].path).toBe('body.items.1.tariff_id');
    expect(await read({ category_id: category.id, from: '2032-03-01', to: '2032-03-02' })).toEqual([]);
    await write([mine]).expect(200);
    const theirs = await t.http
      .get(api(other, '/restrictions'))
      .set(as(other.accessToken))
      .query({ from: '2032-03-01', to: '2032-03-02', category_id: category.id })
      .expect(200);
    expect(theirs.body).toEqual([]);
    await write([mine], other.accessToken).expect(403);
  });

  it('bulk writes at once over the same nights in opposite orders all succeed, one after another', async () => {
    const [{ category: x }, { category: y }] = await Promise.all([roomIn(), roomIn()]);
    const item = (category_id: string, value: number) => ({
      category_id,
      from: '2033-01-01',
      to: '2034-12-31',
      min_stay_through: value,
    });
    const writes = Array.from({ length: 8 }, (_, i) =>
      write(i % 2 ? [item(x.id, i + 1), item(y.id, i + 1)] : [item(y.id, i + 1), item(x.id, i + 1)]),
    );
    const statuses = (await Promise.all(writes)).map((response) => response.status);
    expect(statuses).toEqual(Array(8).fill(200));
    // One write won every night of both categories: they ran one after another, not interleaved.
    const nights = await read({ from: '2033-06-01', to: '2033-06-01' });
    const values = nights.filter((row) => [x.id, y.id].includes(row.category_id as string));
    expect(new Set(values.map((row) => row.min_stay_through)).size).toBe(1);
  });

  it('management writes; the staff who see bookings read; housekeeping neither', async () => {
    const { category } = await roomIn();
    const item = { category_id: category.id, from: '2032-04-01', to: '2032-04-01', stop_sell: true };
    for (const role of ['receptionist', 'accountant', 'security']) {
      const member = await addStaff(t, owner, role);
      await write([item], member.accessToken).expect(403);
      await read({ from: '2032-04-01', to: '2032-04-01' }, member.accessToken);
    }
    const housekeeper = await addStaff(t, owner, 'housekeeper');
    await t.http
      .get(api(owner, '/restrictions'))
      .set(as(housekeeper.accessToken))
      .query({ from: '2032-04-01', to: '2032-04-01' })
      .expect(403);
    const manager = await addStaff(t, owner, 'manager');
    await write([item], manager.accessToken).expect(200);
    expect(await read({ category_id: category.id, from: '2032-04-01', to: '2032-04-01' })).toHaveLength(1);
  });
});

describe('restrictions applied to the stays staff make', () => {
  /** Expects a refusal of `restriction` on `night`, nothing booked. */
  async function expectRefused(body: Record<string, unknown>, restriction: string, night: string, value: unknown) {
    const response = await book(body).expect(422);
    expect(response.body).toMatchObject({ code: `restriction_${restriction}`, status: 422 });
    expect(response.body.detail).toContain(night);
    expect(response.body.restrictions).toContainEqual({ restriction, night, value });
  }

  it('refuses each restriction with its code, naming its night', async () => {
    const { category, room } = await roomIn(owner, { allow_hourly: true, hourly_base_price: 500 });
    const tariff = await tariffOf();
    const on = (from: string, fields: Record<string, unknown>, to = from) => ({
      category_id: category.id,
      from,
      to,
      ...fields,
    });
    await write([
      on('2031-06-01', { min_stay_arrival: 3 }),
      on('2031-06-11', { min_stay_through: 3 }),
      on('2031-06-20', { max_stay: 2 }),
      on('2031-06-25', { closed_to_arrival: true }),
      on('2031-06-28', { closed_to_departure: true }),
      on('2031-07-02', { stop_sell: true }),
      on(localDay(2), { min_advance_days: 3 }),
      on(localDay(40), { max_advance_days: 30 }),
      { ...on('2031-07-10', { closed_to_arrival: true }), tariff_id: tariff },
    ]).expect(200);
    const stay = (check_in: string, check_out: string, more: Record<string, unknown> = {}) => ({
      room_id: room.id,
      check_in,
      check_out,
      ...more,
    });
    await expectRefused(stay('2031-06-01', '2031-06-03'), 'min_stay_arrival', '2031-06-01', 3);
    await expectRefused(stay('2031-06-10', '2031-06-12'), 'min_stay_through', '2031-06-11', 3);
    await expectRefused(stay('2031-06-20', '2031-06-23'), 'max_stay', '2031-06-20', 2);
    await expectRefused(stay('2031-06-25', '2031-06-26'), 'closed_to_arrival', '2031-06-25', true);
    await expectRefused(stay('2031-06-27', '2031-06-28'), 'closed_to_departure', '2031-06-28', true);
    await expectRefused(stay('2031-07-01', '2031-07-03'), 'stop_sell', '2031-07-02', true);
    await expectRefused(stay(localDay(2), localDay(3)), 'min_advance_days', localDay(2), 3);
    await expectRefused(stay(localDay(40), localDay(41)), 'max_advance_days', localDay(40), 30);
    await expectRefused(
      stay('2031-07-10', '2031-07-11', { tariff_id: tariff }),
      'closed_to_arrival',
      '2031-07-10',
      true,
    );
    expect(
      (await t.http.get(api(owner, '/bookings')).set(as(owner.accessToken)).query({ room_id: room.id })).body,
    ).toEqual([]);

    // What each restriction lets through: a stay long enough, through a minimum read on arrival only, around
    // closed nights, on another tariff, and an hourly stay (it has no nights).
    await book(stay('2031-06-01', '2031-06-04')).expect(201);
    await book(stay('2031-05-30', '2031-06-01')).expect(201);
    await book(stay('2031-06-09', '2031-06-10')).expect(201);
    await book(stay('2031-06-20', '2031-06-22')).expect(201);
    await book(stay('2031-06-24', '2031-06-25')).expect(201);
    await book(stay('2031-06-26', '2031-06-27')).expect(201);
    await book(stay('2031-07-03', '2031-07-04')).expect(201);
    await book(stay(localDay(3), localDay(4))).expect(201);
    await book(stay('2031-07-10', '2031-07-11')).expect(201);
    // Through the nights of the arrival minimum and of the closed arrival without arriving on them (another room).
    const second = await createRoom(t, owner, category.id);
    await book({ ...stay('2031-05-31', '2031-06-02'), room_id: second.id }).expect(201);
    await book({ ...stay('2031-06-24', '2031-06-27'), room_id: second.id }).expect(201);
    // An hourly stay on a stop-sold night has no nights: not refused.
    const hourly = await book({ room_id: room.id, start_at: '2031-07-02T09:00:00Z', end_at: '2031-07-02T11:00:00Z' });
    expect([hourly.status, hourly.body.kind, hourly.body.restrictions_override]).toEqual([201, 'hourly', null]);
  });

  it('a change of dates is refused for what it breaks anew, not for what the stay held before', async () => {
    const { category, room } = await roomIn();
    const created = await book({ room_id: room.id, check_in: '2031-08-01', check_out: '2031-08-05' }).expect(201);
    expect(created.body.restrictions_override).toBeNull();
    await write([
      { category_id: category.id, from: '2031-08-02', to: '2031-08-02', stop_sell: true },
      { category_id: category.id, from: '2031-08-06', to: '2031-08-06', stop_sell: true },
    ]).expect(200);
    const patch = (body: Record<string, unknown>, token = owner.accessToken) =>
      t.http
        .patch(api(owner, `/bookings/${created.body.id}`))
        .set(as(token))
        .send(body);
    const longer = await patch({ check_out: '2031-08-07' }).expect(422);
    expect(longer.body).toMatchObject({ code: 'restriction_stop_sell', restrictions: [expect.any(Object)] });
    expect(longer.body.restrictions).toEqual([{ restriction: 'stop_sell', night: '2031-08-06', value: true }]);
    await patch({ check_out: '2031-08-04' }).expect(200);
    await patch({ check_in: '2031-08-06', check_out: '2031-08-08' }).expect(422);
    const moved = await patch({ check_in: '2031-08-06', check_out: '2031-08-08', override_restrictions: true });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({
      check_in: '2031-08-06',
      restrictions_override: {
        by: owner.userId,
        at: expect.any(String),
        restrictions: [{ restriction: 'stop_sell', night: '2031-08-06', value: true }],
      },
    });
  });

  it("a change of tariff alone is checked against the new tariff's own restrictions", async () => {
    const { category, room } = await roomIn();
    const tariff = await tariffOf();
    const created = await book({ room_id: room.id, check_in: '2031-09-10', check_out: '2031-09-12' }).expect(201);
    await write([
      { category_id: category.id, tariff_id: tariff, from: '2031-09-10', to: '2031-09-10', closed_to_arrival: true },
    ]).expect(200);
    const patch = (body: Record<string, unknown>) =>
      t.http
        .patch(api(owner, `/bookings/${created.body.id}`))
        .set(as(owner.accessToken))
        .send(body);
    const refused = await patch({ tariff_id: tariff }).expect(422);
    expect(refused.body.restrictions).toEqual([{ restriction: 'closed_to_arrival', night: '2031-09-10', value: true }]);
    // Also when the price was set by hand (nothing is re-priced): the check does not hang on the price.
    await patch({ price: '9000.00' }).expect(200);
    await patch({ tariff_id: tariff }).expect(422);
    const sold = await patch({ tariff_id: tariff, override_restrictions: true }).expect(200);
    expect(sold.body).toMatchObject({ tariff_id: tariff, restrictions_override: { by: owner.userId } });
  });

  it('a move into another category closed on the same night, or onto a stricter tariff, is broken anew', async () => {
    const [{ category, room }, { category: other, room: otherRoom }] = await Promise.all([roomIn(), roomIn()]);
    const tariff = await tariffOf();
    const created = await book({ room_id: room.id, check_in: '2031-10-01', check_out: '2031-10-03' }).expect(201);
    await write([
      { category_id: category.id, from: '2031-10-02', to: '2031-10-02', stop_sell: true },
      { category_id: other.id, from: '2031-10-02', to: '2031-10-02', stop_sell: true },
      { category_id: category.id, from: '2031-10-01', to: '2031-10-01', min_stay_arrival: 3 },
      { category_id: category.id, tariff_id: tariff, from: '2031-10-01', to: '2031-10-01', min_stay_arrival: 4 },
    ]).expect(200);
    const patch = (body: Record<string, unknown>) =>
      t.http
        .patch(api(owner, `/bookings/${created.body.id}`))
        .set(as(owner.accessToken))
        .send(body);
    const moved = await patch({ room_id: otherRoom.id }).expect(422);
    expect(moved.body.restrictions).toEqual([{ restriction: 'stop_sell', night: '2031-10-02', value: true }]);
    const stricter = await patch({ tariff_id: tariff }).expect(422);
    expect(stricter.body.restrictions).toEqual([{ restriction: 'min_stay_arrival', night: '2031-10-01', value: 4 }]);
    // What it broke already, on its own category and rows, does not refuse a change of something else.
    await patch({ guests_count: 1 }).expect(200);
    // The flag alone changes nothing: refused like an empty change, the booking untouched.
    const before = (await t.http.get(api(owner, `/bookings/${created.body.id}`)).set(as(owner.accessToken))).body;
    const flagOnly = await patch({ override_restrictions: true }).expect(400);
    expect(flagOnly.body.code).toBe('validation_failed');
    const after = (await t.http.get(api(owner, `/bookings/${created.body.id}`)).set(as(owner.accessToken))).body;
    expect(after.updated_at).toBe(before.updated_at);
  });

  it('a shorter stay is never refused; a guest in house is checked only on the nights added', async () => {
    const [{ category, room }, { category: second, room: secondRoom }] = await Promise.all([roomIn(), roomIn()]);
    const [inHouse, ahead] = await Promise.all([
      book({ room_id: room.id, check_in: '2031-12-01', check_out: '2031-12-05' }).expect(201),
      book({ room_id: secondRoom.id, check_in: '2031-12-01', check_out: '2031-12-05' }).expect(201),
    ]);
    const patch = (id: string, body: Record<string, unknown>) =>
      t.http
        .patch(api(owner, `/bookings/${id}`))
        .set(as(owner.accessToken))
        .send(body);
    await patch(inHouse.body.id, { status: 'checked_in' }).expect(200);
    const on = (night: string, fields: Record<string, unknown>) =>
      [category.id, second.id].map((category_id) => ({ category_id, from: night, to: night, ...fields }));
    await write([
      ...on('2031-12-01', { min_stay_arrival: 3 }),
      ...on('2031-12-03', { closed_to_departure: true }),
      ...on('2031-12-05', { closed_to_departure: true }),
      ...on('2031-12-06', { stop_sell: true }),
      ...on('2031-12-07', { closed_to_departure: true }),
      ...on('2031-12-08', { min_stay_through: 10 }),
    ]).expect(200);
    // Shorter, onto a closed departure and under the arrival's minimum: in house or not, it only removes nights.
    await patch(inHouse.body.id, { check_out: '2031-12-03' }).expect(200);
    await patch(ahead.body.id, { check_out: '2031-12-03' }).expect(200);
    // In house, longer: the departure day is not read, the nights added are.
    await patch(inHouse.body.id, { check_out: '2031-12-05' }).expect(200);
    const stopped = await patch(inHouse.body.id, { check_out: '2031-12-07' }).expect(422);
    expect(stopped.body.restrictions).toEqual([{ restriction: 'stop_sell', night: '2031-12-06', value: true }]);
    const through = await patch(inHouse.body.id, { check_out: '2031-12-09' }).expect(422);
    expect(through.body.restrictions).toContainEqual({
      restriction: 'min_stay_through',
      night: '2031-12-08',
      value: 10,
    });
    // Not in house, longer: the whole stay is checked (here its departure day).
    const departure = await patch(ahead.body.id, { check_out: '2031-12-05' }).expect(422);
    expect(departure.body.restrictions).toEqual([
      { restriction: 'closed_to_departure', night: '2031-12-05', value: true },
    ]);
  });

  it('management overrides with an explicit flag, recorded on the booking; the desk may not', async () => {
    const { category, room } = await roomIn();
    await write([{ category_id: category.id, from: '2031-11-01', to: '2031-11-03', min_stay_through: 4 }]).expect(200);
    const body = { room_id: room.id, check_in: '2031-11-01', check_out: '2031-11-03', override_restrictions: true };
    const desk = await addStaff(t, owner, 'receptionist');
    const refused = await book(body, desk.accessToken).expect(403);
    expect(refused.body.code).toBe('forbidden');
    // On a change too, whatever it changes.
    const plainStay = await book({ ...body, check_in: '2031-11-10', check_out: '2031-11-11' }).expect(201);
    for (const change of [{ check_out: '2031-11-12' }, { notes: 'late arrival' }])
      await t.http
        .patch(api(owner, `/bookings/${plainStay.body.id}`))
        .set(as(desk.accessToken))
        .send({ ...change, override_restrictions: true })
        .expect(403);
    await book({ ...body, override_restrictions: false }, desk.accessToken).expect(422);
    const manager = await addStaff(t, owner, 'manager');
    const sold = await book(body, manager.accessToken).expect(201);
    const record = {
      by: manager.id,
      at: expect.any(String),
      restrictions: [
        { restriction: 'min_stay_through', night: '2031-11-01', value: 4 },
        { restriction: 'min_stay_through', night: '2031-11-02', value: 4 },
      ],
    };
    expect(sold.body.restrictions_override).toEqual(record);
    const read = await t.http
      .get(api(owner, `/bookings/${sold.body.id}`))
      .set(as(desk.accessToken))
      .expect(200);
    expect(read.body.restrictions_override).toEqual(record);
    // The flag where nothing is broken records nothing.
    const plain = await book({ ...body, check_in: '2031-11-05', check_out: '2031-11-06' }, manager.accessToken);
    expect(plain.status).toBe(201);
    expect(plain.body.restrictions_override).toBeNull();
  });
});
