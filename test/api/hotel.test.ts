import { createTestApp, type TestApp } from '../helpers/app';
import { addStaff, as, registerHotel, type RegisteredHotel } from '../helpers/accounts';

let t: TestApp;
let owner: RegisteredHotel;
let other: RegisteredHotel;
beforeAll(async () => {
  t = createTestApp();
  [owner, other] = await Promise.all([registerHotel(t), registerHotel(t)]);
});
afterAll(() => t.close());

describe('GET /api/hotels/{slug}', () => {
  it('shows the hotel to any of its staff', async () => {
    const maid = await addStaff(t, owner, 'housekeeper');
    const response = await t.http.get(`/api/hotels/${owner.slug}`).set(as(maid.accessToken)).expect(200);
    expect(response.body).toMatchObject({
      id: owner.hotelId,
      slug: owner.slug,
      timezone: 'Europe/Moscow',
      currency: 'RUB',
      plan: 'starter',
      is_active: true,
      check_in_time: '14:00',
      check_out_time: '12:00',
    });
  });

  it("401 without a token, 403 for another hotel's staff", async () => {
    await t.http.get(`/api/hotels/${owner.slug}`).expect(401);
    await t.http.get(`/api/hotels/${owner.slug}`).set(as(other.accessToken)).expect(403);
  });
});

describe('PATCH /api/hotels/{slug}', () => {
  it('updates the documented fields', async () => {
    const changes = {
      name: 'Отель Обновлённый',
      address: 'пр. Мира, 10',
      phone: '+74950000000',
      timezone: 'Asia/Yekaterinburg',
      currency: 'usd',
      check_in_time: '15:00',
      check_out_time: '11:30',
    };
    const response = await t.http
      .patch(`/api/hotels/${owner.slug}`)
      .set(as(owner.accessToken))
      .send(changes)
      .expect(200);
    expect(response.body).toMatchObject({ ...changes, currency: 'USD', slug: owner.slug });
    const again = await t.http.get(`/api/hotels/${owner.slug}`).set(as(owner.accessToken)).expect(200);
    expect(again.body.timezone).toBe('Asia/Yekaterinburg');
  });

  it('ignores fields that are not editable (slug, plan)', async () => {
    const response = await t.http
      .patch(`/api/hotels/${owner.slug}`)
      .set(as(owner.accessToken))
      .send({ slug: 'hijack', plan: 'enterprise', phone: '+74951111111' })
      .expect(200);
    expect(response.body).toMatchObject({ slug: owner.slug, plan: 'starter' });
  });

  it.each([
    [{ timezone: 'Mars/Olympus' }],
    [{ currency: 'XYZW' }],
    [{ check_in_time: '25:00' }],
    [{ check_out_time: '9am' }],
    [{ name: 'A' }],
    [{}],
  ])('400 for %j and nothing changes', async (body) => {
    const before = await t.db('hotels').where({ id: owner.hotelId }).first();
    await t.http.patch(`/api/hotels/${owner.slug}`).set(as(owner.accessToken)).send(body).expect(400);
    expect(await t.db('hotels').where({ id: owner.hotelId }).first()).toEqual(before);
  });

  it('a manager may edit; a receptionist may not; another hotel may not', async () => {
    const manager = await addStaff(t, owner, 'manager');
    const desk = await addStaff(t, owner, 'receptionist');
    await t.http
      .patch(`/api/hotels/${owner.slug}`)
      .set(as(manager.accessToken))
      .send({ phone: '+74952222222' })
      .expect(200);
    await t.http
      .patch(`/api/hotels/${owner.slug}`)
      .set(as(desk.accessToken))
      .send({ phone: '+74953333333' })
      .expect(403);
    await t.http.patch(`/api/hotels/${owner.slug}`).set(as(other.accessToken)).send({ name: 'Чужой' }).expect(403);
    expect((await t.db('hotels').where({ id: owner.hotelId }).first()).phone).toBe('+74952222222');
  });
});
