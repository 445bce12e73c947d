import { createTestApp, type TestApp } from '../helpers/app';
import { addStaff, as, registerHotel, uniqueEmail, type RegisteredHotel } from '../helpers/accounts';
import { localDay } from '../helpers/dates';
import { createCategory, createRoom } from '../helpers/structure';
import { until } from '../helpers/wait';

let t: TestApp;
let owner: RegisteredHotel;
let other: RegisteredHotel;
beforeAll(async () => {
  t = createTestApp();
  [owner, other] = await Promise.all([registerHotel(t), registerHotel(t)]);
  await t.http
    .patch(api(owner, '/settings'))
    .set(as(owner.accessToken))
    .send({ room_assignment_strategy: 'sequential' })
    .expect(200);
});
afterAll(() => t.close());

const api = (hotel: RegisteredHotel, path: string) => `/api/hotels/${hotel.slug}${path}`;
const guest = (n: number) => ({ guest_last_name: 'Иванов', guest_first_name: `Гость ${n}` });
const nights = (from: number, to: number) => ({ check_in: localDay(from), check_out: localDay(to) });

/** A category of `count` rooms (of the hotel), its rooms in number order. */
async function categoryOf(count: number, hotel = owner) {
  const category = await createCategory(t, hotel, { base_price: 4000 });
  const rooms = [];
  for (let i = 0; i < count; i++) rooms.push(await createRoom(t, hotel, category.id));
  return { category, rooms };
}

const createBlock = (body: Record<string, unknown>, token = owner.accessToken, hotel = owner) =>
  t.http
    .post(api(hotel, '/blocks'))
    .set(as(token))
    .send({ name: 'Конференция', ...body });

/** `rooms` units of the category held on nights `from`..`to` (offsets from today, inclusive). */
const held = (categoryId: string, from: number, to: number, rooms: number) => ({
  category_id: categoryId,
  from: localDay(from),
  to: localDay(to),
  rooms,
});

const patchBlock = (id: string, body: Record<string, unknown>, token = owner.accessToken) =>
  t.http
    .patch(api(owner, `/blocks/${id}`))
    .set(as(token))
    .send(body);

const book = (body: Record<string, unknown>, n = 0) =>
  t.http
    .post(api(owner, '/bookings'))
    .set(as(owner.accessToken))
    .send({ ...guest(n), ...body });

const pickup = (id: string, guests: Record<string, unknown>[]) =>
  t.http
    .post(api(owner, `/blocks/${id}/pickup`))
    .set(as(owner.accessToken))
    .send({ guests });

/**
 * Racing requests, answered by an app whose clients are patient: they queue at the hotel's bulkhead and on the
 * category's lock, and on a loaded machine the last could otherwise wait past the default bounds (a 503, not what
 * these tests are about).
 */
async function patiently(requests: (app: TestApp) => PromiseLike<{ status: number; body: { code?: string } }>[]) {
  const patient = createTestApp({
    HOTEL_QUEUE_TIMEOUT_MS: '120000',
    DATABASE_API_LOCK_TIMEOUT_MS: '60000',
    DATABASE_API_STATEMENT_TIMEOUT_MS: '60000',
  });
  return Promise.all(requests(patient)).finally(() => patient.close());
}

async function availableIn(categoryId: string, from: number, to: number) {
  const { body } = await t.http
    .get(api(owner, '/availability'))
    .set(as(owner.accessToken))
    .query({ from: localDay(from), to: localDay(to), category_id: categoryId })
    .expect(200);
  return body.categories[0] as { free: number[]; sellable: boolean };
}

describe('blocks: what they are and who writes them', () => {
  it('creates a block with per-night counts, reads it back, lists and changes it', async () => {
    const { category } = await categoryOf(3);
    const created = await createBlock({
      company: 'ООО Ромашка',
      contact_name: 'Пётр',
      contact_email: uniqueEmail('block'),
      price_per_night: '3500',
      allotment: [held(category.id, 40, 41, 2), held(category.id, 42, 42, 3)],
    }).expect(201);
    expect(created.body).toMatchObject({ status: 'inquiry', company: 'ООО Ромашка', price_per_night: '3500.00' });
    expect(created.body.nights.map((n: { night: string; rooms: number }) => [n.night, n.rooms])).toEqual([
      [localDay(40), 2],
      [localDay(41), 2],
      [localDay(42), 3],
    ]);
    const { body: read } = await t.http
      .get(api(owner, `/blocks/${created.body.id}`))
      .set(as(owner.accessToken))
      .expect(200);
    expect(read).toMatchObject({ id: created.body.id, bookings: [] });
    const list = await t.http.get(api(owner, '/blocks')).set(as(owner.accessToken)).expect(200);
    expect(list.body.map((block: { id: string }) => block.id)).toContain(created.body.id);

    const changed = await patchBlock(created.body.id, {
      status: 'definite',
      allotment: [held(category.id, 40, 40, 1)],
    });
    expect(changed.status).toBe(200);
    expect(changed.body.status).toBe('definite');
    expect(changed.body.nights).toEqual([
      { category_id: category.id, night: localDay(40), rooms: 1, released: 0, washed: 0, picked_up: 0, free: 1 },
    ]);
  });

  it('refuses bad allotments with a 400 naming the item: more than the rooms, overlaps, over two years, another hotel', async () => {
    const { category } = await categoryOf(2);
    const tooMany = await createBlock({ allotment: [held(category.id, 40, 41, 3)] }).expect(400);
    expect(tooMany.body.details[0].path).toBe('body.allotment.0.rooms');
    const overlap = await createBlock({
      allotment: [held(category.id, 40, 42, 1), held(category.id, 42, 43, 1)],
    }).expect(400);
    expect(overlap.body.details[0].path).toBe('body.allotment.1.from');
    await createBlock({ allotment: [held(category.id, 40, 40 + 731, 1)] }).expect(400);
    await createBlock({ allotment: [held(category.id, 10, 11, 1), held(category.id, 800, 800, 1)] }).expect(400);
    const foreign = await categoryOf(1, other);
    await createBlock({ allotment: [held(foreign.category.id, 40, 41, 1)] }).expect(400);
    await createBlock({ allotment: [held(category.id, 40, 41, 1)], tariff_id: null, price_per_night: '-1' }).expect(
      400,
    );
    const list = await t.http.get(api(owner, '/blocks')).set(as(owner.accessToken)).query({ status: 'inquiry' });
    expect(list.body.every((block: { name: string }) => block.name === 'Конференция')).toBe(true);
  });

  it('the desk and management write blocks; the accountant reads them; housekeeping and other hotels get nothing', async () => {
    const { category } = await categoryOf(1);
    const [receptionist, accountant, housekeeper] = await Promise.all(
      ['receptionist', 'accountant', 'housekeeper'].map((role) => addStaff(t, owner, role)),
    );
    const block = await createBlock({ allotment: [held(category.id, 40, 40, 1)] }, receptionist.accessToken).expect(
      201,
    );
    await createBlock({ allotment: [held(category.id, 40, 40, 1)] }, accountant.accessToken).expect(403);
    await t.http
      .get(api(owner, `/blocks/${block.body.id}`))
      .set(as(accountant.accessToken))
      .expect(200);
    await t.http
      .get(api(owner, `/blocks/${block.body.id}`))
      .set(as(housekeeper.accessToken))
      .expect(403);
    await patchBlock(block.body.id, { name: 'Другое' }, accountant.accessToken).expect(403);
    await t.http
      .get(api(other, `/blocks/${block.body.id}`))
      .set(as(other.accessToken))
      .expect(404);
  });
});

describe('blocks hold inventory', () => {
  it('a block that would hold rooms already booked is refused with 409 and says which night; an inquiry holds nothing', async () => {
    const { category } = await categoryOf(2);
    await book({ category_id: category.id, ...nights(50, 51) }).expect(201);
    const refused = await createBlock({ status: 'tentative', allotment: [held(category.id, 49, 50, 2)] }).expect(409);
    expect(refused.body.code).toBe('rooms_not_available');
    expect(refused.body.error).toContain(`на ночь ${localDay(50)}: свободно 1, блокам нужно 2`);
    const inquiry = await createBlock({ allotment: [held(category.id, 49, 50, 2)] }).expect(201);
    expect((await availableIn(category.id, 49, 51)).free).toEqual([2, 1]);
    // Made tentative, it is checked the same way; nothing changes.
    const again = await patchBlock(inquiry.body.id, { status: 'tentative' }).expect(409);
    expect(again.body.code).toBe('rooms_not_available');
    const { body } = await t.http.get(api(owner, `/blocks/${inquiry.body.id}`)).set(as(owner.accessToken));
    expect(body.status).toBe('inquiry');
  });

  it('held units leave availability, the widget and staff bookings and their changes of dates (409 held_by_block)', async () => {
    const { category, rooms } = await categoryOf(2);
    // Asked first, so the block's change must reach a cached answer.
    expect((await availableIn(category.id, 60, 62)).free).toEqual([2, 2]);
    await createBlock({ status: 'definite', allotment: [held(category.id, 60, 61, 1)] }).expect(201);
    expect(await availableIn(category.id, 60, 62)).toMatchObject({ free: [1, 1], sellable: true });

    await book({ room_id: rooms[0].id, ...nights(60, 62) }).expect(201);
    expect(await availableIn(category.id, 60, 62)).toMatchObject({ free: [0, 0], sellable: false });
    const refused = await book({ room_id: rooms[1].id, ...nights(61, 62) }, 1).expect(409);
    expect(refused.body).toMatchObject({ code: 'held_by_block' });
    expect(refused.body.error).toContain(`на ночь ${localDay(61)} удержаны групповым блоком`);
    await book({ category_id: category.id, ...nights(60, 61) }, 2).expect(409);

    // The widget offers nothing and its booking is sold out.
    const offers = await t.http
      .get(`/api/widget/${owner.slug}/availability`)
      .query({ from: localDay(60), to: localDay(61), guests: 1 })
      .expect(200);
    const offer = offers.body.categories.find((c: { category_id: string }) => c.category_id === category.id);
    expect(offer).toMatchObject({ free: [0], available: false });
    const widget = await t.http
      .post(`/api/widget/${owner.slug}/bookings`)
      .send({ category_id: category.id, ...nights(60, 61), guests_count: 1, ...guest(3), guest_phone: '+79990001122' })
      .expect(409);
    expect(widget.body.code).toBe('sold_out');

    // A stay the nights after may not grow into them.
    const later = await book({ room_id: rooms[1].id, ...nights(62, 64) }, 4).expect(201);
    const moved = await t.http
      .patch(api(owner, `/bookings/${later.body.id}`))
      .set(as(owner.accessToken))
      .send({ check_in: localDay(61) })
      .expect(409);
    expect(moved.body.code).toBe('held_by_block');
    const { body } = await t.http.get(api(owner, `/bookings/${later.body.id}`)).set(as(owner.accessToken));
    expect(body.check_in).toBe(localDay(62));
  });

  it('the revenue calendar counts held units not picked up out of its free rooms, and shows them per night', async () => {
    const { category } = await categoryOf(3);
    const calendar = async () => {
      const { body } = await t.http
        .get(api(owner, '/availability/calendar'))
        .set(as(owner.accessToken))
        .query({ from: localDay(140), to: localDay(143), category_id: category.id })
        .expect(200);
      return body.categories[0] as { free: number[]; held: number[] };
    };
    expect(await calendar()).toMatchObject({ free: [3, 3, 3], held: [0, 0, 0] });
    const block = await createBlock({ status: 'definite', allotment: [held(category.id, 140, 141, 2)] }).expect(201);
    expect(await calendar()).toMatchObject({ free: [1, 1, 3], held: [2, 2, 0] });
    await pickup(block.body.id, [{ category_id: category.id, ...nights(140, 141), ...guest(1) }]).expect(201);
    expect(await calendar()).toMatchObject({ free: [1, 1, 3], held: [1, 2, 0] });
  });

  it('concurrent bookings racing for the last unheld room: exactly one is sold', async () => {
    const { category } = await categoryOf(3);
    await createBlock({ status: 'definite', allotment: [held(category.id, 70, 70, 2)] }).expect(201);
    const answers = await patiently((app) =>
      Array.from({ length: 6 }, (_, n) =>
        app.http
          .post(api(owner, '/bookings'))
          .set(as(owner.accessToken))
          .send({ ...guest(n), category_id: category.id, ...nights(70, 71) }),
      ),
    );
    expect(answers.map((answer) => [answer.status, answer.body.code]).sort()).toEqual([
      [201, undefined],
      ...Array(5).fill([409, 'held_by_block']),
    ]);
    expect((await availableIn(category.id, 70, 71)).free).toEqual([0]);
  });
});

describe('pickup', () => {
  it("books the group's stays from the block, each in a room, never more than it holds", async () => {
    const { category, rooms } = await categoryOf(3);
    const block = await createBlock({
      status: 'definite',
      price_per_night: '3000',
      allotment: [held(category.id, 80, 81, 2)],
    }).expect(201);
    const first = await pickup(block.body.id, [
      { category_id: category.id, ...nights(80, 82), ...guest(1) },
      { category_id: category.id, ...nights(80, 81), ...guest(2), room_id: rooms[2].id },
    ]);
    expect(first.body).toMatchObject({ block_id: block.body.id });
    expect(first.body.bookings).toHaveLength(2);
    // The room named is taken first, then one is assigned.
    expect(first.body.bookings[0]).toMatchObject({ room_id: rooms[2].id, price: '3000.00', ...guest(2) });
    expect(first.body.bookings[1]).toMatchObject({ block_id: block.body.id, status: 'confirmed', price: '6000.00' });
    expect([rooms[0].id, rooms[1].id]).toContain(first.body.bookings[1].room_id);

    const over = await pickup(block.body.id, [{ category_id: category.id, ...nights(80, 81), ...guest(3) }]).expect(
      409,
    );
    expect(over.body.code).toBe('block_overdrawn');
    expect(over.body.error).toContain(localDay(80));
    // A night the block does not hold is not its to sell either.
    await pickup(block.body.id, [{ category_id: category.id, ...nights(81, 83), ...guest(4) }]).expect(409);

    const { body: report } = await t.http
      .get(api(owner, `/blocks/${block.body.id}/report`))
      .set(as(owner.accessToken))
      .expect(200);
    expect(
      report.map((n: { night: string; picked_up: number; free: number }) => [n.night, n.picked_up, n.free]),
    ).toEqual([
      [localDay(80), 2, 0],
      [localDay(81), 1, 1],
    ]);
    // The unit still held on the second night is not for sale; the third room is, the first night.
    expect((await availableIn(category.id, 80, 82)).free).toEqual([1, 1]);
    const refused = await book({ category_id: category.id, ...nights(81, 82) });
    expect(refused.status).toBe(201);
    await book({ category_id: category.id, ...nights(81, 82) }, 5).expect(409);
  });

  it('concurrent pickups never overdraw the block', async () => {
    const { category } = await categoryOf(5);
    const block = await createBlock({ status: 'definite', allotment: [held(category.id, 90, 90, 3)] }).expect(201);
    const answers = await patiently((app) =>
      Array.from({ length: 8 }, (_, n) =>
        app.http
          .post(api(owner, `/blocks/${block.body.id}/pickup`))
          .set(as(owner.accessToken))
          .send({ guests: [{ category_id: category.id, ...nights(90, 91), ...guest(n) }] }),
      ),
    );
    expect(answers.filter((answer) => answer.status === 201)).toHaveLength(3);
    expect(answers.filter((answer) => answer.status !== 201).map((answer) => answer.body.code)).toEqual(
      Array(5).fill('block_overdrawn'),
    );
    const { body } = await t.http.get(api(owner, `/blocks/${block.body.id}`)).set(as(owner.accessToken));
    expect(body.nights[0]).toMatchObject({ rooms: 3, picked_up: 3, free: 0 });
    expect(body.bookings).toHaveLength(3);
  });

  it('block changes racing pickups and bookings of its category: no deadlock, never a 5xx', async () => {
    const { category } = await categoryOf(6);
    const block = await createBlock({ status: 'definite', allotment: [held(category.id, 92, 92, 3)] }).expect(201);
    const stay = { category_id: category.id, ...nights(92, 93) };
    const answers = await patiently((app) =>
      Array.from({ length: 18 }, (_, n) => {
        const request = app.http;
        if (n % 3 === 0)
          return request
            .patch(api(owner, `/blocks/${block.body.id}`))
            .set(as(owner.accessToken))
            .send({ notes: `Правка ${n}`, allotment: [held(category.id, 92, 92, 3 + (n % 2))] });
        if (n % 3 === 1)
          return request
            .post(api(owner, `/blocks/${block.body.id}/pickup`))
            .set(as(owner.accessToken))
            .send({ guests: [{ ...stay, ...guest(n) }] });
        return request
          .post(api(owner, '/bookings'))
          .set(as(owner.accessToken))
          .send({ ...stay, ...guest(n) });
      }),
    );
    expect(answers.filter((answer) => answer.status >= 500).map((answer) => answer.body)).toEqual([]);
    expect(answers.every((answer) => [200, 201, 409].includes(answer.status))).toBe(true);
    const { body } = await t.http.get(api(owner, `/blocks/${block.body.id}`)).set(as(owner.accessToken));
    expect(body.nights[0].picked_up).toBeLessThanOrEqual(body.nights[0].rooms);
  });

  it("a pickup waits for a block's write before it takes its category, the order every block write locks in", async () => {
    const { category } = await categoryOf(2);
    const block = await createBlock({ status: 'definite', allotment: [held(category.id, 91, 91, 1)] }).expect(201);
    // A block's write in progress: its row locked, its categories' rows next.
    const write = await t.db.transaction();
    try {
      await write('blocks').where({ id: block.body.id }).forUpdate().select('id');
      const pending = pickup(block.body.id, [{ category_id: category.id, ...nights(91, 92), ...guest(1) }]).then(
        (response) => response,
      );
      await until(
        async () => {
          const { rows } = await t.db.raw<{ rows: unknown[] }>(
            `SELECT 1 FROM pg_stat_activity WHERE wait_event_type = 'Lock'
               AND (query ILIKE '%from "blocks"%' OR query ILIKE '%into "bookings"%')`,
          );
          return rows.length > 0;
        },
        { what: 'the pickup waiting for the block' },
      );
      // The pickup holds nothing of the category yet: the write takes it without waiting (no deadlock to come).
      await write('room_categories').where({ id: category.id }).forUpdate().noWait().select('id');
      await write.commit();
      expect((await pending).status).toBe(201);
    } finally {
      if (!write.isCompleted()) await write.rollback();
    }
  });

  it('a pickup racing the cancellation of its block is booked before it or refused (409 block_not_holding)', async () => {
    const { category } = await categoryOf(6);
    const block = await createBlock({ status: 'definite', allotment: [held(category.id, 93, 93, 5)] }).expect(201);
    const answers = await patiently((app) => [
      ...Array.from({ length: 5 }, (_, n) =>
        app.http
          .post(api(owner, `/blocks/${block.body.id}/pickup`))
          .set(as(owner.accessToken))
          .send({ guests: [{ category_id: category.id, ...nights(93, 94), ...guest(n) }] }),
      ),
      app.http
        .patch(api(owner, `/blocks/${block.body.id}`))
        .set(as(owner.accessToken))
        .send({ status: 'cancelled' }),
    ]);
    const pickups = answers.slice(0, 5);
    expect(answers[5].status).toBe(200);
    for (const answer of pickups) expect(answer.status === 201 || answer.body.code === 'block_not_holding').toBe(true);
    // Every stay booked from the block was booked while it held: the cancellation's answer lists them all.
    const booked = pickups.filter((answer) => answer.status === 201).length;
    expect((answers[5].body as unknown as { bookings: unknown[] }).bookings).toHaveLength(booked);
  });

  it('a pickup retried with the same Idempotency-Key after the block was cancelled answers the same bookings', async () => {
    const { category } = await categoryOf(2);
    const block = await createBlock({ status: 'definite', allotment: [held(category.id, 94, 94, 1)] }).expect(201);
    const send = () =>
      t.http
        .post(api(owner, `/blocks/${block.body.id}/pickup`))
        .set(as(owner.accessToken))
        .set('Idempotency-Key', `retry-${block.body.id}`)
        .send({ guests: [{ category_id: category.id, ...nights(94, 95), ...guest(1) }] });
    const first = await send().expect(201);
    await patchBlock(block.body.id, { status: 'cancelled' }).expect(200);
    const again = await send().expect(201);
    expect(again.body).toEqual(first.body);
  });

  it("a group's stay is extended and changed as any stay on the nights the block does not hold", async () => {
    const { category } = await categoryOf(3);
    const block = await createBlock({ status: 'definite', allotment: [held(category.id, 96, 97, 1)] }).expect(201);
    const picked = await pickup(block.body.id, [{ category_id: category.id, ...nights(96, 98), ...guest(1) }]);
    expect(picked.status).toBe(201);
    const id = picked.body.bookings[0].id;
    const change = (body: Record<string, unknown>) =>
      t.http
        .patch(api(owner, `/bookings/${id}`))
        .set(as(owner.accessToken))
        .send(body);
    const extended = await change({ check_out: localDay(100) }).expect(200);
    expect(extended.body).toMatchObject({ block_id: block.body.id, check_out: localDay(100) });
    await change({ check_in: localDay(95) }).expect(200);
    // On the nights it holds, the block's stays still never take more than it holds.
    const second = await pickup(block.body.id, [{ category_id: category.id, ...nights(96, 97), ...guest(2) }]);
    expect(second.status).toBe(409);
    expect(second.body.code).toBe('block_overdrawn');
  });

  it('refuses guests of a category the block does not hold, and pickups of an inquiry', async () => {
    const { category } = await categoryOf(1);
    const { category: another } = await categoryOf(1);
    const block = await createBlock({ status: 'tentative', allotment: [held(category.id, 95, 95, 1)] }).expect(201);
    const wrong = await pickup(block.body.id, [{ category_id: another.id, ...nights(95, 96), ...guest(1) }]).expect(
      400,
    );
    expect(wrong.body.details[0].path).toBe('body.guests.0.category_id');
    const inquiry = await createBlock({ allotment: [held(category.id, 96, 96, 1)] }).expect(201);
    const refused = await pickup(inquiry.body.id, [{ category_id: category.id, ...nights(96, 97), ...guest(2) }]);
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('block_not_holding');
  });
});

describe('changing and cancelling a block with stays', () => {
  it('cannot hold fewer than picked up; cancelled, its stays stay as ordinary bookings and its units are for sale', async () => {
    const { category } = await categoryOf(2);
    const block = await createBlock({ status: 'definite', allotment: [held(category.id, 100, 100, 2)] }).expect(201);
    const picked = await pickup(block.body.id, [{ category_id: category.id, ...nights(100, 101), ...guest(1) }]);
    expect(picked.status).toBe(201);
    const below = await patchBlock(block.body.id, { allotment: [held(category.id, 100, 100, 0)] }).expect(409);
    expect(below.body.code).toBe('below_pickup');
    expect((await availableIn(category.id, 100, 101)).free).toEqual([0]);

    const cancelled = await patchBlock(block.body.id, { status: 'cancelled' }).expect(200);
    expect(cancelled.body.status).toBe('cancelled');
    expect(cancelled.body.bookings).toEqual([
      expect.objectContaining({ id: picked.body.bookings[0].id, status: 'confirmed' }),
    ]);
    expect((await availableIn(category.id, 100, 101)).free).toEqual([1]);
    await book({ category_id: category.id, ...nights(100, 101) }).expect(201);
    const again = await patchBlock(block.body.id, { status: 'definite' }).expect(422);
    expect(again.body.error).toBe('Отменённый блок не меняется');
  });
});

describe('what a block refers to', () => {
  it('a category a block holds is not deleted (409); the block keeps its nights', async () => {
    const { category, rooms } = await categoryOf(1);
    const block = await createBlock({ allotment: [held(category.id, 102, 102, 1)] }).expect(201);
    await t.http
      .delete(api(owner, `/rooms/${rooms[0].id}`))
      .set(as(owner.accessToken))
      .expect(200);
    const refused = await t.http
      .delete(api(owner, `/room-categories/${category.id}`))
      .set(as(owner.accessToken))
      .expect(409);
    expect(refused.body.error).toBe('Категория указана в групповом блоке: удалить её нельзя, сделайте её неактивной');
    const { body } = await t.http.get(api(owner, `/blocks/${block.body.id}`)).set(as(owner.accessToken));
    expect(body.nights).toHaveLength(1);
  });

  it('a block is priced by a tariff or a price per night: giving one clears the other', async () => {
    const { category } = await categoryOf(1);
    const tariff = await t.http
      .post(api(owner, '/tariffs'))
      .set(as(owner.accessToken))
      .send({ name: `Групповой ${category.id.slice(0, 8)}` })
      .expect(201);
    const block = await createBlock({ price_per_night: '3000', allotment: [held(category.id, 103, 103, 1)] }).expect(
      201,
    );
    const tariffed = await patchBlock(block.body.id, { tariff_id: tariff.body.id }).expect(200);
    expect(tariffed.body).toMatchObject({ tariff_id: tariff.body.id, price_per_night: null });
    const priced = await patchBlock(block.body.id, { price_per_night: '2500' }).expect(200);
    expect(priced.body).toMatchObject({ tariff_id: null, price_per_night: '2500.00' });
  });
});

describe('rooming list (CSV)', () => {
  const roomingList = (id: string, csv: string, key?: string) => {
    const request = t.http
      .post(api(owner, `/blocks/${id}/rooming-list`))
      .set(as(owner.accessToken))
      .set('Content-Type', 'text/csv');
    if (key) request.set('Idempotency-Key', key);
    return request.send(csv);
  };

  it('books a guest a line; a retry with the same key answers the same bookings', async () => {
    const { category } = await categoryOf(3);
    const block = await createBlock({ status: 'definite', allotment: [held(category.id, 110, 111, 2)] }).expect(201);
    const csv = [
      'category_id,check_in,check_out,guest_last_name,guest_first_name,guest_email',
      `${category.id},${localDay(110)},${localDay(112)},"Смирнова, мл.",Ольга,`,
      `${category.id},${localDay(110)},${localDay(111)},Кузнецов,Игорь,${uniqueEmail('rooming')}`,
      '',
    ].join('\r\n');
    const first = await roomingList(block.body.id, csv, 'rooming-1').expect(201);
    expect(first.body.bookings.map((b: { guest_last_name: string }) => b.guest_last_name)).toEqual([
      'Смирнова, мл.',
      'Кузнецов',
    ]);
    const again = await roomingList(block.body.id, csv, 'rooming-1').expect(201);
    expect(again.body.bookings.map((b: { id: string }) => b.id)).toEqual(
      first.body.bookings.map((b: { id: string }) => b.id),
    );
    const { body } = await t.http.get(api(owner, `/blocks/${block.body.id}`)).set(as(owner.accessToken));
    expect(body.bookings).toHaveLength(2);
  });

  it('a line that cannot be read or a guest that is not valid is a 400 naming the line; nothing is booked', async () => {
    const { category } = await categoryOf(2);
    const block = await createBlock({ status: 'definite', allotment: [held(category.id, 115, 115, 2)] }).expect(201);
    const header = 'category_id,check_in,check_out,guest_last_name,guest_first_name';
    const good = `${category.id},${localDay(115)},${localDay(116)},Орлов,Пётр`;
    const ragged = await roomingList(block.body.id, `${header}\n${good}\n${category.id},${localDay(115)}\n`).expect(
      400,
    );
    expect(ragged.body.error).toMatch(/^Строка 3 списка гостей/);
    const badDate = await roomingList(
      block.body.id,
      `${header}\n${good}\n${category.id},2031-02-30,${localDay(116)},Орлов,Иван\n`,
    ).expect(400);
    expect(badDate.body.error).toMatch(/^Строка 3 списка гостей: "check_in"/);
    const unknownColumn = await roomingList(block.body.id, `${header},passport\n${good},1234\n`).expect(400);
    expect(unknownColumn.body.error).toMatch(/^Строка 2 списка гостей: "passport"/);
    await roomingList(block.body.id, `${header}\n`).expect(400);
    const tooMany = [header, ...Array.from({ length: 201 }, () => good)].join('\n');
    await roomingList(block.body.id, tooMany).expect(400);
    await roomingList(block.body.id, `${header}\n${good}\n${'x'.repeat(70 * 1024)}`).expect(413);
    await t.http
      .post(api(owner, `/blocks/${block.body.id}/rooming-list`))
      .set(as(owner.accessToken))
      .send({ guests: [] })
      .expect(415);
    const { body } = await t.http.get(api(owner, `/blocks/${block.body.id}`)).set(as(owner.accessToken));
    expect(body.bookings).toEqual([]);
  });
});

describe('wash and the release rule', () => {
  it('a wash takes units off by hand, recorded, never below what is picked up; they go back on sale', async () => {
    const { category } = await categoryOf(3);
    const block = await createBlock({ status: 'definite', allotment: [held(category.id, 120, 121, 2)] }).expect(201);
    await pickup(block.body.id, [{ category_id: category.id, ...nights(120, 121), ...guest(1) }]).expect(201);
    const wash = (items: Record<string, unknown>[]) =>
      t.http
        .post(api(owner, `/blocks/${block.body.id}/wash`))
        .set(as(owner.accessToken))
        .send({ items });
    const washed = await wash([held(category.id, 120, 121, 1)]).expect(200);
    expect(washed.body.nights.map((n: { rooms: number; washed: number }) => [n.rooms, n.washed])).toEqual([
      [1, 1],
      [1, 1],
    ]);
    expect((await availableIn(category.id, 120, 122)).free).toEqual([2, 2]);
    const below = await wash([held(category.id, 121, 121, 1), held(category.id, 120, 120, 1)]).expect(409);
    expect(below.body).toMatchObject({ code: 'below_pickup' });
    expect(below.body.error).toContain(localDay(120));
    const outside = await wash([held(category.id, 121, 122, 1)]).expect(400);
    expect(outside.body.error).toBe(`Блок не держит номеров этой категории на ночь ${localDay(122)}`);
    const { category: another } = await categoryOf(1);
    const foreign = await wash([held(another.id, 120, 120, 1)]).expect(400);
    expect(foreign.body.details[0].path).toBe('body.items.0.category_id');
    // All or nothing: the second night, which could give its unit, kept it.
    const { body } = await t.http.get(api(owner, `/blocks/${block.body.id}/report`)).set(as(owner.accessToken));
    expect(body.map((n: { rooms: number }) => n.rooms)).toEqual([1, 1]);
  });

  it('a release rule is given whole: its kind and the one value it needs', async () => {
    const { category } = await categoryOf(1);
    const allotment = [held(category.id, 130, 130, 1)];
    await createBlock({ allotment, release_kind: 'date' }).expect(400);
    await createBlock({ allotment, release_kind: 'rolling', release_days: 3, release_date: localDay(5) }).expect(400);
    await createBlock({ allotment, release_days: 3 }).expect(400);
    const rolling = await createBlock({ allotment, release_kind: 'rolling', release_days: 3 }).expect(201);
    expect(rolling.body).toMatchObject({ release_kind: 'rolling', release_days: 3, release_date: null });
    const fixed = await patchBlock(rolling.body.id, { release_kind: 'date', release_date: localDay(100) }).expect(200);
    expect(fixed.body).toMatchObject({ release_kind: 'date', release_days: null, release_date: localDay(100) });
    const none = await patchBlock(rolling.body.id, { release_kind: 'none' }).expect(200);
    expect(none.body).toMatchObject({ release_kind: 'none', release_days: null, release_date: null });
  });
});
