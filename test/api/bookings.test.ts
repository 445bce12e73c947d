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
const guest = { guest_last_name: 'Иванов', guest_first_name: 'Пётр', guest_phone: '+7 999 111-22-33' };

async function roomIn(hotel = owner, category: Record<string, unknown> = {}, room: Record<string, unknown> = {}) {
  const created = await createCategory(t, hotel, { base_price: 5000, ...category });
  return { category: created, room: await createRoom(t, hotel, created.id, room) };
}

function book(body: Record<string, unknown>, hotel = owner, headers: Record<string, string> = {}) {
  return t.http
    .post(api(hotel, '/bookings'))
    .set(as(hotel.accessToken))
    .set(headers)
    .send({ ...guest, ...body });
}

const patch = (id: string, body: Record<string, unknown>, hotel = owner) =>
  t.http
    .patch(api(hotel, `/bookings/${id}`))
    .set(as(hotel.accessToken))
    .send(body);

describe('creating bookings', () => {
  it('occupies check-in time to check-out time in the hotel time zone, priced by the pricing service', async () => {
    const { room, category } = await roomIn();
    const response = await book({
      room_id: room.id,
      check_in: '2027-03-10',
      check_out: '2027-03-12',
      guests_count: 2,
    }).expect(201);
    expect(response.body).toMatchObject({
      room_id: room.id,
      category_id: category.id,
      kind: 'nightly',
      status: 'confirmed',
      check_in: '2027-03-10',
      check_out: '2027-03-12',
      // Europe/Moscow is UTC+3: 14:00 and 12:00 local.
      start_at: '2027-03-10T11:00:00.000Z',
      end_at: '2027-03-12T09:00:00.000Z',
      price: '10000.00',
      price_manual: false,
      paid_amount: '0.00',
      balance: '10000.00',
      guest_blacklisted: false,
      warnings: [],
    });
    const detail = await t.http
      .get(api(owner, `/bookings/${response.body.id}`))
      .set(as(owner.accessToken))
      .expect(200);
    expect(detail.body.guests).toEqual([{ guest_id: expect.any(String), is_primary: true }]);
  });

  it('never books a room twice: 409 names the clash; back-to-back stays and an hourly stay between them fit', async () => {
    const { room, category } = await roomIn(owner, { allow_hourly: true, hourly_base_price: 500 });
    await book({ room_id: room.id, check_in: '2027-04-01', check_out: '2027-04-03' }).expect(201);
    const clash = await book({
      room_id: room.id,
      check_in: '2027-04-02',
      check_out: '2027-04-05',
      guest_last_name: 'Сидоров',
    }).expect(409);
    expect(clash.body.error).toContain('Иванов Пётр');
    expect(clash.body.error).toContain('2027-04-01');
    await book({ room_id: room.id, check_in: '2027-04-03', check_out: '2027-04-04' }).expect(201);
    // 12:00-14:00 local on Apr 4 is free between the check-out and a check-in that day.
    await book({ room_id: room.id, check_in: '2027-04-04', check_out: '2027-04-05' }).expect(201);
    const hourly = await book({
      room_id: room.id,
      start_at: '2027-04-05T09:00:00Z',
      end_at: '2027-04-05T11:00:00Z',
    }).expect(201);
    expect(hourly.body).toMatchObject({ kind: 'hourly', price: '1000.00', category_id: category.id });
    await book({ room_id: room.id, start_at: '2027-04-05T08:30:00Z', end_at: '2027-04-05T09:30:00Z' }).expect(409);
  });

  it('refuses rooms closed or under maintenance in the span, and too many guests (422)', async () => {
    const { room } = await roomIn(owner, {}, { max_guests: 2 });
    await t.http
      .patch(api(owner, `/rooms/${room.id}/status`))
      .set(as(owner.accessToken))
      .send({ status: 'maintenance', maintenance_from: '2027-05-01T00:00:00Z', maintenance_to: '2027-05-03T00:00:00Z' })
      .expect(200);
    const closed = await book({ room_id: room.id, check_in: '2027-05-02', check_out: '2027-05-04' }).expect(422);
    expect(closed.body.error).toBe('Номер закрыт на обслуживание в эти даты');
    await book({ room_id: room.id, check_in: '2027-05-03', check_out: '2027-05-04' }).expect(201);
    await book({ room_id: room.id, check_in: '2027-05-10', check_out: '2027-05-11', guests_count: 3 }).expect(422);
  });

  it('by category: the hotel strategy picks the room; manual requires one; a full category is a 409', async () => {
    const hotel = await registerHotel(t);
    const category = await createCategory(t, hotel, { base_price: 3000 });
    const rooms = [];
    for (const number of ['12', '2', '101']) rooms.push(await createRoom(t, hotel, category.id, { number }));
    const manual = await book(
      { category_id: category.id, check_in: '2027-06-01', check_out: '2027-06-02' },
      hotel,
    ).expect(422);
    expect(manual.body.error).toMatch(/room_id/);
    await t.http
      .patch(api(hotel, '/settings'))
      .set(as(hotel.accessToken))
      .send({ room_assignment_strategy: 'sequential' })
      .expect(200);
    const picks = [];
    for (let i = 0; i < 3; i++)
      picks.push(
        (await book({ category_id: category.id, check_in: '2027-06-01', check_out: '2027-06-02' }, hotel).expect(201))
          .body.room_id,
      );
    const byNumber = Object.fromEntries(rooms.map((r) => [r.id, r.number]));
    expect(picks.map((id) => byNumber[id])).toEqual(['2', '12', '101']);
    const full = await book(
      { category_id: category.id, check_in: '2027-06-01', check_out: '2027-06-02' },
      hotel,
    ).expect(409);
    expect(full.body.error).toBe('Нет свободных номеров этой категории на эти даты');
  });

  it('spread puts a stay in the least booked room', async () => {
    const hotel = await registerHotel(t);
    await t.http
      .patch(api(hotel, '/settings'))
      .set(as(hotel.accessToken))
      .send({ room_assignment_strategy: 'spread' })
      .expect(200);
    const category = await createCategory(t, hotel, { base_price: 3000 });
    const busy = await createRoom(t, hotel, category.id, { number: '1' });
    const quiet = await createRoom(t, hotel, category.id, { number: '2' });
    await book({ room_id: busy.id, check_in: '2027-07-01', check_out: '2027-07-03' }, hotel).expect(201);
    const picked = await book(
      { category_id: category.id, check_in: '2027-07-05', check_out: '2027-07-06' },
      hotel,
    ).expect(201);
    expect(picked.body.room_id).toBe(quiet.id);
  });

  it.each([
    [{ check_in: '2027-03-10', check_out: '2027-03-12' }, 'room_id or category_id'],
    [{ room_id: randomUUID(), check_in: '2027-03-12', check_out: '2027-03-10' }, 'dates reversed'],
    [{ room_id: randomUUID(), check_in: '2027-03-10' }, 'no check_out'],
    [{ room_id: randomUUID(), check_in: '2027-03-10', check_out: '2027-03-11', status: 'checked_in' }, 'status'],
    [{ room_id: randomUUID(), check_in: '2027-03-10', check_out: '2027-03-11', guest_last_name: '' }, 'empty name'],
    [{ room_id: randomUUID(), check_in: '2027-03-10', check_out: '2027-03-11' }, 'unknown room'],
  ])('400 for %j (%s), nothing written', async (body: Record<string, unknown>, _label: string) => {
    const before = await t.db('bookings').where({ hotel_id: owner.hotelId }).count('* as n').first();
    await book(body).expect(400);
    expect(await t.db('bookings').where({ hotel_id: owner.hotelId }).count('* as n').first()).toEqual(before);
  });

  it('Idempotency-Key: the same request answers the first booking again; another body with the key is refused', async () => {
    const { room } = await roomIn();
    const key = randomUUID();
    const body = { room_id: room.id, check_in: '2027-08-01', check_out: '2027-08-02' };
    const first = await book(body, owner, { 'Idempotency-Key': key }).expect(201);
    const again = await book(body, owner, { 'Idempotency-Key': key }).expect(201);
    expect(again.body.id).toBe(first.body.id);
    expect(await t.db('bookings').where({ room_id: room.id })).toHaveLength(1);
    await book({ ...body, check_out: '2027-08-03' }, owner, { 'Idempotency-Key': key }).expect(422);
  });

  it('many clients booking overlapping stays at once: exactly one wins, the rest get 409, none a 500', async () => {
    const { room } = await roomIn();
    const responses = await Promise.all(
      Array.from({ length: 16 }, (_, i) =>
        book({
          room_id: room.id,
          check_in: `2027-09-${String(10 + (i % 3)).padStart(2, '0')}`,
          check_out: '2027-09-15',
        }),
      ),
    );
    const statuses = responses.map((r) => r.status).sort();
    expect(responses.filter((r) => r.status >= 500).map((r) => r.body)).toEqual([]);
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(15);
    const overlaps = await t.db.raw(
      `SELECT count(*)::int AS n FROM bookings a JOIN bookings b ON a.room_id = b.room_id AND a.id < b.id
       AND tstzrange(a.start_at, a.end_at) && tstzrange(b.start_at, b.end_at)
       WHERE a.status IN ('inquiry','confirmed','checked_in') AND b.status IN ('inquiry','confirmed','checked_in')
         AND a.room_id = ?`,
      [room.id],
    );
    expect(overlaps.rows[0].n).toBe(0);
  });
});

describe("the staff's notifications", () => {
  const inbox = async () =>
    (await t.http.get(api(owner, '/notifications?limit=200')).set(as(owner.accessToken)).expect(200)).body.items as {
      type: string;
      title: string;
      data: { booking_id?: string };
    }[];

  it('are written with the booking: there when its answer arrives, and not at all when it is refused', async () => {
    const { room } = await roomIn();
    const created = await book({ room_id: room.id, check_in: '2027-11-01', check_out: '2027-11-03' }).expect(201);
    const made = (await inbox()).filter((item) => item.data.booking_id === created.body.id);
    expect(made).toEqual([expect.objectContaining({ type: 'booking_created', title: 'Новое бронирование' })]);

    const before = (await inbox()).length;
    await book({ room_id: room.id, check_in: '2027-11-02', check_out: '2027-11-04' }).expect(409);
    expect(await inbox()).toHaveLength(before);
  });
});

describe('status moves', () => {
  it('inquiry → confirmed → checked_in → checked_out; illegal moves are 422', async () => {
    const { room } = await roomIn();
    const created = await book({
      room_id: room.id,
      check_in: '2027-10-01',
      check_out: '2027-10-03',
      status: 'inquiry',
    }).expect(201);
    const id = created.body.id;
    const early = await patch(id, { status: 'checked_in' }).expect(422);
    expect(early.body.error).toBe('Недопустимый переход статуса: inquiry → checked_in');
    await patch(id, { status: 'confirmed' }).expect(200);
    const inHouse = await patch(id, { status: 'checked_in' }).expect(200);
    expect(inHouse.body.checked_in_at).not.toBeNull();
    await patch(id, { status: 'cancelled' }).expect(422);
    const out = await patch(id, { status: 'checked_out' }).expect(200);
    expect(out.body.status).toBe('checked_out');
    await patch(id, { status: 'checked_in' }).expect(422);
    await patch(id, { notes: 'after the fact' }).expect(422);
  });

  it('check-out makes the room dirty with a turnover task, frees the room from now, and broadcasts', async () => {
    const { room } = await roomIn();
    const now = new Date();
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Moscow' }).format(now);
    const inTenDays = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Moscow' }).format(
      new Date(now.getTime() + 10 * 86_400_000),
    );
    const yesterday = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Moscow' }).format(
      new Date(now.getTime() - 86_400_000),
    );
    const stay = await book({ room_id: room.id, check_in: yesterday, check_out: inTenDays }).expect(201);
    await patch(stay.body.id, { status: 'checked_in' }).expect(200);
    const out = await patch(stay.body.id, { status: 'checked_out' }).expect(200);
    expect(new Date(out.body.end_at).getTime()).toBeLessThanOrEqual(Date.now());
    expect((await t.db('rooms').where({ id: room.id }).first()).status).toBe('dirty');
    const tasks = await t.db('housekeeping_tasks').where({ room_id: room.id, source: 'checkout' });
    expect(tasks).toEqual([
      expect.objectContaining({ booking_id: stay.body.id, category: 'housekeeping', status: 'pending' }),
    ]);
    // The room can be sold again for the rest of the original stay.
    await book({ room_id: room.id, check_in: today, check_out: inTenDays }).expect(201);
  });

  it('check-in honours require_payment_checkin: hard refuses a balance, soft warns, none ignores', async () => {
    const hotel = await registerHotel(t);
    const { room } = await roomIn(hotel);
    const stay = async (checkIn: string) =>
      (
        await book(
          {
            room_id: room.id,
            check_in: checkIn,
            check_out: `${checkIn.slice(0, 8)}${String(Number(checkIn.slice(8)) + 1).padStart(2, '0')}`,
          },
          hotel,
        ).expect(201)
      ).body;
    await t.http
      .patch(api(hotel, '/payment-settings'))
      .set(as(hotel.accessToken))
      .send({ require_payment_checkin: 'hard' })
      .expect(200);
    const unpaid = await stay('2027-11-01');
    const refused = await patch(unpaid.id, { status: 'checked_in' }, hotel).expect(422);
    expect(refused.body.error).toBe('Заселение невозможно: не оплачено 5000.00');
    await t.http
      .post(api(hotel, `/bookings/${unpaid.id}/payments`))
      .set(as(hotel.accessToken))
      .send({ amount: 5000, method: 'card' })
      .expect(201);
    await patch(unpaid.id, { status: 'checked_in' }, hotel).expect(200);

    await t.http
      .patch(api(hotel, '/payment-settings'))
      .set(as(hotel.accessToken))
      .send({ require_payment_checkin: 'soft' })
      .expect(200);
    const soft = await stay('2027-11-05');
    const warned = await patch(soft.id, { status: 'checked_in' }, hotel).expect(200);
    expect(warned.body.warnings).toEqual(['Гость заселён с задолженностью 5000.00']);
  });

  it('changing dates re-prices the stay unless the price was set by hand', async () => {
    const { room } = await roomIn();
    const auto = await book({ room_id: room.id, check_in: '2027-12-01', check_out: '2027-12-02' }).expect(201);
    const longer = await patch(auto.body.id, { check_out: '2027-12-04' }).expect(200);
    expect(longer.body).toMatchObject({ price: '15000.00', end_at: '2027-12-04T09:00:00.000Z' });
    const manual = await book({
      room_id: room.id,
      check_in: '2027-12-10',
      check_out: '2027-12-11',
      price: 1234,
    }).expect(201);
    const moved = await patch(manual.body.id, { check_out: '2027-12-12' }).expect(200);
    expect(moved.body).toMatchObject({ price: '1234.00', price_manual: true });
    await patch(manual.body.id, { check_in: '2027-12-01' }).expect(409);
  });
});

describe('payments', () => {
  it('each row moves paid_amount in the same transaction; deleting reverts it; Idempotency-Key is honoured', async () => {
    const { room } = await roomIn();
    const stay = (
      await book({ room_id: room.id, check_in: '2028-01-10', check_out: '2028-01-12', paid_amount: 3000 }).expect(201)
    ).body;
    expect(stay).toMatchObject({ paid_amount: '3000.00', balance: '7000.00' });
    const key = randomUUID();
    const pay = () =>
      t.http
        .post(api(owner, `/bookings/${stay.id}/payments`))
        .set(as(owner.accessToken))
        .set('Idempotency-Key', key)
        .send({ amount: '2500.50', method: 'card', note: 'терминал' });
    const first = await pay().expect(201);
    const retried = await pay().expect(201);
    expect(retried.body.payment.id).toBe(first.body.payment.id);
    expect(first.body.booking).toMatchObject({ paid_amount: '5500.50', balance: '4499.50' });
    const list = await t.http
      .get(api(owner, `/bookings/${stay.id}/payments`))
      .set(as(owner.accessToken))
      .expect(200);
    expect(list.body.map((p: { amount: string }) => p.amount)).toEqual(['3000.00', '2500.50']);
    const after = await t.http
      .delete(api(owner, `/bookings/${stay.id}/payments/${first.body.payment.id}`))
      .set(as(owner.accessToken))
      .expect(200);
    expect(after.body).toMatchObject({ paid_amount: '3000.00', balance: '7000.00' });
    await t.http
      .delete(api(owner, `/bookings/${stay.id}/payments/${first.body.payment.id}`))
      .set(as(owner.accessToken))
      .expect(404);
    await t.http
      .post(api(owner, `/bookings/${stay.id}/payments`))
      .set(as(owner.accessToken))
      .send({ amount: 0 })
      .expect(400);
  });
});

describe('booking guests', () => {
  it("adds and removes companions; another hotel's guest is refused", async () => {
    const { room } = await roomIn();
    const stay = (await book({ room_id: room.id, check_in: '2028-07-01', check_out: '2028-07-02' }).expect(201)).body;
    const companion = await t.http
      .post(api(owner, '/guests'))
      .set(as(owner.accessToken))
      .send({ last_name: 'Спутник', first_name: 'Олег' })
      .expect(201);
    const linked = await t.http
      .post(api(owner, `/bookings/${stay.id}/guests`))
      .set(as(owner.accessToken))
      .send({ guest_id: companion.body.id })
      .expect(200);
    expect(linked.body).toEqual(expect.arrayContaining([{ guest_id: companion.body.id, is_primary: false }]));
    expect(linked.body).toHaveLength(2);
    const foreign = await t.http
      .post(api(other, '/guests'))
      .set(as(other.accessToken))
      .send({ last_name: 'Чужой', first_name: 'Гость' })
      .expect(201);
    await t.http
      .post(api(owner, `/bookings/${stay.id}/guests`))
      .set(as(owner.accessToken))
      .send({ guest_id: foreign.body.id })
      .expect(400);
    const after = await t.http
      .delete(api(owner, `/bookings/${stay.id}/guests/${companion.body.id}`))
      .set(as(owner.accessToken))
      .expect(200);
    expect(after.body).toHaveLength(1);
    await t.http
      .delete(api(owner, `/bookings/${stay.id}/guests/${companion.body.id}`))
      .set(as(owner.accessToken))
      .expect(404);
  });
});

describe('calendar and availability', () => {
  it('lists by window, status, room and guest search', async () => {
    const { room } = await roomIn();
    const stay = (
      await book({
        room_id: room.id,
        check_in: '2028-02-01',
        check_out: '2028-02-03',
        guest_last_name: 'Уникальнова',
      }).expect(201)
    ).body;
    const found = await t.http
      .get(api(owner, `/bookings?from=2028-02-02&to=2028-02-02&room_id=${room.id}`))
      .set(as(owner.accessToken))
      .expect(200);
    expect(found.body.map((b: { id: string }) => b.id)).toEqual([stay.id]);
    const none = await t.http
      .get(api(owner, `/bookings?from=2028-02-04&to=2028-02-05&room_id=${room.id}`))
      .set(as(owner.accessToken))
      .expect(200);
    expect(none.body).toEqual([]);
    const search = await t.http.get(api(owner, '/bookings?q=уникальн')).set(as(owner.accessToken)).expect(200);
    expect(search.body.map((b: { id: string }) => b.id)).toEqual([stay.id]);
    const byPhone = await t.http
      .get(api(owner, `/bookings?q=1112233&room_id=${room.id}`))
      .set(as(owner.accessToken))
      .expect(200);
    expect(byPhone.body.map((b: { id: string }) => b.id)).toEqual([stay.id]);
    // The whole number typed another way (the domestic 8 prefix) finds the same stay.
    const byNumber = await t.http
      .get(api(owner, '/bookings'))
      .query({ q: '8 (999) 111-22-33', room_id: room.id })
      .set(as(owner.accessToken))
      .expect(200);
    expect(byNumber.body.map((b: { id: string }) => b.id)).toEqual([stay.id]);
  });

  it('availability counts free rooms per category and night', async () => {
    const hotel = await registerHotel(t);
    const category = await createCategory(t, hotel, { base_price: 3000 });
    const a = await createRoom(t, hotel, category.id, { number: '1' });
    await createRoom(t, hotel, category.id, { number: '2' });
    await book({ room_id: a.id, check_in: '2028-03-02', check_out: '2028-03-03' }, hotel).expect(201);
    const response = await t.http
      .get(api(hotel, '/availability?from=2028-03-01&to=2028-03-04'))
      .set(as(hotel.accessToken))
      .expect(200);
    expect(response.body.nights).toEqual(['2028-03-01', '2028-03-02', '2028-03-03']);
    expect(response.body.categories).toEqual([
      { category_id: category.id, total_rooms: 2, free: [2, 1, 2], sellable: true, restrictions: [], alternatives: [] },
    ]);
    expect(response.body.rooms.find((r: { room_id: string }) => r.room_id === a.id).free).toEqual([true, false, true]);
    await t.http.get(api(hotel, '/availability?from=2028-03-01&to=2028-09-01')).set(as(hotel.accessToken)).expect(400);
  });
});

describe('access', () => {
  it('the desk books; housekeepers cannot see the calendar; accountants record payments but do not book', async () => {
    const { room } = await roomIn();
    const maid = await addStaff(t, owner, 'housekeeper');
    const accountant = await addStaff(t, owner, 'accountant');
    await t.http.get(api(owner, '/bookings')).set(as(maid.accessToken)).expect(403);
    await t.http
      .post(api(owner, '/bookings'))
      .set(as(accountant.accessToken))
      .send({ ...guest, room_id: room.id, check_in: '2028-04-01', check_out: '2028-04-02' })
      .expect(403);
    const stay = (await book({ room_id: room.id, check_in: '2028-04-01', check_out: '2028-04-02' }).expect(201)).body;
    await t.http
      .post(api(owner, `/bookings/${stay.id}/payments`))
      .set(as(accountant.accessToken))
      .send({ amount: 100 })
      .expect(201);
  });

  it('another hotel: 403 on our routes, 404 for our booking through theirs, our rooms cannot be booked', async () => {
    const { room } = await roomIn();
    const stay = (await book({ room_id: room.id, check_in: '2028-05-01', check_out: '2028-05-02' }).expect(201)).body;
    await t.http.get(api(owner, '/bookings')).set(as(other.accessToken)).expect(403);
    await t.http
      .get(api(other, `/bookings/${stay.id}`))
      .set(as(other.accessToken))
      .expect(404);
    await patch(stay.id, { status: 'cancelled' }, other).expect(404);
    await t.http
      .post(api(other, `/bookings/${stay.id}/payments`))
      .set(as(other.accessToken))
      .send({ amount: 100 })
      .expect(404);
    await book({ room_id: room.id, check_in: '2028-06-01', check_out: '2028-06-02' }, other).expect(400);
    expect((await t.db('bookings').where({ id: stay.id }).first()).status).toBe('confirmed');
  });
});
