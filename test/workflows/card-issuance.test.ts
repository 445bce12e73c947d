import { randomUUID } from 'node:crypto';
import type { ReferenceAgent } from '../fakes/agent';
import { fakeTTLockControl } from '../fakes/ttlock';
import { as, registerHotel, type RegisteredHotel } from '../helpers/accounts';
import { localDay } from '../helpers/dates';
import { deskWithAgent } from '../helpers/desks';
import { startTestServer, type TestServer } from '../helpers/realtime';
import { readStackInfo } from '../helpers/stack-env';
import { createCategory, createRoom } from '../helpers/structure';
import { until } from '../helpers/wait';
import { withTemporal } from '../helpers/workflows';

/**
 * Door-lock cards end to end: the API records the issuance, the test stack's worker runs `cardIssuance`, which fetches
 * the hotel info from the (fake) lock cloud and has the reference agent write the card over the real channel.
 */

let t: TestServer;
let owner: RegisteredHotel;
const agents: ReferenceAgent[] = [];
beforeAll(async () => {
  t = await startTestServer();
  owner = await registerHotel(t);
  await configureLocks(owner);
});
afterAll(async () => {
  await Promise.all(agents.map((agent) => agent.stop()));
  await t.close();
});

const hotelPath = (hotel: RegisteredHotel, rest: string) => `/api/hotels/${hotel.slug}${rest}`;
const locks = (hotel: RegisteredHotel, rest: string) => hotelPath(hotel, `/lockvendor/${rest}`);

async function configureLocks(hotel: RegisteredHotel) {
  const settings = {
    client_id: randomUUID().replaceAll('-', ''),
    client_secret: randomUUID().replaceAll('-', ''),
    username: `hotel_${randomUUID().slice(0, 8)}`,
    password: `Пароль ${randomUUID().slice(0, 8)}`,
  };
  await fakeTTLockControl(readStackInfo().env.TTLOCK_API_URL).registerAccount({
    clientId: settings.client_id,
    clientSecret: settings.client_secret,
    username: settings.username,
    password: settings.password,
  });
  await t.http
    .patch(locks(hotel, 'config'))
    .set(as(hotel.accessToken))
    .send({ ...settings, enabled: true })
    .expect(200);
}

let macCounter = 0;
/** A room with a lock on its door, and a confirmed booking of it from today. */
async function bookedRoomWithLock(hotel = owner, { lock = true } = {}) {
  const category = await createCategory(t, hotel);
  const room = await createRoom(t, hotel, category.id);
  const mac = `AA:BB:CC:00:00:${(++macCounter).toString(16).padStart(2, '0').toUpperCase()}`;
  if (lock) {
    await t.http
      .post(locks(hotel, 'room-locks'))
      .set(as(hotel.accessToken))
      .send({ lock_mac: mac, room_id: room.id, build_no: 1, floor_no: 3 })
      .expect((response) => expect([200, 201]).toContain(response.status));
  }
  const booking = await t.http
    .post(hotelPath(hotel, '/bookings'))
    .set(as(hotel.accessToken))
    .send({
      room_id: room.id,
      check_in: localDay(0),
      check_out: localDay(2),
      guest_last_name: 'Петров',
      guest_first_name: 'Пётр',
      status: 'confirmed',
    })
    .expect(201);
  return { room, mac, booking: booking.body as { id: string; status: string; end_at: string } };
}

/** A desk with its encoder on COM3 and the reference agent connected to it. */
async function deskWithEncoder(hotel = owner) {
  const desk = await deskWithAgent(t, hotel, { workstation: { name: 'Ресепшн', ttlock_com_port: 'COM3' } });
  agents.push(desk.agent);
  return desk;
}

interface Issuance {
  id: string;
  status: string;
  card_number: string | null;
  error_code: string | null;
  error_message: string | null;
}

async function issue(body: Record<string, unknown>, hotel = owner) {
  const response = await t.http.post(locks(hotel, 'issue-card')).set(as(hotel.accessToken)).send(body);
  return response;
}

const read = async (id: string, hotel = owner) =>
  (
    await t.http
      .get(locks(hotel, `cards/${id}`))
      .set(as(hotel.accessToken))
      .expect(200)
  ).body as Issuance;

const settled = (id: string) =>
  until(
    async () => {
      const card = await read(id);
      return card.status !== 'pending' && card;
    },
    { what: `card ${id} settled`, timeoutMs: 30_000 },
  );

describe('card issuance', () => {
  it("writes the card at the desk with the stay's validity and the chosen sectors, once", async () => {
    const { booking, mac } = await bookedRoomWithLock();
    const desk = await deskWithEncoder();
    const asked = await issue({ booking_id: booking.id, workstation_id: desk.id, sectors: [3, 1, 2] }).then((r) =>
      r.status === 202 ? r : Promise.reject(new Error(`${r.status} ${JSON.stringify(r.body)}`)),
    );
    expect(asked.body).toMatchObject({ status: 'pending', booking_id: booking.id, sectors: [1, 2, 3] });
    const card = await settled(asked.body.id);
    expect(card).toMatchObject({ status: 'written', card_number: expect.any(String), error_code: null });
    expect(desk.agent.cards).toHaveLength(1);
    expect(desk.agent.cards[0]).toMatchObject({ card_number: card.card_number });
    expect(desk.agent.cards[0].payload).toMatchObject({
      com_port: 'COM3',
      lock_macs: [mac],
      build_no: 1,
      floor_no: 3,
      sectors: [1, 2, 3],
      hotel_info: expect.any(String),
      valid_until: new Date(booking.end_at).toISOString(),
    });
    await withTemporal(async (client) => {
      const { searchAttributes } = await client.workflow.getHandle(`card:${card.id}`).describe();
      expect(searchAttributes.BookingId).toEqual([booking.id]);
    });
  });

  it('a desk offline when asked writes the card when it reconnects, exactly once', async () => {
    const { booking } = await bookedRoomWithLock();
    const desk = await deskWithEncoder();
    await desk.agent.goOffline();
    const asked = await issue({ booking_id: booking.id, workstation_id: desk.id, sectors: [1] });
    expect(asked.status).toBe(202);
    await until(async () => (await t.db('agent_commands').where({ workstation_id: desk.id }).first()) ?? false, {
      what: 'the command recorded',
    });
    expect((await read(asked.body.id)).status).toBe('pending');
    desk.agent.goOnline();
    const card = await settled(asked.body.id);
    expect(card.status).toBe('written');
    expect(desk.agent.executed.filter((command) => command.type === 'write_card')).toHaveLength(1);
  });

  it('a lost reply is answered again from the agent’s memory: one card, recorded once', async () => {
    const { booking } = await bookedRoomWithLock();
    const desk = await deskWithEncoder();
    desk.agent.dropNextReply('write_card');
    const asked = await issue({ booking_id: booking.id, workstation_id: desk.id, sectors: [1] });
    await until(() => desk.agent.cards.length === 1, { what: 'the card written' });
    // The reply was lost: the desk reconnects and is sent the pending command again, under the same id.
    await desk.agent.goOffline();
    desk.agent.goOnline();
    const card = await settled(asked.body.id);
    expect(card).toMatchObject({ status: 'written', card_number: desk.agent.cards[0].card_number });
    expect(desk.agent.cards).toHaveLength(1);
    expect(desk.agent.redeliveries).toBeGreaterThanOrEqual(1);
  });

  it("records the encoder's refusal in words staff understand", async () => {
    const { booking } = await bookedRoomWithLock();
    const desk = await deskWithEncoder();
    desk.agent.setCardPresent(false);
    const asked = await issue({ booking_id: booking.id, workstation_id: desk.id, sectors: [1] });
    const card = await settled(asked.body.id);
    expect(card).toMatchObject({ status: 'failed', error_code: 'no_card', card_number: null });
    expect(card.error_message).toContain('Приложите карту к энкодеру');
  });

  it('a reply holding U+0000 (a driver’s port name) is recorded: the staff request and the card both complete', async () => {
    const { booking } = await bookedRoomWithLock();
    const desk = await deskWithEncoder();
    desk.agent.setNulTerminatedPorts(true);
    const ports = await t.http
      .get(hotelPath(owner, `/workstations/${desk.id}/list-ports`))
      .set(as(owner.accessToken))
      .expect(200);
    expect(ports.body.ports.map((port: { name: string }) => port.name)).toEqual(['COM1\u0000', 'COM3\u0000']);
    desk.agent.setCardPresent(false);
    const asked = await issue({ booking_id: booking.id, workstation_id: desk.id, sectors: [1] });
    const card = await settled(asked.body.id);
    // The words keep the port, U+0000 shown as «␀» (a record's text cannot hold it); the card was tried once.
    expect(card).toMatchObject({ status: 'failed', error_code: 'no_card' });
    expect(card.error_message).toBe('Приложите карту к энкодеру: No card on the encoder at COM3\u2400');
    expect(desk.agent.executed.filter((command) => command.type === 'write_card')).toHaveLength(1);
  });

  it('refuses what cannot be written: no lock on the door, no encoder port, a booking not active, bad sectors', async () => {
    const desk = await deskWithEncoder();
    const unlocked = await bookedRoomWithLock(owner, { lock: false });
    expect((await issue({ booking_id: unlocked.booking.id, workstation_id: desk.id, sectors: [1] })).body.code).toBe(
      'room_without_lock',
    );
    const { booking } = await bookedRoomWithLock();
    const portless = await t.http
      .post(hotelPath(owner, '/workstations'))
      .set(as(owner.accessToken))
      .send({ name: 'Без энкодера' })
      .expect(201);
    expect((await issue({ booking_id: booking.id, workstation_id: portless.body.id, sectors: [1] })).body.code).toBe(
      'encoder_port_missing',
    );
    for (const sectors of [[0], [17], [], [1, 1]]) {
      expect((await issue({ booking_id: booking.id, workstation_id: desk.id, sectors })).status).toBe(400);
    }
    const late = new Date(Date.parse(booking.end_at) + 86_400_000).toISOString();
    expect(
      (await issue({ booking_id: booking.id, workstation_id: desk.id, sectors: [1], valid_until: late })).body.code,
    ).toBe('card_validity_out_of_stay');
    await t.http
      .patch(hotelPath(owner, `/bookings/${booking.id}`))
      .set(as(owner.accessToken))
      .send({ status: 'cancelled', cancel_reason: 'test' })
      .expect(200);
    expect((await issue({ booking_id: booking.id, workstation_id: desk.id, sectors: [1] })).body.code).toBe(
      'booking_not_active',
    );
    expect(await t.db('card_issuances').where({ workstation_id: portless.body.id })).toHaveLength(0);
  });

  it('cancels a written card put on the encoder, and refuses another card', async () => {
    const { booking } = await bookedRoomWithLock();
    const desk = await deskWithEncoder();
    const asked = await issue({ booking_id: booking.id, workstation_id: desk.id, sectors: [1] });
    const card = await settled(asked.body.id);
    desk.agent.placeCard('FFFF0001');
    const other = await t.http
      .post(locks(owner, `cards/${card.id}/cancel`))
      .set(as(owner.accessToken))
      .send({ workstation_id: desk.id })
      .expect(409);
    expect(other.body.code).toBe('other_card');
    desk.agent.placeCard(card.card_number!);
    const cancelled = await t.http
      .post(locks(owner, `cards/${card.id}/cancel`))
      .set(as(owner.accessToken))
      .send({ workstation_id: desk.id })
      .expect(200);
    expect(cancelled.body).toMatchObject({ status: 'cancelled', cancelled_at: expect.any(String) });
    const list = await t.http
      .get(locks(owner, `cards?booking_id=${booking.id}`))
      .set(as(owner.accessToken))
      .expect(200);
    expect(list.body.map((item: Issuance) => item.status)).toEqual(['cancelled']);
  });

  it('dll-info asks the desk for its encoder DLL on the encoder port', async () => {
    const desk = await deskWithEncoder();
    const info = await t.http
      .get(locks(owner, `dll-info?workstation_id=${desk.id}`))
      .set(as(owner.accessToken))
      .expect(200);
    expect(info.body).toEqual({ dll_version: expect.any(String), encoder_connected: true });
    expect(desk.agent.executed.at(-1)).toMatchObject({ type: 'dll_info' });
  });

  it("another hotel's staff see nothing of our cards and cannot issue on our bookings or desks", async () => {
    const stranger = await registerHotel(t);
    const { booking } = await bookedRoomWithLock();
    const desk = await deskWithEncoder();
    const asked = await issue({ booking_id: booking.id, workstation_id: desk.id, sectors: [1] });
    await settled(asked.body.id);
    await t.http
      .get(locks(stranger, `cards/${asked.body.id}`))
      .set(as(stranger.accessToken))
      .expect(404);
    expect((await issue({ booking_id: booking.id, workstation_id: desk.id, sectors: [1] }, stranger)).status).toBe(404);
    expect(desk.agent.cards).toHaveLength(1);
  });
});
