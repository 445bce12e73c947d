import type { Test } from 'supertest';
import { createTestApp, type TestApp } from '../helpers/app';
import { as, registerHotel, type RegisteredHotel } from '../helpers/accounts';
import { createCategory, createRoom } from '../helpers/structure';

/**
 * The attacks of issue 10 (points 2 and 4), each replayed as it was found: every input is bounded by its schema before
 * any work, and what still reached a 500 (or froze the server) is now a clear 400, or a 422 naming a business limit.
 */

let t: TestApp;
let owner: RegisteredHotel;
beforeAll(async () => {
  t = createTestApp();
  owner = await registerHotel(t);
});
afterAll(() => t.close());

const api = (path: string) => `/api/hotels/${owner.slug}${path}`;
const post = (path: string, body: Record<string, unknown>) =>
  t.http.post(api(path)).set(as(owner.accessToken)).send(body);
const get = (path: string, query: Record<string, string>) =>
  t.http.get(api(path)).query(query).set(as(owner.accessToken));

const outsideCalendar = (field: string) => `"${field}" must be between 1900-01-01 and 2200-12-31`;
/** A booking of `roomId` for `stay` (its dates, and a price when it is not to be quoted). */
const book = (roomId: string, stay: Record<string, unknown>) =>
  post('/bookings', { room_id: roomId, guest_last_name: 'Граничный', guest_first_name: 'Тест', ...stay });

/** The refusal of a range whose `to` is more than `days` after its `from`. */
const spanRefusal = (location: string, from: string, to: string, days: number) => ({
  path: `${location}.${to}`,
  message: `"${to}" must be at most ${days} days after "${from}"`,
});
const overrideRange = (categoryId: string, from: string, to: string) =>
  post('/rate-overrides', { category_id: categoryId, date_from: from, date_to: to, price: 100 });

function detailsOf(body: { details?: { path: string; message: string }[] }) {
  return body.details ?? [];
}

/** The request is a 400 listing exactly these problems. */
async function expectRefused(request: Test, details: { path: string; message: string }[]) {
  const response = await request.expect(400);
  expect(detailsOf(response.body)).toEqual(details);
}

describe('date ranges are bounded by their schema before any work (point 2)', () => {
  it('a rate override over 0000-01-01..9999-12-31 is refused by the schema, not after building 3.65M dates', async () => {
    const category = await createCategory(t, owner);
    await expectRefused(overrideRange(category.id, '0000-01-01', '9999-12-31'), [
      { path: 'body.date_from', message: outsideCalendar('date_from') },
      { path: 'body.date_to', message: outsideCalendar('date_to') },
    ]);
  });

  it('rate spans inside the calendar are bounded too: overrides 366 dates, periods two years, also on update', async () => {
    const category = await createCategory(t, owner);
    await expectRefused(overrideRange(category.id, '1900-01-01', '2200-12-31'), [
      spanRefusal('body', 'date_from', 'date_to', 365),
    ]);
    const year = await overrideRange(category.id, '2160-01-01', '2160-12-31').expect(200);
    expect(year.body).toHaveLength(366);

    const prices = [{ category_id: category.id, price: 7000 }];
    await expectRefused(
      post('/rate-periods', {
        name: 'Вечность',
        date_from: '2150-01-01',
        date_to: '2152-01-03',
        prices,
      }),
      [spanRefusal('body', 'date_from', 'date_to', 731)],
    );
    const period = await post('/rate-periods', {
      name: 'Два года',
      date_from: '2150-01-01',
      date_to: '2151-12-31',
      prices,
    }).expect(201);
    const stretched = await t.http
      .patch(api(`/rate-periods/${period.body.id}`))
      .set(as(owner.accessToken))
      .send({ date_to: '2200-12-31' })
      .expect(400);
    expect(stretched.body.error).toBe('Период не может быть длиннее 731 дней');
  });

  it('absurd stays are refused: 0001..9999 with a price, 366 nights, a year-long hourly stay, check_out moved alone', async () => {
    const category = await createCategory(t, owner, { allow_hourly: true, hourly_base_price: 100 });
    const room = await createRoom(t, owner, category.id);
    await expectRefused(book(room.id, { check_in: '0001-01-01', check_out: '9999-12-31', price: 1000 }), [
      { path: 'body.check_in', message: outsideCalendar('check_in') },
      { path: 'body.check_out', message: outsideCalendar('check_out') },
    ]);

    const nights366 = { check_in: '2140-01-01', check_out: '2141-01-02', price: 1000 };
    await expectRefused(book(room.id, nights366), [spanRefusal('body', 'check_in', 'check_out', 365)]);
    const hours366 = { start_at: '2142-01-01T12:00:00Z', end_at: '2143-01-02T12:00:00Z', price: 1000 };
    await expectRefused(book(room.id, hours366), [spanRefusal('body', 'start_at', 'end_at', 365)]);

    const year = await book(room.id, {
      check_in: '2140-01-01',
      check_out: '2140-12-31',
      price: 1000,
    }).expect(201);
    const moved = await t.http
      .patch(api(`/bookings/${year.body.id}`))
      .set(as(owner.accessToken))
      .send({ check_out: '2141-01-02' })
      .expect(400);
    expect(moved.body.error).toBe('Проживание не может быть дольше 365 ночей');
  });

  it('list and window filters refuse year 0000 and windows of centuries', async () => {
    const category = await createCategory(t, owner);
    const centuries = { from: '1900-01-01', to: '2200-12-31' };
    const refusals = [
      await get('/bookings', { from: '0000-01-01' }),
      await get('/bookings', centuries),
      await get('/availability', centuries),
      await get('/rate-overrides', centuries),
      await get('/rate-periods', { from: '0000-01-01', to: '2030-01-01' }),
      await get('/minibar/stock/movements', centuries),
      await get('/minibar/consumptions', { from: '9999-12-31' }),
      await get('/housekeeping', { date: '0000-01-01' }),
      await get('/quote', { category_id: category.id, check_in: '1900-01-01', check_out: '2200-12-31' }),
    ];
    expect(refusals.map((response) => response.status)).toEqual(refusals.map(() => 400));
    expect(detailsOf(refusals[1].body)).toEqual([spanRefusal('query', 'from', 'to', 731)]);
  });
});

describe('inputs that reached a 500 (point 4)', () => {
  it('extreme ISO instants are 400s naming the field', async () => {
    const category = await createCategory(t, owner, { allow_hourly: true, hourly_base_price: 100 });
    const room = await createRoom(t, owner, category.id);
    const future = await book(room.id, {
      start_at: '+275760-09-13T00:00:00Z',
      end_at: '+275760-09-13T00:00:00Z',
      price: 100,
    }).expect(400);
    expect(detailsOf(future.body).map((detail) => detail.path)).toEqual(['body.start_at', 'body.end_at']);
    await expectRefused(
      t.http
        .patch(api(`/rooms/${room.id}`))
        .set(as(owner.accessToken))
        .send({ maintenance_from: '-271821-04-20', maintenance_to: '0000-01-01T00:00:00+03:00' }),
      [
        { path: 'body.maintenance_from', message: outsideCalendar('maintenance_from') },
        { path: 'body.maintenance_to', message: outsideCalendar('maintenance_to') },
      ],
    );
    await get('/notifications', { before: '+275760-09-13T00:00:00Z' }).expect(400);
  });

  it('a slug with a NUL byte, or of a shape no hotel has, answers the 403 of an unknown hotel', async () => {
    for (const slug of ['a%00b', `${owner.slug}%00`, 'x'.repeat(200), owner.slug.toUpperCase(), '%F0%9F%8F%A8']) {
      const response = await t.http.get(`/api/hotels/${slug}/rooms`).set(as(owner.accessToken));
      expect({ slug, status: response.status, body: response.body }).toEqual({
        slug,
        status: 403,
        body: expect.objectContaining({ error: 'Нет доступа к этому отелю' }),
      });
    }
  });

  it('text with an unpaired surrogate is a 400, not a jsonb error in the realtime event (500)', async () => {
    const room = await createRoom(t, owner, (await createCategory(t, owner)).id);
    const booking = await book(room.id, { check_in: '2148-01-01', check_out: '2148-01-02', price: 1000 }).expect(201);
    await expectRefused(
      t.http
        .patch(api(`/bookings/${booking.body.id}`))
        .set(as(owner.accessToken))
        .send({ notes: 'a\udfffb', guest_last_name: '\ud800' }),
      [
        { path: 'body.notes', message: '"notes" must not contain unpaired surrogates' },
        { path: 'body.guest_last_name', message: '"guest_last_name" must not contain unpaired surrogates' },
      ],
    );
    // A pair is a character like any other.
    await t.http
      .patch(api(`/bookings/${booking.body.id}`))
      .set(as(owner.accessToken))
      .send({ notes: 'Гость с 🐈' })
      .expect(200);
  });

  it('payments cannot carry paid_amount beyond numeric(12,2): 422 naming the limit, adding or removing', async () => {
    const room = await createRoom(t, owner, (await createCategory(t, owner)).id);
    const booking = await book(room.id, {
      check_in: '2145-01-01',
      check_out: '2145-01-02',
      price: 1000,
    }).expect(201);
    const pay = (amount: string) => post(`/bookings/${booking.body.id}/payments`, { amount, method: 'cash' });
    for (let i = 0; i < 9; i++) await pay('1000000000').expect(201);
    const limit = 'Сумма оплат по бронированию должна оставаться в пределах ±9999999999.99';
    const overflow = await pay('1000000000').expect(422);
    expect(overflow.body.error).toBe(limit);
    const refund = await pay('-1000000000').expect(201);
    await pay('1000000000').expect(201);
    const removed = await t.http
      .delete(api(`/bookings/${booking.body.id}/payments/${refund.body.payment.id}`))
      .set(as(owner.accessToken))
      .expect(422);
    expect(removed.body.error).toBe(limit);
    const stored = await t.http
      .get(api(`/bookings/${booking.body.id}`))
      .set(as(owner.accessToken))
      .expect(200);
    expect(stored.body.paid_amount).toBe('9000000000.00');
    // A string amount is held to the same 1e9 as a number.
    await expectRefused(pay('9999999999.99'), [
      { path: 'body.amount', message: '"amount" must be between -1000000000 and 1000000000' },
    ]);
  });

  it('a stay quoted beyond numeric(12,2) is a 422 naming the limit', async () => {
    const category = await createCategory(t, owner, { base_price: 1e9 });
    const room = await createRoom(t, owner, category.id);
    const response = await book(room.id, {
      check_in: '2146-01-01',
      check_out: '2146-01-12',
    }).expect(422);
    expect(response.body.error).toBe('Стоимость проживания больше предельной суммы 9999999999.99');
  });

  it('a minibar stock stays within ±1,000,000 units', async () => {
    const item = await post('/minibar-items', { name: `Вода ${Date.now()}`, price: 100 }).expect(201);
    const receive = () => post('/minibar/stock', { item_id: item.body.id, kind: 'receipt', quantity: 100000 });
    for (let i = 0; i < 10; i++) await receive().expect(201);
    const refused = await receive().expect(422);
    expect(refused.body.error).toBe('Остаток позиции должен оставаться в пределах ±1000000 шт.');
  });

  it('an Idempotency-Key over 200 characters is a 400 on every route that reads it, not silently ignored', async () => {
    const room = await createRoom(t, owner, (await createCategory(t, owner)).id);
    const stay = { check_in: '2147-01-01', check_out: '2147-01-02', price: 1000 };
    const oversized = 'k'.repeat(201);
    await expectRefused(book(room.id, stay).set('Idempotency-Key', oversized), [
      { path: 'headers.idempotency-key', message: '"Idempotency-Key" must be 1 to 200 printable ASCII characters' },
    ]);
    const key = 'k'.repeat(200);
    const first = await book(room.id, stay).set('Idempotency-Key', key).expect(201);
    const retried = await book(room.id, stay).set('Idempotency-Key', key).expect(201);
    expect(retried.body.id).toBe(first.body.id);
    await post(`/bookings/${first.body.id}/payments`, { amount: 10 }).set('Idempotency-Key', oversized).expect(400);
  });
});
