import type { ReferenceAgent } from '../fakes/agent';
import { startFakeTv, type FakeTv } from '../fakes/tv';
import { as, registerHotel, type RegisteredHotel } from '../helpers/accounts';
import { createTestApp, type TestApp } from '../helpers/app';
import { localDay } from '../helpers/dates';
import { deskWithAgent } from '../helpers/desks';
import { connectStaff, startTestServer, type RealtimeMessage, type TestServer } from '../helpers/realtime';
import { createCategory, createRoom } from '../helpers/structure';
import { until } from '../helpers/wait';

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
beforeAll(async () => {
  fake = await startFakeTv();
  t = await startTestServer();
  owner = await registerHotel(t);
  // The TV server on the hotel's network, reached through a desk's agent (as the booking workflow's TV test does).
  const desk = await deskWithAgent(t, owner, { workstation: { name: 'Ресепшн ТВ' } });
  agent = desk.agent;
  const category = await createCategory(t, owner);
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
  beforeAll(async () => {
    quick = createTestApp({ PLANNED_MOVE_DELAY_MS: '8000' });
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
  });

  it('once, into the room last planned (a plan changed, then undone, then made again), with its consequences', async () => {
    const staff = await connectStaff(t.wsUrl, owner.accessToken);
    try {
      const id = await guestInHouse(rooms[4].id, 'Планируемая', localDay(3));
      await until(() => pushesOf('Планируемая').length === 1, { what: 'the check-in pushed', timeoutMs: 30_000 });
      const tomorrow = localDay(1);
      await move(id, { room_id: rooms[5].id, from: tomorrow }, quick);
      await move(id, { room_id: rooms[6].id, from: tomorrow }, quick);
      await move(id, { room_id: rooms[4].id, from: tomorrow }, quick);
      await move(id, { room_id: rooms[5].id, from: tomorrow }, quick);
      // Until then, the booking's timeline shows it to come.
      await until(
        async () => {
          const { body } = await t.http
            .get(hotelPath(`/bookings/${id}/timeline`))
            .set(as(owner.accessToken))
            .expect(200);
          return body.upcoming.entries.some((entry: { kind: string }) => entry.kind === 'room_move');
        },
        { what: 'the planned move in the timeline', timeoutMs: 5_000 },
      );

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
});
