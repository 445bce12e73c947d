import { startFakeTv, type FakeTv } from '../fakes/tv';
import type { ReferenceAgent } from '../fakes/agent';
import { as, registerHotel, type RegisteredHotel } from '../helpers/accounts';
import { localDay } from '../helpers/dates';
import { deskWithAgent } from '../helpers/desks';
import { startTestServer, type TestServer } from '../helpers/realtime';
import { createCategory, createRoom } from '../helpers/structure';
import { until } from '../helpers/wait';

/**
 * The booking workflow tells the hotel's TV system of check-ins and check-outs, here through a desk's agent (the TV
 * server on the hotel's network): the status change never waits for it, each attempt is logged, and a TV system that
 * is down is tried again until it answers.
 */

jest.setTimeout(90_000);

let t: TestServer;
let owner: RegisteredHotel;
let fake: FakeTv;
let agent: ReferenceAgent;
let roomId: string;
beforeAll(async () => {
  fake = await startFakeTv();
  t = await startTestServer();
  owner = await registerHotel(t);
  const desk = await deskWithAgent(t, owner, { workstation: { name: 'Ресепшн ТВ' } });
  agent = desk.agent;
  const category = await createCategory(t, owner);
  roomId = (await createRoom(t, owner, category.id)).id;
  await t.http
    .patch(`/api/hotels/${owner.slug}/tv-integration/settings`)
    .set(as(owner.accessToken))
    .send({
      enabled: true,
      connection_type: 'agent',
      agent_workstation_id: desk.id,
      server_url: fake.url,
      default_language: 'ru',
      netup_room_number: { [roomId]: '101' },
    })
    .expect(200);
});
afterAll(async () => {
  await agent?.stop();
  await t?.close();
  await fake?.close();
});

const hotelPath = (rest: string) => `/api/hotels/${owner.slug}${rest}`;

async function setStatus(bookingId: string, status: string) {
  const started = Date.now();
  await t.http
    .patch(hotelPath(`/bookings/${bookingId}`))
    .set(as(owner.accessToken))
    .send({ status })
    .expect(200);
  return Date.now() - started;
}

interface LogEntry {
  booking_id: string | null;
  event: string;
  status: string;
  attempt: number;
  detail: string | null;
}

async function logOf(bookingId: string): Promise<LogEntry[]> {
  const answer = await t.http.get(hotelPath('/tv-integration/log')).set(as(owner.accessToken)).expect(200);
  return (answer.body as LogEntry[]).filter((entry) => entry.booking_id === bookingId);
}

describe('TV pushes from the booking workflow', () => {
  it('check-in greets the guest, check-out forgets them; a TV system down is retried and never blocks the desk', async () => {
    const booking = await t.http
      .post(hotelPath('/bookings'))
      .set(as(owner.accessToken))
      .send({
        room_id: roomId,
        check_in: localDay(0),
        check_out: localDay(2),
        guest_last_name: 'Телевизорова',
        guest_first_name: 'Вера',
      })
      .expect(201);
    const id = booking.body.id as string;

    fake.slow(3000);
    // The desk's answer does not wait for the TV system, slow as it is.
    expect(await setStatus(id, 'checked_in')).toBeLessThan(2500);
    const checkIn = await until(() => fake.accepted().find((push) => push.kind === 'checkin'), {
      what: 'the check-in pushed',
      timeoutMs: 30_000,
    });
    expect(checkIn.body).toMatchObject({ room: '101', guest: { first_name: 'Вера', last_name: 'Телевизорова' } });
    await until(async () => (await logOf(id)).some((entry) => entry.event === 'check_in' && entry.status === 'ok'), {
      what: 'the check-in logged ok',
    });

    fake.slow(0);
    fake.down();
    expect(await setStatus(id, 'checked_out')).toBeLessThan(2500);
    await until(
      async () => (await logOf(id)).some((entry) => entry.event === 'check_out' && entry.status === 'error'),
      {
        what: 'the failed check-out logged',
        timeoutMs: 30_000,
      },
    );
    fake.up();
    await until(() => fake.accepted().some((push) => push.kind === 'checkout'), {
      what: 'the check-out pushed once the TV system is back',
      timeoutMs: 60_000,
    });
    const attempts = await until(
      async () => {
        const logged = (await logOf(id)).filter((entry) => entry.event === 'check_out');
        return logged.some((entry) => entry.status === 'ok') && logged;
      },
      { what: 'the check-out logged ok' },
    );
    expect(Math.max(...attempts.map((entry) => entry.attempt))).toBeGreaterThanOrEqual(2);
  });
});
