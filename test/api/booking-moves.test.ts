import { bookingsRepository } from '../../src/modules/bookings/bookings.repository';
import { addStaff, as, registerHotel, type RegisteredHotel } from '../helpers/accounts';
import { localDay } from '../helpers/dates';
import {
  connectStaff,
  startTestServer,
  type RealtimeMessage,
  type StaffClient,
  type TestServer,
} from '../helpers/realtime';
import { createCategory, createRoom } from '../helpers/structure';

let t: TestServer;
let owner: RegisteredHotel;
let other: RegisteredHotel;
let desk: StaffClient;
beforeAll(async () => {
  t = await startTestServer();
  [owner, other] = await Promise.all([registerHotel(t), registerHotel(t)]);
  desk = await connectStaff(t.wsUrl, owner.accessToken);
});
afterAll(async () => {
  await desk.close();
  await t.close();
});

const api = (hotel: RegisteredHotel, path: string) => `/api/hotels/${hotel.slug}${path}`;
const guest = { guest_last_name: 'Иванов', guest_first_name: 'Пётр' };

async function roomsIn(count: number, category: Record<string, unknown> = {}, room: Record<string, unknown> = {}) {
  const created = await createCategory(t, owner, { base_price: 5000, ...category });
  const rooms = [];
  for (let i = 0; i < count; i++) rooms.push(await createRoom(t, owner, created.id, room));
  return { category: created, rooms };
}

const book = (body: Record<string, unknown>) =>
  t.http
    .post(api(owner, '/bookings'))
    .set(as(owner.accessToken))
    .send({ ...guest, ...body });

const patch = (id: string, body: Record<string, unknown>) =>
  t.http
    .patch(api(owner, `/bookings/${id}`))
    .set(as(owner.accessToken))
    .send(body);

const move = (id: string, body: Record<string, unknown>, hotel = owner, headers: Record<string, string> = {}) =>
  t.http
    .post(api(hotel, `/bookings/${id}/move`))
    .set(as(hotel.accessToken))
    .set(headers)
    .send({ reason: 'Шумные соседи', ...body });

const read = async (id: string) =>
  (
    await t.http
      .get(api(owner, `/bookings/${id}`))
      .set(as(owner.accessToken))
      .expect(200)
  ).body;

async function freeNights(roomId: string, from: string, to: string): Promise<boolean[]> {
  const answer = await t.http
    .get(api(owner, '/availability'))
    .query({ from, to })
    .set(as(owner.accessToken))
    .expect(200);
  return answer.body.rooms.find((room: { room_id: string }) => room.room_id === roomId).free;
}

/** Nights of `roomId` held by more than one stay (from the segments, in SQL). */
async function nightsSoldTwice(roomId: string): Promise<number> {
  const { rows } = await t.db.raw(
    `SELECT count(*)::int AS n FROM booking_rooms a JOIN booking_rooms b
       ON a.room_id = b.room_id AND a.booking_id < b.booking_id AND a.during && b.during
     WHERE a.room_id = ? AND a.active AND b.active`,
    [roomId],
  );
  return rows[0].n;
}

describe('moving a booking before arrival', () => {
  it("moves the nights from a date to another room: segments, the old room's later nights free, the new one held", async () => {
    const { rooms } = await roomsIn(2);
    const [a, b] = rooms;
    const [d0, d2, d4] = [localDay(40), localDay(42), localDay(44)];
    const stay = await book({ room_id: a.id, check_in: d0, check_out: d4 }).expect(201);

    const moved = await move(stay.body.id, { room_id: b.id, from: d2 }).expect(200);
    expect(moved.body).toMatchObject({
      room_id: a.id,
      price: '20000.00',
      rooms: [
        { room_id: a.id, from: d0, to: d2 },
        { room_id: b.id, from: d2, to: d4 },
      ],
    });
    expect((await read(stay.body.id)).rooms).toEqual(moved.body.rooms);
    expect(await freeNights(a.id, d0, d4)).toEqual([false, false, true, true]);
    expect(await freeNights(b.id, d0, d4)).toEqual([true, true, false, false]);

    await book({ room_id: a.id, check_in: d2, check_out: d4, guest_last_name: 'Сидоров' }).expect(201);
    const clash = await book({ room_id: b.id, check_in: localDay(41), check_out: localDay(43) }).expect(409);
    expect(clash.body.error).toContain('Иванов Пётр');
  });

  it('a move from the first night moves the whole stay; moving back to the first room joins the segments', async () => {
    const { rooms } = await roomsIn(2);
    const [a, b] = rooms;
    const [d0, d1, d3] = [localDay(50), localDay(51), localDay(53)];
    const stay = await book({ room_id: a.id, check_in: d0, check_out: d3 }).expect(201);
    await move(stay.body.id, { room_id: b.id, from: d1 }).expect(200);
    const back = await move(stay.body.id, { room_id: a.id, from: d1 }).expect(200);
    expect(back.body.rooms).toEqual([expect.objectContaining({ room_id: a.id, from: d0, to: d3 })]);
    const whole = await move(stay.body.id, { room_id: b.id }).expect(200);
    expect(whole.body).toMatchObject({ room_id: b.id, rooms: [{ room_id: b.id, from: d0, to: d3 }] });
    expect(await freeNights(a.id, d0, d3)).toEqual([true, true, true]);
  });

  it("reprice: the nights moved are quoted at the new category's price, the others keep their share", async () => {
    const cheap = await roomsIn(1);
    const dear = await roomsIn(1, { base_price: 8000 });
    const [d0, d1, d3] = [localDay(60), localDay(61), localDay(63)];
    const stay = await book({ room_id: cheap.rooms[0].id, check_in: d0, check_out: d3 }).expect(201);
    expect(stay.body.price).toBe('15000.00');
    const moved = await move(stay.body.id, { room_id: dear.rooms[0].id, from: d1, reprice: true }).expect(200);
    expect(moved.body.price).toBe('21000.00');
    const kept = await move(stay.body.id, { room_id: cheap.rooms[0].id, from: d1 }).expect(200);
    expect(kept.body.price).toBe('21000.00');
  });
});

describe('refusals change nothing', () => {
  it('a finished booking, a night outside the stay, the same room, a closed or small room, a room taken', async () => {
    const { rooms } = await roomsIn(3, {}, { max_guests: 2 });
    const [a, b, c] = rooms;
    const small = (await roomsIn(1, {}, { max_guests: 1 })).rooms[0];
    const [d0, d1, d2, d3] = [localDay(70), localDay(71), localDay(72), localDay(73)];
    const stay = await book({ room_id: a.id, check_in: d0, check_out: d3, guests_count: 2 }).expect(201);
    await book({ room_id: c.id, check_in: d2, check_out: d3, guest_last_name: 'Петров' }).expect(201);
    await t.http
      .patch(api(owner, `/rooms/${b.id}/status`))
      .set(as(owner.accessToken))
      .send({
        status: 'maintenance',
        maintenance_from: `${d1}T00:00:00Z`,
        maintenance_to: `${d2}T00:00:00Z`,
      })
      .expect(200);
    const before = await read(stay.body.id);

    const outside = await move(stay.body.id, { room_id: c.id, from: localDay(69) }).expect(400);
    expect(outside.body.error).toBe(`Переселить можно с ночи ${d0} до ночи перед выездом ${d3}`);
    await move(stay.body.id, { room_id: c.id, from: d3 }).expect(400);
    expect((await move(stay.body.id, { room_id: a.id, from: d1 }).expect(422)).body.error).toBe(
      'Гость уже в этом номере в эти ночи',
    );
    expect((await move(stay.body.id, { room_id: b.id, from: d1 }).expect(422)).body.error).toBe(
      'Номер закрыт на обслуживание в эти даты',
    );
    expect((await move(stay.body.id, { room_id: small.id, from: d1 }).expect(422)).body.error).toBe(
      'В номере не больше 1 гостей',
    );
    const taken = await move(stay.body.id, { room_id: c.id, from: d1 }).expect(409);
    expect(taken.body).toMatchObject({ code: 'room_taken' });
    expect(taken.body.error).toContain('Петров Пётр');
    await move(stay.body.id, { room_id: c.id, reason: '' }).expect(400);
    await move(stay.body.id, { room_id: c.id, reason: 'x'.repeat(501) }).expect(400);
    await move(stay.body.id, { room_id: c.id, from: d1 }, other).expect(404);
    expect(await read(stay.body.id)).toEqual(before);

    await patch(stay.body.id, { status: 'cancelled' }).expect(200);
    const cancelled = await move(stay.body.id, { room_id: b.id, from: d2 }).expect(422);
    expect(cancelled.body.error).toBe('Выехавшего или отменённого гостя нельзя переселить');
  });

  it('a repriced total over the money column is a 422 (amount_limit), not a 500', async () => {
    const cheap = await roomsIn(1);
    // Ten nights moved at the largest nightly price fit the column alone; with the first night's share they do not.
    const dear = await roomsIn(1, { base_price: '999999999.99' });
    const [d0, d1, d11] = [localDay(190), localDay(191), localDay(201)];
    const stay = await book({ room_id: cheap.rooms[0].id, check_in: d0, check_out: d11, price: '1000000000' });
    expect(stay.status).toBe(201);
    const refused = await move(stay.body.id, { room_id: dear.rooms[0].id, from: d1, reprice: true }).expect(422);
    expect(refused.body).toMatchObject({ code: 'amount_limit' });
    expect((await read(stay.body.id)).rooms).toEqual([expect.objectContaining({ room_id: cheap.rooms[0].id })]);
  });

  it('takes If-Match like other changes: a stale version is refused', async () => {
    const { rooms } = await roomsIn(2);
    const stay = await book({ room_id: rooms[0].id, check_in: localDay(80), check_out: localDay(82) }).expect(201);
    const version = (
      await t.http
        .get(api(owner, `/bookings/${stay.body.id}`))
        .set(as(owner.accessToken))
        .expect(200)
    ).headers.etag;
    await patch(stay.body.id, { notes: 'Поздний заезд' }).expect(200);
    await move(stay.body.id, { room_id: rooms[1].id }, owner, { 'If-Match': version }).expect(412);
    const fresh = (await t.http.get(api(owner, `/bookings/${stay.body.id}`)).set(as(owner.accessToken))).headers.etag;
    await move(stay.body.id, { room_id: rooms[1].id }, owner, { 'If-Match': fresh }).expect(200);
  });

  it('the desk moves guests; housekeepers may not', async () => {
    const { rooms } = await roomsIn(2);
    const stay = await book({ room_id: rooms[0].id, check_in: localDay(84), check_out: localDay(85) }).expect(201);
    const housekeeper = await addStaff(t, owner, 'housekeeper');
    await t.http
      .post(api(owner, `/bookings/${stay.body.id}/move`))
      .set(as(housekeeper.accessToken))
      .send({ room_id: rooms[1].id, reason: 'Ремонт' })
      .expect(403);
    const receptionist = await addStaff(t, owner, 'receptionist');
    await t.http
      .post(api(owner, `/bookings/${stay.body.id}/move`))
      .set(as(receptionist.accessToken))
      .send({ room_id: rooms[1].id, reason: 'Ремонт' })
      .expect(200);
  });
});

describe('changing the dates of a moved booking', () => {
  it("moves its ends: the last room's segment stretches or goes; its room changes only by a move", async () => {
    const { rooms } = await roomsIn(3);
    const [a, b, c] = rooms;
    const [d0, d2, d4, d5] = [localDay(90), localDay(92), localDay(94), localDay(95)];
    const stay = await book({ room_id: a.id, check_in: d0, check_out: d4 }).expect(201);
    await move(stay.body.id, { room_id: b.id, from: d2 }).expect(200);

    const longer = await patch(stay.body.id, { check_out: d5 }).expect(200);
    expect(longer.body.rooms).toEqual([
      expect.objectContaining({ room_id: a.id, from: d0, to: d2 }),
      expect.objectContaining({ room_id: b.id, from: d2, to: d5 }),
    ]);
    expect(await freeNights(b.id, d4, d5)).toEqual([false]);
    const refused = await patch(stay.body.id, { room_id: c.id }).expect(422);
    expect(refused.body.error).toBe('У бронирования есть переезды: номер меняют переселением (move)');

    const shorter = await patch(stay.body.id, { check_out: d2 }).expect(200);
    expect(shorter.body.rooms).toEqual([expect.objectContaining({ room_id: a.id, from: d0, to: d2 })]);
    expect(await freeNights(b.id, d2, d5)).toEqual([true, true, true]);
  });
});

describe('a moved stay before arrival keeps its room true', () => {
  it('a new check-in past the move puts the booking in the room that holds it; later changes keep it there', async () => {
    const { rooms } = await roomsIn(2);
    const [a, b] = rooms;
    const [d0, d2, d3, d4, d5] = [localDay(140), localDay(142), localDay(143), localDay(144), localDay(145)];
    const stay = await book({ room_id: a.id, check_in: d0, check_out: d4 }).expect(201);
    await move(stay.body.id, { room_id: b.id, from: d2 }).expect(200);

    const later = await patch(stay.body.id, { check_in: d3 }).expect(200);
    expect(later.body).toMatchObject({ room_id: b.id, rooms: [{ room_id: b.id, from: d3, to: d4 }] });
    await book({ room_id: a.id, check_in: d3, check_out: d4, guest_last_name: 'Сидоров' }).expect(201);
    const longer = await patch(stay.body.id, { check_out: d5 }).expect(200);
    expect(longer.body).toMatchObject({ room_id: b.id, rooms: [{ room_id: b.id, from: d3, to: d5 }] });
  });

  it("a change of guests or dates is checked against every segment's room (size, maintenance)", async () => {
    const big = (await roomsIn(1, {}, { max_guests: 3 })).rooms[0];
    const small = (await roomsIn(1, {}, { max_guests: 2 })).rooms[0];
    const [d0, d2, d4, d5] = [localDay(150), localDay(152), localDay(154), localDay(155)];
    const stay = await book({ room_id: big.id, check_in: d0, check_out: d4, guests_count: 2 }).expect(201);
    await move(stay.body.id, { room_id: small.id, from: d2 }).expect(200);
    expect((await patch(stay.body.id, { guests_count: 3 }).expect(422)).body.error).toBe('В номере не больше 2 гостей');
    await t.http
      .patch(api(owner, `/rooms/${small.id}/status`))
      .set(as(owner.accessToken))
      .send({ status: 'maintenance', maintenance_from: `${d4}T12:00:00Z`, maintenance_to: `${d5}T12:00:00Z` })
      .expect(200);
    await patch(stay.body.id, { check_out: d5 }).expect(422);
    expect((await read(stay.body.id)).rooms).toEqual([
      expect.objectContaining({ room_id: big.id, from: d0, to: d2 }),
      expect.objectContaining({ room_id: small.id, from: d2, to: d4 }),
    ]);
  });

  it('the room filter of the bookings list finds a moved stay in each of its rooms', async () => {
    const { rooms } = await roomsIn(2);
    const [a, b] = rooms;
    const stay = await book({ room_id: a.id, check_in: localDay(160), check_out: localDay(164) }).expect(201);
    await move(stay.body.id, { room_id: b.id, from: localDay(162) }).expect(200);
    for (const room of [a, b]) {
      const found = await t.http
        .get(api(owner, '/bookings'))
        .query({ room_id: room.id })
        .set(as(owner.accessToken))
        .expect(200);
      expect(found.body.map((booking: { id: string }) => booking.id)).toEqual([stay.body.id]);
    }
  });
});

describe('a hotel whose check-in time is earlier than its check-out time', () => {
  it("switches rooms at the check-out time: the stay's segments never overlap", async () => {
    const early = await registerHotel(t);
    await t.http
      .patch(`/api/hotels/${early.slug}`)
      .set(as(early.accessToken))
      .send({ check_in_time: '10:00', check_out_time: '12:00' })
      .expect(200);
    const category = await createCategory(t, early, { base_price: 5000 });
    const [a, b] = [await createRoom(t, early, category.id), await createRoom(t, early, category.id)];
    const [d0, d1, d2] = [localDay(200), localDay(201), localDay(202)];
    const stay = await t.http
      .post(api(early, '/bookings'))
      .set(as(early.accessToken))
      .send({ ...guest, room_id: a.id, check_in: d0, check_out: d2 })
      .expect(201);
    const moved = await move(stay.body.id, { room_id: b.id, from: d1 }, early).expect(200);
    const [first, second] = moved.body.rooms;
    expect(first).toMatchObject({ room_id: a.id, from: d0 });
    expect(second).toMatchObject({ room_id: b.id, to: d2 });
    expect(first.end_at).toBe(second.start_at);
  });
});

describe('the segments stay true whoever writes (SQL by hand)', () => {
  const setStatus = (id: string, status: string) => t.db('bookings').where({ id }).update({ status });

  it('a cancelled stay put back holds its room again; put back into a room sold meanwhile it is refused', async () => {
    const { rooms } = await roomsIn(1);
    const [d0, d2] = [localDay(170), localDay(172)];
    const stay = await book({ room_id: rooms[0].id, check_in: d0, check_out: d2 }).expect(201);
    await setStatus(stay.body.id, 'cancelled');
    await setStatus(stay.body.id, 'confirmed');
    expect(await freeNights(rooms[0].id, d0, d2)).toEqual([false, false]);
    await book({ room_id: rooms[0].id, check_in: d0, check_out: d2, guest_last_name: 'Второй' }).expect(409);

    await setStatus(stay.body.id, 'cancelled');
    await book({ room_id: rooms[0].id, check_in: d0, check_out: d2, guest_last_name: 'Второй' }).expect(201);
    await expect(setStatus(stay.body.id, 'confirmed')).rejects.toThrow(/booking_rooms_no_double_booking/);
    expect((await read(stay.body.id)).status).toBe('cancelled');
  });

  it("a moved stay's room changed by hand is refused: the guest is never sent to a room nothing holds", async () => {
    const { rooms } = await roomsIn(3);
    const [a, b, c] = rooms;
    const stay = await book({ room_id: a.id, check_in: localDay(180), check_out: localDay(184) }).expect(201);
    await move(stay.body.id, { room_id: b.id, from: localDay(182) }).expect(200);
    await expect(t.db('bookings').where({ id: stay.body.id }).update({ room_id: c.id })).rejects.toThrow(
      /holds no segment in its room/,
    );
    await expect(t.db('bookings').where({ id: stay.body.id }).update({ room_id: b.id })).rejects.toThrow(
      /holds no segment in its room/,
    );
    expect((await read(stay.body.id)).room_id).toBe(a.id);
  });

  it('the stays that held a room, as a late kept stay reads them: checked out since too, never a cancelled one', async () => {
    const { rooms } = await roomsIn(1);
    const stays = [];
    for (const [night, status] of [
      [190, 'checked_out'],
      [191, 'cancelled'],
      [192, 'confirmed'],
    ] as const) {
      const stay = await book({
        room_id: rooms[0].id,
        check_in: localDay(night),
        check_out: localDay(night + 1),
      }).expect(201);
      await setStatus(stay.body.id, status);
      stays.push(await read(stay.body.id));
    }
    const span = { start: new Date(stays[0].start_at), end: new Date(stays[2].end_at) };
    const clashes = (used: boolean) =>
      bookingsRepository.clashes(t.db, owner.hotelId, [rooms[0].id], span, undefined, used);
    expect((await clashes(true)).map((stay) => stay.id)).toEqual([stays[0].id, stays[2].id]);
    expect((await clashes(false)).map((stay) => stay.id)).toEqual([stays[2].id]);
  });
});

describe('a guest in house', () => {
  const tasksOf = async (roomId: string) => t.db('housekeeping_tasks').where({ room_id: roomId, source: 'checkout' });

  it('moves tonight: the room left is free tonight and gets its turnover, staff hear of it and are offered a card', async () => {
    const { rooms } = await roomsIn(2);
    const [a, b] = rooms;
    const [yesterday, today, d2] = [localDay(-1), localDay(0), localDay(2)];
    const stay = await book({ room_id: a.id, check_in: yesterday, check_out: d2 }).expect(201);
    await patch(stay.body.id, { status: 'checked_in' }).expect(200);

    await move(stay.body.id, { room_id: b.id, from: yesterday }).expect(400);
    const moved = await move(stay.body.id, { room_id: b.id }).expect(200);
    expect(moved.body).toMatchObject({
      room_id: b.id,
      rooms: [
        { room_id: a.id, from: yesterday, to: today },
        { room_id: b.id, from: today, to: d2 },
      ],
    });
    expect(await tasksOf(a.id)).toEqual([expect.objectContaining({ booking_id: stay.body.id })]);
    expect((await t.db('rooms').where({ id: a.id }).first()).status).toBe('dirty');
    expect(await freeNights(a.id, today, d2)).toEqual([true, true]);
    await book({ room_id: a.id, check_in: today, check_out: d2, guest_last_name: 'Сидоров' }).expect(201);

    const isThisMove = (message: RealtimeMessage) =>
      message.type === 'booking:moved' && (message.payload as { booking_id: string }).booking_id === stay.body.id;
    expect(await desk.next(isThisMove)).toMatchObject({
      payload: {
        booking_id: stay.body.id,
        room_id: b.id,
        from_room_id: a.id,
        to_room_id: b.id,
        from: today,
        reason: 'Шумные соседи',
        now: true,
        rooms: [
          { room_id: a.id, from: yesterday, to: today },
          { room_id: b.id, from: today, to: d2 },
        ],
      },
    });
    const inbox = await t.http.get(api(owner, '/notifications?limit=200')).set(as(owner.accessToken)).expect(200);
    expect(
      inbox.body.items.filter(
        (item: { type: string; data: { booking_id?: string } }) =>
          item.type === 'booking_moved' && item.data.booking_id === stay.body.id,
      ),
    ).toEqual([
      expect.objectContaining({
        title: 'Гость переселён: перевыпустите ключ-карту',
        data: { booking_id: stay.body.id, room_id: b.id, from_room_id: a.id, card_reissue: true },
      }),
    ]);

    await patch(stay.body.id, { status: 'checked_out' }).expect(200);
    expect(await tasksOf(b.id)).toEqual([expect.objectContaining({ booking_id: stay.body.id })]);
    expect(await nightsSoldTwice(a.id)).toBe(0);
  });

  it('a move planned for a later night keeps the guest in the room (no turnover) until the desk moves them', async () => {
    const { rooms } = await roomsIn(2);
    const [a, b] = rooms;
    const [today, d1, d3] = [localDay(0), localDay(1), localDay(3)];
    const stay = await book({ room_id: a.id, check_in: today, check_out: d3 }).expect(201);
    await patch(stay.body.id, { status: 'checked_in' }).expect(200);
    const planned = await move(stay.body.id, { room_id: b.id, from: d1 }).expect(200);
    expect(planned.body.room_id).toBe(a.id);
    expect(await tasksOf(a.id)).toEqual([]);
    expect(await freeNights(a.id, today, d3)).toEqual([false, true, true]);
  });
});

describe('in-room services follow the guest', () => {
  it('Wi-Fi lets the guest in by the new room and surname after a move tonight, no longer by the old room', async () => {
    const wifi = await registerHotel(t);
    await t.http.patch(api(wifi, '/wifi-settings')).set(as(wifi.accessToken)).send({ enabled: true }).expect(200);
    const secret = (await t.http.post(api(wifi, '/wifi-settings/portal-secret')).set(as(wifi.accessToken)).expect(201))
      .body.portal_secret as string;
    const category = await createCategory(t, wifi, { base_price: 5000 });
    const [a, b] = [await createRoom(t, wifi, category.id), await createRoom(t, wifi, category.id)];
    const booked = await t.http
      .post(api(wifi, '/bookings'))
      .set(as(wifi.accessToken))
      .send({ ...guest, room_id: a.id, check_in: localDay(-1), check_out: localDay(2) })
      .expect(201);
    await t.http
      .patch(api(wifi, `/bookings/${booked.body.id}`))
      .set(as(wifi.accessToken))
      .send({ status: 'checked_in' })
      .expect(200);
    const verify = (room: string) =>
      t.http
        .post('/api/wifi-auth/verify')
        .set('Authorization', `Bearer ${secret}`)
        .send({ hotel: wifi.slug, client_mac: '02:00:00:00:00:01', room, last_name: 'Иванов' });
    await verify(a.number).expect(200);
    await move(booked.body.id, { room_id: b.id }, wifi).expect(200);
    expect((await verify(b.number).expect(200)).body).toMatchObject({ authorized: true });
    await verify(a.number).expect(403);
  });
});

describe('split stays at booking time', () => {
  it('availability offers the fewest moves when no one room is free every night; staff book it with its rooms', async () => {
    const { category, rooms } = await roomsIn(2);
    const [a, b] = rooms;
    const [d0, d2, d3, d4] = [localDay(120), localDay(122), localDay(123), localDay(124)];
    await book({ room_id: a.id, check_in: d0, check_out: d2, guest_last_name: 'Первый' }).expect(201);
    await book({ room_id: b.id, check_in: d3, check_out: d4, guest_last_name: 'Второй' }).expect(201);

    const offered = await t.http
      .get(api(owner, '/availability'))
      .query({ from: d0, to: d4, category_id: category.id })
      .set(as(owner.accessToken))
      .expect(200);
    const split = [
      { room_id: b.id, from: d0, to: d3 },
      { room_id: a.id, from: d3, to: d4 },
    ];
    expect(offered.body.categories).toEqual([expect.objectContaining({ sellable: false, split })]);

    const booked = await book({ rooms: split, check_in: d0, check_out: d4 }).expect(201);
    expect(booked.body).toMatchObject({ room_id: b.id, price: '20000.00', rooms: split });
    expect(await freeNights(a.id, d0, d4)).toEqual([false, false, true, false]);
    expect(await freeNights(b.id, d0, d4)).toEqual([false, false, false, false]);
    expect(await nightsSoldTwice(a.id)).toBe(0);
  });

  it('refuses rooms that do not follow each other, a night held (409 naming it), and rooms with a room_id', async () => {
    const { rooms } = await roomsIn(2);
    const [a, b] = rooms;
    const [d0, d1, d2] = [localDay(130), localDay(131), localDay(132)];
    await book({ room_id: b.id, check_in: d1, check_out: d2, guest_last_name: 'Занятов' }).expect(201);
    const gap = [
      { room_id: a.id, from: d0, to: d1 },
      { room_id: b.id, from: d2, to: localDay(133) },
    ];
    await book({ rooms: gap, check_in: d0, check_out: localDay(133) }).expect(400);
    const held = [
      { room_id: a.id, from: d0, to: d1 },
      { room_id: b.id, from: d1, to: d2 },
    ];
    const taken = await book({ rooms: held, check_in: d0, check_out: d2 }).expect(409);
    expect(taken.body.error).toContain('Занятов');
    await book({ rooms: held, room_id: a.id, check_in: d0, check_out: d2 }).expect(400);
    expect(await freeNights(a.id, d0, d2)).toEqual([true, true]);
  });
});

describe('under concurrency', () => {
  it('many moves and bookings into one room at once: no night is sold twice, nobody gets a 5xx', async () => {
    const { rooms } = await roomsIn(9);
    const [target, ...others] = rooms;
    const first = 100;
    const stays = [];
    for (const [i, room] of others.entries()) {
      const checkIn = localDay(first + (i % 3));
      stays.push(await book({ room_id: room.id, check_in: checkIn, check_out: localDay(first + 4) }).expect(201));
    }
    const responses = await Promise.all([
      ...stays.map((stay, i) => move(stay.body.id, { room_id: target.id, from: localDay(first + 1 + (i % 3)) })),
      ...Array.from({ length: 8 }, (_, i) =>
        book({ room_id: target.id, check_in: localDay(first + (i % 4)), check_out: localDay(first + 5) }),
      ),
    ]);
    expect(responses.filter((r) => r.status >= 500).map((r) => r.body)).toEqual([]);
    expect(responses.every((r) => [200, 201, 409].includes(r.status))).toBe(true);
    expect(responses.some((r) => r.status === 200 || r.status === 201)).toBe(true);
    expect(await nightsSoldTwice(target.id)).toBe(0);
    const held = await freeNights(target.id, localDay(first), localDay(first + 5));
    expect(held.some((free) => !free)).toBe(true);
  });
});
