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

const api = (path: string) => `/api/hotels/${owner.slug}${path}`;

describe('tariffs', () => {
  it('CRUD with conditions, 409 for a duplicate name, 400 for an out-of-range percent', async () => {
    const created = await t.http
      .post(api('/tariffs'))
      .set(as(owner.accessToken))
      .send({
        name: 'Невозвратный',
        adjustment_type: 'percent',
        adjustment_value: -10,
        refundable: false,
        min_nights: 2,
        meals: 'breakfast',
      })
      .expect(201);
    expect(created.body).toMatchObject({
      adjustment_value: '-10.00',
      refundable: false,
      min_nights: 2,
      meals: 'breakfast',
      is_active: true,
    });
    await t.http.post(api('/tariffs')).set(as(owner.accessToken)).send({ name: 'Невозвратный' }).expect(409);
    await t.http
      .post(api('/tariffs'))
      .set(as(owner.accessToken))
      .send({ name: 'Bad', adjustment_value: -150 })
      .expect(400);
    await t.http.post(api('/tariffs')).set(as(owner.accessToken)).send({ name: 'Bad', meals: 'caviar' }).expect(400);
    const updated = await t.http
      .patch(api(`/tariffs/${created.body.id}`))
      .set(as(owner.accessToken))
      .send({ is_active: false })
      .expect(200);
    expect(updated.body.is_active).toBe(false);
    const active = await t.http.get(api('/tariffs?is_active=true')).set(as(owner.accessToken)).expect(200);
    expect(active.body.map((x: { id: string }) => x.id)).not.toContain(created.body.id);
    await t.http
      .delete(api(`/tariffs/${created.body.id}`))
      .set(as(owner.accessToken))
      .expect(200);
  });

  it('only owner and managers change prices; every member reads them', async () => {
    const desk = await addStaff(t, owner, 'receptionist');
    await t.http.post(api('/tariffs')).set(as(desk.accessToken)).send({ name: 'Desk tariff' }).expect(403);
    await t.http.get(api('/tariffs')).set(as(desk.accessToken)).expect(200);
    await t.http.post(api('/rate-overrides')).set(as(desk.accessToken)).send({}).expect(403);
    const manager = await addStaff(t, owner, 'manager');
    await t.http
      .post(api('/tariffs'))
      .set(as(manager.accessToken))
      .send({ name: `Manager ${Date.now()}` })
      .expect(201);
  });
});

describe('rate periods', () => {
  it('create with prices per category, list by window and category, update, delete', async () => {
    const category = await createCategory(t, owner, { base_price: 4000 });
    const created = await t.http
      .post(api('/rate-periods'))
      .set(as(owner.accessToken))
      .send({
        name: 'Лето',
        date_from: '2027-06-01',
        date_to: '2027-08-31',
        prices: [{ category_id: category.id, price: 6000 }],
      })
      .expect(201);
    expect(created.body).toMatchObject({
      name: 'Лето',
      date_from: '2027-06-01',
      date_to: '2027-08-31',
      prices: [{ category_id: category.id, price: '6000.00', hourly_price: null }],
    });
    const july = await t.http
      .get(api(`/rate-periods?from=2027-07-01&to=2027-07-10&category_id=${category.id}`))
      .set(as(owner.accessToken))
      .expect(200);
    expect(july.body.map((p: { id: string }) => p.id)).toEqual([created.body.id]);
    const autumn = await t.http
      .get(api('/rate-periods?from=2027-09-01&to=2027-09-30'))
      .set(as(owner.accessToken))
      .expect(200);
    expect(autumn.body.map((p: { id: string }) => p.id)).not.toContain(created.body.id);

    const moved = await t.http
      .patch(api(`/rate-periods/${created.body.id}`))
      .set(as(owner.accessToken))
      .send({ date_to: '2027-08-15' })
      .expect(200);
    expect(moved.body).toMatchObject({
      date_to: '2027-08-15',
      prices: [{ category_id: category.id, price: '6000.00' }],
    });
    await t.http
      .delete(api(`/rate-periods/${created.body.id}`))
      .set(as(owner.accessToken))
      .expect(200);
    await t.http
      .get(api(`/rate-periods/${created.body.id}`))
      .set(as(owner.accessToken))
      .expect(404);
  });

  it('refuses overlapping periods for one category with a 409 naming the other, allows other categories', async () => {
    const standard = await createCategory(t, owner);
    const suite = await createCategory(t, owner);
    await t.http
      .post(api('/rate-periods'))
      .set(as(owner.accessToken))
      .send({
        name: 'Новый год',
        date_from: '2027-12-28',
        date_to: '2028-01-08',
        prices: [{ category_id: standard.id, price: 9000 }],
      })
      .expect(201);
    const clash = await t.http
      .post(api('/rate-periods'))
      .set(as(owner.accessToken))
      .send({
        name: 'Рождество',
        date_from: '2028-01-07',
        date_to: '2028-01-10',
        prices: [{ category_id: standard.id, price: 8000 }],
      })
      .expect(409);
    expect(clash.body.error).toContain('Новый год');
    expect(clash.body.error).toContain(standard.name);
    await t.http
      .post(api('/rate-periods'))
      .set(as(owner.accessToken))
      .send({
        name: 'Рождество',
        date_from: '2028-01-07',
        date_to: '2028-01-10',
        prices: [{ category_id: suite.id, price: 8000 }],
      })
      .expect(201);
    // Adjacent is not overlapping: the day after the season ends is free.
    await t.http
      .post(api('/rate-periods'))
      .set(as(owner.accessToken))
      .send({
        name: 'После праздников',
        date_from: '2028-01-09',
        date_to: '2028-01-20',
        prices: [{ category_id: standard.id, price: 5000 }],
      })
      .expect(201);
  });

  it.each([
    [{ name: 'X', date_from: '2027-05-10', date_to: '2027-05-01', prices: [] }],
    [
      {
        name: 'X',
        date_from: '2027-02-30',
        date_to: '2027-03-01',
        prices: [{ category_id: '00000000-0000-4000-8000-000000000000', price: 1 }],
      },
    ],
    [
      {
        name: 'X',
        date_from: '2027-05-01',
        date_to: '2027-05-10',
        prices: [{ category_id: '00000000-0000-4000-8000-000000000000' }],
      },
    ],
  ])('400 for %j', async (body) => {
    await t.http.post(api('/rate-periods')).set(as(owner.accessToken)).send(body).expect(400);
  });

  it("400 for a period pricing another hotel's category, and nothing is written", async () => {
    const theirs = await createCategory(t, other);
    await t.http
      .post(api('/rate-periods'))
      .set(as(owner.accessToken))
      .send({
        name: 'Чужая',
        date_from: '2027-03-01',
        date_to: '2027-03-05',
        prices: [{ category_id: theirs.id, price: 1 }],
      })
      .expect(400);
    expect(await t.db('rate_periods').where({ hotel_id: owner.hotelId, name: 'Чужая' })).toHaveLength(0);
  });
});

describe('rate overrides', () => {
  it('sets one date or a range, replaces an existing date, lists and deletes', async () => {
    const category = await createCategory(t, owner);
    const range = await t.http
      .post(api('/rate-overrides'))
      .set(as(owner.accessToken))
      .send({ category_id: category.id, date_from: '2027-03-01', date_to: '2027-03-03', price: 7000 })
      .expect(200);
    expect(range.body.map((o: { date: string }) => o.date)).toEqual(['2027-03-01', '2027-03-02', '2027-03-03']);
    const replaced = await t.http
      .post(api('/rate-overrides'))
      .set(as(owner.accessToken))
      .send({ category_id: category.id, date: '2027-03-02', price: 7500, hourly_price: 900 })
      .expect(200);
    expect(replaced.body).toEqual([
      expect.objectContaining({ date: '2027-03-02', price: '7500.00', hourly_price: '900.00' }),
    ]);
    const list = await t.http
      .get(api(`/rate-overrides?category_id=${category.id}&from=2027-03-02&to=2027-03-31`))
      .set(as(owner.accessToken))
      .expect(200);
    expect(list.body.map((o: { date: string; price: string }) => [o.date, o.price])).toEqual([
      ['2027-03-02', '7500.00'],
      ['2027-03-03', '7000.00'],
    ]);
    await t.http
      .delete(api(`/rate-overrides/${list.body[0].id}`))
      .set(as(owner.accessToken))
      .expect(200);
    await t.http
      .delete(api(`/rate-overrides/${list.body[0].id}`))
      .set(as(owner.accessToken))
      .expect(404);
  });

  it.each([
    [{ date: '2027-03-01' }],
    [{ date: '2027-03-01', price: -5 }],
    [{ date: '2027-03-01', date_from: '2027-03-01', date_to: '2027-03-02', price: 1 }],
    [{ date_from: '2027-01-01', date_to: '2028-06-01', price: 1 }],
  ])('400 for %j', async (body) => {
    const category = await createCategory(t, owner);
    await t.http
      .post(api('/rate-overrides'))
      .set(as(owner.accessToken))
      .send({ category_id: category.id, ...body })
      .expect(400);
  });
});

describe('GET /quote', () => {
  async function pricedCategory() {
    const category = await createCategory(t, owner, { base_price: 5000, allow_hourly: true, hourly_base_price: 800 });
    const period = await t.http
      .post(api('/rate-periods'))
      .set(as(owner.accessToken))
      .send({
        name: `Сезон ${category.id.slice(0, 6)}`,
        date_from: '2027-07-03',
        date_to: '2027-07-10',
        prices: [{ category_id: category.id, price: 6000, hourly_price: 1000 }],
      })
      .expect(201);
    const [override] = (
      await t.http
        .post(api('/rate-overrides'))
        .set(as(owner.accessToken))
        .send({ category_id: category.id, date: '2027-07-04', price: 9000 })
        .expect(200)
    ).body;
    return { category, periodId: period.body.id as string, overrideId: override.id as string };
  }

  it('itemizes each night by precedence: override over period over base, across a period boundary', async () => {
    const { category, periodId, overrideId } = await pricedCategory();
    const response = await t.http
      .get(api(`/quote?category_id=${category.id}&check_in=2027-07-01&check_out=2027-07-05`))
      .set(as(owner.accessToken))
      .expect(200);
    expect(response.body).toMatchObject({
      currency: 'RUB',
      kind: 'nightly',
      units: 4,
      category_id: category.id,
      room_id: null,
    });
    expect(response.body.lines.map((l: Record<string, unknown>) => [l.date, l.source, l.source_id, l.price])).toEqual([
      ['2027-07-01', 'base', null, '5000.00'],
      ['2027-07-02', 'base', null, '5000.00'],
      ['2027-07-03', 'period', periodId, '6000.00'],
      ['2027-07-04', 'override', overrideId, '9000.00'],
    ]);
    expect(response.body).toMatchObject({
      subtotal: '25000.00',
      discount_amount: '0.00',
      fees_total: '0.00',
      total: '25000.00',
    });
  });

  it('applies the tariff per night, the discount on the subtotal, and enforces minimum nights', async () => {
    const { category } = await pricedCategory();
    const tariff = await t.http
      .post(api('/tariffs'))
      .set(as(owner.accessToken))
      .send({
        name: `Скидка ${category.id.slice(0, 6)}`,
        adjustment_type: 'percent',
        adjustment_value: -10,
        min_nights: 2,
      })
      .expect(201);
    const response = await t.http
      .get(
        api(
          `/quote?category_id=${category.id}&check_in=2027-07-01&check_out=2027-07-03&tariff_id=${tariff.body.id}&discount=5`,
        ),
      )
      .set(as(owner.accessToken))
      .expect(200);
    expect(
      response.body.lines.map((l: Record<string, unknown>) => [l.base_price, l.tariff_adjustment, l.price]),
    ).toEqual([
      ['5000.00', '-500.00', '4500.00'],
      ['5000.00', '-500.00', '4500.00'],
    ]);
    expect(response.body).toMatchObject({
      subtotal: '9000.00',
      discount_percent: '5.00',
      discount_amount: '-450.00',
      total: '8550.00',
    });
    const tooShort = await t.http
      .get(
        api(`/quote?category_id=${category.id}&check_in=2027-07-01&check_out=2027-07-02&tariff_id=${tariff.body.id}`),
      )
      .set(as(owner.accessToken))
      .expect(422);
    expect(tooShort.body.error).toMatch(/Минимальный срок/);
  });

  it("uses the room's own rate, and its fees only when the hotel offers early check-in / late check-out", async () => {
    const { category } = await pricedCategory();
    const room = await createRoom(t, owner, category.id, {
      base_rate: 5500,
      early_checkin_fee: 1200,
      late_checkout_fee: 800,
    });
    const url = api(
      `/quote?room_id=${room.id}&check_in=2027-07-01&check_out=2027-07-02&early_checkin=true&late_checkout=true`,
    );
    await t.http.get(url).set(as(owner.accessToken)).expect(422);
    await t.http
      .patch(api('/settings'))
      .set(as(owner.accessToken))
      .send({ early_checkin_enabled: true, late_checkout_enabled: true })
      .expect(200);
    const response = await t.http.get(url).set(as(owner.accessToken)).expect(200);
    expect(response.body.lines[0]).toMatchObject({ source: 'base', price: '5500.00' });
    expect(response.body).toMatchObject({
      room_id: room.id,
      fees: [
        { kind: 'early_checkin', amount: '1200.00' },
        { kind: 'late_checkout', amount: '800.00' },
      ],
      fees_total: '2000.00',
      total: '7500.00',
    });
  });

  it('prices hourly stays across midnight by the hotel-local date of each hour', async () => {
    const { category } = await pricedCategory();
    // Europe/Moscow (UTC+3, no DST): 22:00 on Jul 2 to 02:00 on Jul 3 local; the period starts on Jul 3.
    const response = await t.http
      .get(api(`/quote?category_id=${category.id}&start_at=2027-07-02T19:00:00Z&end_at=2027-07-02T23:00:00Z`))
      .set(as(owner.accessToken))
      .expect(200);
    expect(response.body.kind).toBe('hourly');
    expect(response.body.lines.map((l: Record<string, unknown>) => [l.date, l.hour, l.source, l.price])).toEqual([
      ['2027-07-02', 22, 'base', '800.00'],
      ['2027-07-02', 23, 'base', '800.00'],
      ['2027-07-03', 0, 'period', '1000.00'],
      ['2027-07-03', 1, 'period', '1000.00'],
    ]);
    expect(response.body.total).toBe('3600.00');
  });

  it('follows the hotel time zone for hourly stays', async () => {
    const hotel = await registerHotel(t);
    await t.http
      .patch(`/api/hotels/${hotel.slug}`)
      .set(as(hotel.accessToken))
      .send({ timezone: 'Asia/Kolkata' })
      .expect(200);
    const category = await createCategory(t, hotel, { base_price: 3000, allow_hourly: true, hourly_base_price: 500 });
    await t.http
      .post(`/api/hotels/${hotel.slug}/rate-overrides`)
      .set(as(hotel.accessToken))
      .send({ category_id: category.id, date: '2027-07-03', hourly_price: 700 })
      .expect(200);
    // 18:00Z-20:00Z is 23:30-01:30 in Kolkata (+05:30): the second hour starts on Jul 3 local.
    const response = await t.http
      .get(
        `/api/hotels/${hotel.slug}/quote?category_id=${category.id}&start_at=2027-07-02T18:00:00Z&end_at=2027-07-02T20:00:00Z`,
      )
      .set(as(hotel.accessToken))
      .expect(200);
    expect(response.body.lines.map((l: Record<string, unknown>) => [l.date, l.price])).toEqual([
      ['2027-07-02', '500.00'],
      ['2027-07-03', '700.00'],
    ]);
  });

  it('refuses hourly quotes in a category without hourly stays, and bad spans', async () => {
    const nightly = await createCategory(t, owner, { base_price: 4000 });
    const hourly = await t.http
      .get(api(`/quote?category_id=${nightly.id}&start_at=2027-07-02T10:00:00Z&end_at=2027-07-02T12:00:00Z`))
      .set(as(owner.accessToken))
      .expect(422);
    expect(hourly.body.error).toMatch(/почасов/);
    await t.http
      .get(api(`/quote?category_id=${nightly.id}&check_in=2027-07-05&check_out=2027-07-05`))
      .set(as(owner.accessToken))
      .expect(400);
    await t.http
      .get(api(`/quote?category_id=${nightly.id}&check_in=2027-07-05`))
      .set(as(owner.accessToken))
      .expect(400);
    await t.http.get(api(`/quote?check_in=2027-07-05&check_out=2027-07-06`)).set(as(owner.accessToken)).expect(400);
    await t.http
      .get(api(`/quote?category_id=${nightly.id}&check_in=2027-07-05&check_out=2027-07-06&discount=101`))
      .set(as(owner.accessToken))
      .expect(400);
  });

  it("another hotel's category or room is not found from ours, and ours are forbidden to them", async () => {
    const theirs = await createCategory(t, other);
    await t.http
      .get(api(`/quote?category_id=${theirs.id}&check_in=2027-07-01&check_out=2027-07-02`))
      .set(as(owner.accessToken))
      .expect(404);
    await t.http
      .get(api(`/quote?category_id=${theirs.id}&check_in=2027-07-01&check_out=2027-07-02`))
      .set(as(other.accessToken))
      .expect(403);
  });
});
