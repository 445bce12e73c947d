import type { ReferenceAgent } from '../fakes/agent';
import { startFakeTv, type FakeTv } from '../fakes/tv';
import { as, registerHotel, type RegisteredHotel } from '../helpers/accounts';
import { localDay } from '../helpers/dates';
import { deskWithAgent } from '../helpers/desks';
import { startTestServer, type TestServer } from '../helpers/realtime';
import { createCategory, createRoom } from '../helpers/structure';
import { until } from '../helpers/wait';

/**
 * A guest in house moved tonight: the booking's workflow tells the TV system the guest left the old room and arrived
 * in the new one, in that order; a move planned for a later night tells it nothing.
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
  for (let i = 0; i < 4; i++) rooms.push(await createRoom(t, owner, category.id));
  await t.http
    .patch(`/api/hotels/${owner.slug}/tv-integration/settings`)
    .set(as(owner.accessToken))
    .send({
      enabled: true,
      connection_type: 'agent',
      agent_workstation_id: desk.id,
      server_url: fake.url,
      default_language: 'ru',
      netup_room_number: { [rooms[0].id]: '101', [rooms[1].id]: '102', [rooms[2].id]: '103', [rooms[3].id]: '104' },
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

const move = (id: string, body: Record<string, unknown>) =>
  t.http
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
