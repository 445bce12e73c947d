import { once } from 'node:events';
import { createServer, type AddressInfo } from 'node:net';
import { ApplicationFailure } from '@temporalio/common';
import { MockActivityEnvironment } from '@temporalio/testing';
import { createTvClient } from '../../src/integrations/tv';
import { tvActivities } from '../../src/modules/tv/tv.activities';
import { TV_PUSH_REFUSED, type TvActivities, type TvPushInput } from '../../workflows/contracts/tv';
import { startFakeTv, type FakeTv } from '../fakes/tv';
import { as, registerHotel, type RegisteredHotel } from '../helpers/accounts';
import { deskWithAgent } from '../helpers/desks';
import { startTestServer, type TestServer } from '../helpers/realtime';
import { createCategory, createRoom } from '../helpers/structure';

let fake: FakeTv;
let t: TestServer;
let activities: TvActivities;

beforeAll(async () => {
  fake = await startFakeTv();
  t = await startTestServer({ ALLOW_PRIVATE_OUTBOUND: 'true' });
  activities = tvActivities(t.services.tv, t.services.agents);
});
afterAll(async () => {
  await t.close();
  await fake.close();
});
beforeEach(() => fake.reset());

/** One attempt of the activity, as Temporal runs it (the attempt number is what names a desk command). */
const push = (input: TvPushInput, attempt = 1) =>
  new MockActivityEnvironment({ attempt }).run(activities.pushStayToTv, input);

interface Setup {
  hotel: RegisteredHotel;
  roomId: string;
  bookingId: string;
}

async function hotelWithGuest(settings: (roomId: string) => Record<string, unknown>): Promise<Setup> {
  const hotel = await registerHotel(t);
  const category = await createCategory(t, hotel);
  const room = await createRoom(t, hotel, category.id);
  const bookings = `/api/hotels/${hotel.slug}/bookings`;
  const created = await t.http
    .post(bookings)
    .set(as(hotel.accessToken))
    .send({
      room_id: room.id,
      check_in: '2031-05-01',
      check_out: '2031-05-04',
      guest_first_name: 'Мария',
      guest_last_name: 'Кузнецова',
    })
    .expect(201);
  await t.http
    .patch(`${bookings}/${created.body.id}`)
    .set(as(hotel.accessToken))
    .send({ status: 'checked_in' })
    .expect(200);
  // The check-in was committed while the integration was off: the booking's workflow was told of nothing to push, so
  // the TV system and the log see only the test's own attempts.
  const own = { hotel_id: hotel.hotelId, booking_id: created.body.id as string };
  await t.http
    .patch(`/api/hotels/${hotel.slug}/tv-integration/settings`)
    .set(as(hotel.accessToken))
    .send(settings(room.id))
    .expect(200);
  return { hotel, roomId: room.id, bookingId: own.booking_id };
}

const logOf = (setup: Setup) =>
  t
    .db('tv_push_log')
    .where({ hotel_id: setup.hotel.hotelId })
    .orderBy([{ column: 'created_at', order: 'desc' }]);

const direct = (roomId: string) => ({ enabled: true, server_url: fake.url, netup_room_number: { [roomId]: '305' } });

async function failureOf(attempt: Promise<unknown>): Promise<ApplicationFailure> {
  const error = await attempt.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(ApplicationFailure);
  return error as ApplicationFailure;
}

describe('pushStayToTv', () => {
  it('sends the check-in and the check-out directly, with one reference, and logs each', async () => {
    const setup = await hotelWithGuest(direct);
    const input = { hotelId: setup.hotel.hotelId, bookingId: setup.bookingId };
    expect(await push({ ...input, event: 'check_in' })).toBe('ok');
    // Not checked out through the API: the booking workflow would push that check-out too.
    expect(await push({ ...input, event: 'check_out' })).toBe('ok');
    const [checkin, checkout] = fake.accepted();
    expect(checkin).toMatchObject({
      kind: 'checkin',
      body: { room: '305', guest: { first_name: 'Мария', last_name: 'Кузнецова' }, language: 'ru' },
    });
    expect(checkout.kind).toBe('checkout');
    expect(checkout.body.reference).toBe(checkin.body.reference);
    expect(checkin.body.reference).not.toContain(setup.bookingId);
    expect(await logOf(setup)).toEqual([
      expect.objectContaining({
        event: 'check_out',
        status: 'ok',
        via: 'direct',
        attempt: 1,
        booking_id: setup.bookingId,
      }),
      expect.objectContaining({ event: 'check_in', status: 'ok', via: 'direct', attempt: 1, http_status: 200 }),
    ]);
  });

  it('skips (and logs why) while the integration is off or the room is not mapped', async () => {
    const off = await hotelWithGuest((roomId) => ({ server_url: fake.url, netup_room_number: { [roomId]: '1' } }));
    expect(await push({ hotelId: off.hotel.hotelId, bookingId: off.bookingId, event: 'check_in' })).toBe('skipped');
    expect(await logOf(off)).toEqual([expect.objectContaining({ status: 'skipped', detail: 'Интеграция выключена' })]);

    const unmapped = await hotelWithGuest(() => ({ enabled: true, server_url: fake.url }));
    const input = { hotelId: unmapped.hotel.hotelId, bookingId: unmapped.bookingId, event: 'check_in' as const };
    expect(await push(input)).toBe('skipped');
    expect((await logOf(unmapped))[0]).toMatchObject({
      status: 'skipped',
      detail: 'Номер не сопоставлен с номером ТВ-системы',
    });
    expect(fake.received).toHaveLength(0);
  });

  it('fails retryable while the TV system is down, logging the attempt, and succeeds once it is back', async () => {
    const setup = await hotelWithGuest(direct);
    const input = { hotelId: setup.hotel.hotelId, bookingId: setup.bookingId, event: 'check_in' as const };
    fake.down();
    const failure = await failureOf(push(input, 3));
    expect(failure.nonRetryable).toBe(false);
    expect(failure.message).toBe('HTTP 503: tv system unavailable');
    expect(failure.message).not.toContain('Кузнецова');
    fake.up();
    expect(await push(input, 4)).toBe('ok');
    expect(await logOf(setup)).toEqual([
      expect.objectContaining({ status: 'ok', attempt: 4 }),
      expect.objectContaining({ status: 'error', attempt: 3, http_status: 503 }),
    ]);
  });

  it('gives up at once when the TV system refuses (4xx)', async () => {
    const setup = await hotelWithGuest(direct);
    fake.refuse();
    const failure = await failureOf(
      push({ hotelId: setup.hotel.hotelId, bookingId: setup.bookingId, event: 'check_in' }),
    );
    expect(failure.nonRetryable).toBe(true);
    expect(failure.type).toBe(TV_PUSH_REFUSED);
    expect((await logOf(setup))[0]).toMatchObject({ status: 'error', http_status: 400 });
  });

  it('is slow-tolerant: a TV system answering late still counts', async () => {
    const setup = await hotelWithGuest(direct);
    fake.slow(1500);
    expect(await push({ hotelId: setup.hotel.hotelId, bookingId: setup.bookingId, event: 'check_in' })).toBe('ok');
  });

  it("goes through the desk's agent as an http_request command per attempt", async () => {
    const setup = await hotelWithGuest(() => ({ default_language: 'ru' }));
    const desk = await deskWithAgent(t, setup.hotel);
    const deskId = desk.id;
    try {
      await t.http
        .patch(`/api/hotels/${setup.hotel.slug}/tv-integration/settings`)
        .set(as(setup.hotel.accessToken))
        .send({
          ...direct(setup.roomId),
          connection_type: 'agent',
          agent_workstation_id: deskId,
          server_url: `${fake.url}/`,
        })
        .expect(200);
      const input = { hotelId: setup.hotel.hotelId, bookingId: setup.bookingId, event: 'check_in' as const };
      fake.down();
      expect((await failureOf(push(input, 1))).nonRetryable).toBe(false);
      fake.up();
      expect(await push(input, 2)).toBe('ok');
      const commands = await t.db('agent_commands').where({ workstation_id: deskId }).orderBy('created_at');
      expect(commands.map((row: { key: string }) => row.key)).toEqual([
        `tv:${setup.bookingId}:check_in:1`,
        `tv:${setup.bookingId}:check_in:2`,
      ]);
      expect(fake.accepted()).toHaveLength(1);
      expect(await logOf(setup)).toEqual([
        expect.objectContaining({ status: 'ok', via: 'agent', attempt: 2 }),
        expect.objectContaining({ status: 'error', via: 'agent', attempt: 1, http_status: 503 }),
      ]);
    } finally {
      await desk.agent.stop();
    }
  });
});

describe('the TV client', () => {
  it('names a refused connection as worth retrying', async () => {
    // A port that was just free: nothing listens there.
    const closed = createServer().listen(0, '127.0.0.1');
    await once(closed, 'listening');
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    const stay = {
      room: '1',
      firstName: 'A',
      lastName: 'B',
      language: 'ru',
      arrival: new Date(),
      departure: new Date(),
      reference: 'r',
    };
    expect(await createTvClient({ timeoutMs: 2000 }).checkIn(`http://127.0.0.1:${port}`, stay)).toEqual({
      kind: 'retryable',
      status: null,
      detail: 'ошибка соединения: ECONNREFUSED',
    });
  });
});
