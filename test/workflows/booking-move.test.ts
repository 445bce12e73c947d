import type { ReferenceAgent } from '../fakes/agent';
import { startFakeTv, type FakeTv } from '../fakes/tv';
import { as, registerHotel, uniqueEmail, type RegisteredHotel } from '../helpers/accounts';
import { createTestApp, type TestApp } from '../helpers/app';
import { localDay } from '../helpers/dates';
import { deskWithAgent } from '../helpers/desks';
import { connectStaff, startTestServer, type RealtimeMessage, type TestServer } from '../helpers/realtime';
import { createCategory, createRoom } from '../helpers/structure';
import { until } from '../helpers/wait';
import { outboxWorkflowsAtRest, withTemporal } from '../helpers/workflows';

/**
 * A guest in house moved tonight: the booking's workflow tells the TV system the guest left the old room and arrived
 * in the new one, in that order; a move planned for a later night tells it nothing until the workflow carries it out
 * on its day.
 */

jest.setTimeout(90_000);

let t: TestServer;
let owner: RegisteredHotel;
let fake: FakeTv;
let agent: ReferenceAgent;
const rooms: { id: string }[] = [];
let categoryId: string;
beforeAll(async () => {
  fake = await startFakeTv();
  t = await startTestServer();
  owner = await registerHotel(t);
  // The TV server on the hotel's network, reached through a desk's agent (as the booking workflow's TV test does).
  const desk = await deskWithAgent(t, owner, { workstation: { name: 'Ресепшн ТВ' } });
  agent = desk.agent;
  const category = await createCategory(t, owner);
  categoryId = category.id;
  for (let i = 0; i < 7; i++) rooms.push(await createRoom(t, owner, category.id));
  await t.http
    .patch(`/api/hotels/${owner.slug}/tv-integration/settings`)
    .set(as(owner.accessToken))
    .send({
      enabled: true,
      connection_type: 'agent',
      agent_workstation_id: desk.id,
      server_url: fake.url,
      default_language: 'ru',
      netup_room_number: Object.fromEntries(rooms.map((room, i) => [room.id, String(101 + i)])),
    })
    .expect(200);
});
afterAll(async () => {
  await agent?.stop();
  await t?.close();
  await fake?.close();
});

const hotelPath = (rest: string) => `/api/hotels/${owner.slug}${rest}`;

async function guestInHouse(roomId: string, lastName: string, checkOut = localDay(2)) {
  const booking = await t.http
    .post(hotelPath('/bookings'))
    .set(as(owner.accessToken))
    .send({
      room_id: roomId,
      check_in: localDay(0),
      check_out: checkOut,
      guest_last_name: lastName,
      guest_first_name: 'Вера',
    })
    .expect(201);
  await t.http
    .patch(hotelPath(`/bookings/${booking.body.id}`))
    .set(as(owner.accessToken))
    .send({ status: 'checked_in' })
    .expect(200);
  return booking.body.id as string;
}

const move = (id: string, body: Record<string, unknown>, app: Pick<TestApp, 'http'> = t) =>
  app.http
    .post(hotelPath(`/bookings/${id}/move`))
    .set(as(owner.accessToken))
    .send({ reason: 'Протечка', ...body })
    .expect(200);

const pushesOf = (lastName: string) =>
  fake
    .accepted()
    .filter((push) => (push.body.guest as { last_name?: string } | undefined)?.last_name === lastName)
    .map((push) => `${push.kind} ${push.body.room}`);

describe('a move through the booking workflow', () => {
  it('tells the TV system: check-out of the room left, then check-in of the new one', async () => {
    const id = await guestInHouse(rooms[0].id, 'Переездова');
    await until(() => pushesOf('Переездова').length === 1, { what: 'the check-in pushed', timeoutMs: 30_000 });
    await move(id, { room_id: rooms[1].id });
    const pushes = await until(() => pushesOf('Переездова').length === 3 && pushesOf('Переездова'), {
      what: 'the move pushed',
      timeoutMs: 30_000,
    });
    expect(pushes).toEqual(['checkin 101', 'checkout 101', 'checkin 102']);
    // The move's desk commands are keyed by the move (activity ids start again in a new run), one move for both.
    const keys = (await t.db('agent_commands').where('key', 'like', `tv:${id}:%`).pluck('key')) as string[];
    const moveKeys = keys.filter((key) => key.split(':').length === 5);
    expect(moveKeys.sort()).toEqual([
      expect.stringMatching(new RegExp(`^tv:${id}:check_in:1:[0-9a-f-]{36}$`)),
      expect.stringMatching(new RegExp(`^tv:${id}:check_out:1:[0-9a-f-]{36}$`)),
    ]);
    expect(new Set(moveKeys.map((key) => key.split(':')[4])).size).toBe(1);
  });

  it('a move planned for a later night tells the TV system nothing until the guest moves', async () => {
    const id = await guestInHouse(rooms[2].id, 'Планова', localDay(3));
    await until(() => pushesOf('Планова').length === 1, { what: 'the check-in pushed', timeoutMs: 30_000 });
    await move(id, { room_id: rooms[3].id, from: localDay(1) });
    // A later push of this guest's, after the planned move, marks that nothing was sent for it.
    await t.http
      .patch(hotelPath(`/bookings/${id}`))
      .set(as(owner.accessToken))
      .send({ status: 'checked_out' })
      .expect(200);
    await until(() => pushesOf('Планова').length === 2, { what: 'the check-out pushed', timeoutMs: 30_000 });
    expect(pushesOf('Планова')).toEqual(['checkin 103', 'checkout 103']);
  });
});

describe('a move planned for a later night, carried out by the booking workflow on its day', () => {
  // The API planning the moves is a test app whose planned moves come due seconds after they are planned, not at
  // their day's check-in hour (as REVIEW_INVITATION_DELAY_MS does for review invitations); the shared worker carries
  // them out.
  let quick: TestApp;
  // And one whose planned moves are due as soon as they are planned.
  let due: TestApp;
  beforeAll(async () => {
    quick = createTestApp({ PLANNED_MOVE_DELAY_MS: '8000' });
    due = createTestApp({ PLANNED_MOVE_DELAY_MS: '0' });
    // Days turn at midnight, so tomorrow's nights begin within a day of now: the database holds a guest in house to
    // a room of theirs within a day, and this move is carried out before its day.
    await t.http
      .patch(hotelPath('/settings'))
      .set(as(owner.accessToken))
      .send({ check_in_time: '00:00', check_out_time: '00:00' })
      .expect(200);
  });
  afterAll(async () => {
    await quick?.close();
    await due?.close();
  });

  /** The planned move the booking's timeline shows to come (its time), once its workflow has it. */
  const upcomingMove = (id: string) =>
    until(
      async () => {
        const { body } = await t.http
          .get(hotelPath(`/bookings/${id}/timeline`))
          .set(as(owner.accessToken))
          .expect(200);
        const entry = body.upcoming.entries.find((item: { kind: string }) => item.kind === 'room_move');
        return entry?.at as string | undefined;
      },
      { what: 'the planned move in the timeline', timeoutMs: 30_000 },
    );

  it('once, into the room last planned (a plan changed, then undone, then made again), with its consequences', async () => {
    const staff = await connectStaff(t.wsUrl, owner.accessToken);
    try {
      const id = await guestInHouse(rooms[4].id, 'Планируемая', localDay(3));
      await until(() => pushesOf('Планируемая').length === 1, { what: 'the check-in pushed', timeoutMs: 30_000 });
      const tomorrow = localDay(1);
      // Planned by the main app: waited for until its day's check-in time in the hotel's zone (00:00 here).
      await move(id, { room_id: rooms[6].id, from: tomorrow });
      expect(await upcomingMove(id)).toBe(new Date(`${tomorrow}T00:00:00+03:00`).toISOString());
      // Changed, undone, made again through the quick app: carried out seconds after.
      await move(id, { room_id: rooms[5].id, from: tomorrow }, quick);
      await move(id, { room_id: rooms[4].id, from: tomorrow }, quick);
      await move(id, { room_id: rooms[5].id, from: tomorrow }, quick);

      const pushes = await until(() => pushesOf('Планируемая').length >= 3 && pushesOf('Планируемая'), {
        what: 'the planned move carried out',
        timeoutMs: 45_000,
      });
      expect(pushes).toEqual(['checkin 105', 'checkout 105', 'checkin 106']);
      const { body: booking } = await t.http
        .get(hotelPath(`/bookings/${id}`))
        .set(as(owner.accessToken))
        .expect(200);
      expect(booking.room_id).toBe(rooms[5].id);
      expect((await t.db('rooms').where({ id: rooms[4].id }).first()).status).toBe('dirty');
      const carriedOut = (message: RealtimeMessage) =>
        message.type === 'booking:moved' && (message.payload as { now: boolean; booking_id: string }).now;
      expect(await staff.next(carriedOut)).toMatchObject({
        payload: { booking_id: id, from_room_id: rooms[4].id, to_room_id: rooms[5].id, from: tomorrow, now: true },
      });
      const inbox = await t.http.get(hotelPath('/notifications?limit=200')).set(as(owner.accessToken)).expect(200);
      expect(
        inbox.body.items.filter(
          (item: { type: string; data: { booking_id?: string; card_reissue?: boolean } }) =>
            item.type === 'booking_moved' && item.data.booking_id === id && item.data.card_reissue,
        ),
      ).toEqual([expect.objectContaining({ data: expect.objectContaining({ room_id: rooms[5].id }) })]);

      // Once: the check-out is the next and last push of this guest's.
      await t.http
        .patch(hotelPath(`/bookings/${id}`))
        .set(as(owner.accessToken))
        .send({ status: 'checked_out' })
        .expect(200);
      await until(() => pushesOf('Планируемая').length >= 4, { what: 'the check-out pushed', timeoutMs: 30_000 });
      expect(pushesOf('Планируемая')).toEqual(['checkin 105', 'checkout 105', 'checkin 106', 'checkout 106']);
    } finally {
      await staff.close();
    }
  });
  /** A stay split in two rooms, `a` tonight and `b` from tomorrow, booked by staff through `app`. */
  async function splitStay(app: Pick<TestApp, 'http'>, lastName: string) {
    const [a, b] = [await createRoom(t, owner, categoryId), await createRoom(t, owner, categoryId)];
    const { body } = await app.http
      .post(hotelPath('/bookings'))
      .set(as(owner.accessToken))
      .send({
        check_in: localDay(0),
        check_out: localDay(3),
        rooms: [
          { room_id: a.id, from: localDay(0), to: localDay(1) },
          { room_id: b.id, from: localDay(1), to: localDay(3) },
        ],
        guest_last_name: lastName,
        guest_first_name: 'Вера',
      })
      .expect(201);
    return { id: body.id as string, a: a.id as string, b: b.id as string };
  }

  const checkIn = (id: string, app: Pick<TestApp, 'http'>) =>
    app.http
      .patch(hotelPath(`/bookings/${id}`))
      .set(as(owner.accessToken))
      .send({ status: 'checked_in' })
      .expect(200);

  const roomOf = async (id: string) =>
    (
      await t.http
        .get(hotelPath(`/bookings/${id}`))
        .set(as(owner.accessToken))
        .expect(200)
    ).body.room_id as string;

  it('a split stay whose move came due before the guest arrived: the check-in plans it again, carried out', async () => {
    const stay = await splitStay(due, 'Опоздавшая');
    // The plan its creation told the workflow came due with the guest not in house: passed, nothing moved.
    await withTemporal((client) =>
      outboxWorkflowsAtRest(t.db, client, (outbox) => outbox.where('workflow_id', `booking:${stay.id}`), {
        what: 'the planned move passed',
      }),
    );
    expect(await roomOf(stay.id)).toBe(stay.a);
    await checkIn(stay.id, due);
    await until(async () => (await roomOf(stay.id)) === stay.b, { what: 'the guest moved', timeoutMs: 30_000 });
  });

  const setStatus = (roomId: string, status: string) =>
    t.http
      .patch(hotelPath(`/rooms/${roomId}/status`))
      .set(as(owner.accessToken))
      .send({ status })
      .expect(200);

  /**
   * The desk's notice that the planned move of `id` was not carried out (`kept`: one saying the guest stays in their
   * room), once the workflow has come to it.
   */
  const skippedNotice = (id: string, kept = false) =>
    until(
      async () => {
        const inbox = await t.http.get(hotelPath('/notifications?limit=200')).set(as(owner.accessToken)).expect(200);
        return inbox.body.items.find(
          (item: { type: string; data: { booking_id?: string; planned_room_id?: string; room_kept?: boolean } }) =>
            item.type === 'booking_moved' &&
            item.data.booking_id === id &&
            item.data.planned_room_id &&
            (!kept || item.data.room_kept),
        );
      },
      { what: kept ? 'the desk told the guest stays' : 'the desk told', timeoutMs: 30_000 },
    );

  const read = async (id: string) =>
    (
      await t.http
        .get(hotelPath(`/bookings/${id}`))
        .set(as(owner.accessToken))
        .expect(200)
    ).body;

  /** Another guest booked into `roomId` for the nights a split stay plans in its second room. */
  const laterNightsIn = (roomId: string, lastName: string) =>
    t.http
      .post(hotelPath('/bookings'))
      .set(as(owner.accessToken))
      .send({
        room_id: roomId,
        check_in: localDay(1),
        check_out: localDay(3),
        guest_last_name: lastName,
        guest_first_name: 'Ольга',
      });

  /** Per room, whether it is free each night from `from` to `to`, as the staff availability answers. */
  async function freeNights(roomIds: string[], from: string, to: string) {
    const { body } = await t.http
      .get(hotelPath('/availability'))
      .query({ from, to })
      .set(as(owner.accessToken))
      .expect(200);
    return roomIds.map((roomId) => body.rooms.find((room: { room_id: string }) => room.room_id === roomId).free);
  }

  it('a planned move into a room closed since is not carried out: the guest keeps their room to the end, the planned one is freed', async () => {
    const staff = await connectStaff(t.wsUrl, owner.accessToken);
    try {
      const stay = await splitStay(t, 'Закрытова');
      await setStatus(stay.b, 'closed');
      await checkIn(stay.id, due);
      const told = await skippedNotice(stay.id);
      expect(told).toMatchObject({
        title: expect.stringContaining('гость остаётся в номере'),
        data: { planned_room_id: stay.b, room_id: stay.a, room_kept: true, card_reissue: false },
      });
      expect(told.body).toContain(`ночи с ${localDay(1)} закреплены за ним`);
      const booking = await read(stay.id);
      expect(booking.room_id).toBe(stay.a);
      expect(booking.rooms).toEqual([expect.objectContaining({ room_id: stay.a, from: localDay(0), to: localDay(3) })]);
      const back = (message: RealtimeMessage) =>
        message.type === 'booking:moved' && (message.payload as { booking_id: string }).booking_id === stay.id;
      expect(await staff.next(back, 10_000)).toMatchObject({
        payload: { from_room_id: stay.b, to_room_id: stay.a, from: localDay(1), now: false, room_id: stay.a },
      });
      // Open again, the planned room is free on the nights the plan held; the guest's room is not.
      await setStatus(stay.b, 'clean');
      expect(await freeNights([stay.a, stay.b], localDay(1), localDay(3))).toEqual([
        [false, false],
        [true, true],
      ]);
      const second = await laterNightsIn(stay.a, 'Вторая').expect(409);
      expect(second.body.code).toBe('room_taken');
      // The plan is undone: the workflow, at rest, moved nobody (no turnover of the guest's room either).
      await withTemporal((client) =>
        outboxWorkflowsAtRest(t.db, client, (outbox) => outbox.where('workflow_id', `booking:${stay.id}`), {
          what: 'the workflow at rest',
        }),
      );
      expect(await roomOf(stay.id)).toBe(stay.a);
      expect((await t.db('rooms').where({ id: stay.a }).first()).status).not.toBe('dirty');
    } finally {
      await staff.close();
    }
  });

  /**
   * The planned room closed, then the guest checked in: the plan is not carried out and the guest's room not kept, the
   * notice saying why (`wording`); nothing changed (the stay still plans the closed room, the desk decides), and staff
   * saw no nights move back.
   */
  async function notKept(stay: { id: string; a: string; b: string }, wording: RegExp) {
    await setStatus(stay.b, 'closed');
    await checkIn(stay.id, due);
    const told = await skippedNotice(stay.id);
    expect(told).toMatchObject({
      title: 'Запланированное переселение не выполнено',
      data: { planned_room_id: stay.b, room_id: stay.a, room_kept: false, card_reissue: false },
    });
    expect(told.body).toMatch(wording);
    expect((await read(stay.id)).rooms).toEqual([
      expect.objectContaining({ room_id: stay.a, to: localDay(1) }),
      expect.objectContaining({ room_id: stay.b, from: localDay(1) }),
    ]);
    // The event is written in the notice's transaction: none there now is none at all.
    const moved = await t
      .db('realtime_events')
      .where({ hotel_id: owner.hotelId, type: 'booking:moved' })
      .whereRaw("payload->>'booking_id' = ?", [stay.id]);
    expect(moved).toEqual([]);
  }

  it("a planned move into a room closed since, the guest's room sold meanwhile: not carried out, the desk told it is taken", async () => {
    const stay = await splitStay(t, 'Проданова');
    await laterNightsIn(stay.a, 'Купленова').expect(201);
    await notKept(
      stay,
      /Номер .+, где живёт гость, с \S+ уже занят \(бронирование Купленова Ольга, .+\): переселите гостя/,
    );
  });

  it("a planned move into a room closed since, the guest's room under maintenance from that day: not kept, the desk told why", async () => {
    const stay = await splitStay(t, 'Ремонтова');
    // The split exists because the guest's room is under maintenance from the planned day.
    await t.http
      .patch(hotelPath(`/rooms/${stay.a}`))
      .set(as(owner.accessToken))
      .send({ maintenance_from: `${localDay(1)}T00:00:00+03:00`, maintenance_to: `${localDay(3)}T00:00:00+03:00` })
      .expect(200);
    const unusable = 'тоже не может его принять \\(Номер закрыт на обслуживание в эти даты\\)';
    await notKept(stay, new RegExp(`Номер .+, где живёт гость, с ${localDay(1)} ${unusable}: переселите гостя`));
  });

  it("the guest's room freed after a plan not kept: the plan signalled again keeps it to the end of the planned segment (A, B, C), the desk told anew", async () => {
    const stay = await splitStay(t, 'Повторова');
    const sold = await laterNightsIn(stay.a, 'Отменова').expect(201);
    await notKept(stay, /уже занят \(бронирование Отменова Ольга/);
    await t.http
      .patch(hotelPath(`/bookings/${sold.body.id}`))
      .set(as(owner.accessToken))
      .send({ status: 'cancelled' })
      .expect(200);
    // The last night moved to a third room: the move's commit signals the stay's next plan again (B, tomorrow).
    const c = await createRoom(t, owner, categoryId);
    await move(stay.id, { room_id: c.id, from: localDay(2) }, due);
    expect(await skippedNotice(stay.id, true)).toMatchObject({ data: { planned_room_id: stay.b, room_kept: true } });
    expect((await read(stay.id)).rooms).toEqual([
      expect.objectContaining({ room_id: stay.a, from: localDay(0), to: localDay(2) }),
      expect.objectContaining({ room_id: c.id, from: localDay(2), to: localDay(3) }),
    ]);
  });

  it('a stay of a block cancelled since, planned into a room of another category that closed: its own room kept', async () => {
    const [own, planned] = [await createCategory(t, owner), await createCategory(t, owner)];
    const [a, b] = [await createRoom(t, owner, own.id), await createRoom(t, owner, planned.id)];
    const block = await t.http
      .post(hotelPath('/blocks'))
      .set(as(owner.accessToken))
      .send({
        name: 'Конференция',
        status: 'definite',
        allotment: [{ category_id: own.id, from: localDay(0), to: localDay(2), rooms: 1 }],
      })
      .expect(201);
    const picked = await t.http
      .post(hotelPath(`/blocks/${block.body.id}/pickup`))
      .set(as(owner.accessToken))
      .send({
        guests: [
          {
            category_id: own.id,
            check_in: localDay(0),
            check_out: localDay(3),
            room_id: a.id,
            guest_last_name: 'Блокова',
            guest_first_name: 'Вера',
          },
        ],
      })
      .expect(201);
    const id = picked.body.bookings[0].id as string;
    await move(id, { room_id: b.id, from: localDay(1) });
    await t.http
      .patch(hotelPath(`/blocks/${block.body.id}`))
      .set(as(owner.accessToken))
      .send({ status: 'cancelled' })
      .expect(200);
    await setStatus(b.id, 'closed');
    await checkIn(id, due);
    // The block no longer holds: the stay enters the holds as any stay would, and its room is free.
    expect(await skippedNotice(id, true)).toMatchObject({ data: { planned_room_id: b.id, room_kept: true } });
    expect((await read(id)).rooms).toEqual([expect.objectContaining({ room_id: a.id, to: localDay(3) })]);
  });

  it('a split stay the widget offered and a guest booked: moved into its second room by the workflow', async () => {
    const hotel = await registerHotel(t);
    const path = (rest: string) => `/api/hotels/${hotel.slug}${rest}`;
    await t.http
      .patch(path('/settings'))
      .set(as(hotel.accessToken))
      .send({ check_in_time: '00:00', check_out_time: '00:00' })
      .expect(200);
    const category = await createCategory(t, hotel);
    const [a, b] = [await createRoom(t, hotel, category.id), await createRoom(t, hotel, category.id)];
    const [d0, d1, d2] = [localDay(0), localDay(1), localDay(2)];
    // Room a is taken tonight, room b tomorrow night: no one room takes both, the two in turn do.
    for (const held of [
      { room_id: a.id, check_in: d0, check_out: d1 },
      { room_id: b.id, check_in: d1, check_out: d2 },
    ])
      await t.http
        .post(path('/bookings'))
        .set(as(hotel.accessToken))
        .send({ ...held, guest_last_name: 'Занятов', guest_first_name: 'Иван' })
        .expect(201);
    const offer = await t.http
      .get(`/api/widget/${hotel.slug}/availability`)
      .query({ from: d0, to: d2, guests: 1 })
      .expect(200);
    const split = offer.body.categories[0].split;
    expect(split).toEqual([
      { from: d0, to: d1 },
      { from: d1, to: d2 },
    ]);
    const { body } = await quick.http
      .post(`/api/widget/${hotel.slug}/bookings`)
      .send({
        category_id: category.id,
        check_in: d0,
        check_out: d2,
        guests_count: 1,
        split,
        guest_last_name: 'Виджетова',
        guest_first_name: 'Вера',
        guest_phone: '+79990001122',
        guest_email: uniqueEmail('split-guest'),
      })
      .expect(201);
    const id = body.booking.id as string;
    for (const status of ['confirmed', 'checked_in'])
      await quick.http
        .patch(path(`/bookings/${id}`))
        .set(as(hotel.accessToken))
        .send({ status })
        .expect(200);
    await until(
      async () =>
        (
          await t.http
            .get(path(`/bookings/${id}`))
            .set(as(hotel.accessToken))
            .expect(200)
        ).body.room_id === a.id,
      { what: 'the guest moved into the second room', timeoutMs: 45_000 },
    );
  });
});
