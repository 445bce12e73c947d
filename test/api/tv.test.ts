import { randomUUID } from 'node:crypto';
import { createPollLog } from '../../src/modules/tv/tv.poll-log';
import { pollTvpms, startFakeTv, type FakeTv } from '../fakes/tv';
import { addStaff, as, registerHotel, superAdminToken, type RegisteredHotel } from '../helpers/accounts';
import { createTestApp, type TestApp } from '../helpers/app';
import { deskWithAgent } from '../helpers/desks';
import { problem } from '../helpers/problem';
import { startTestServer, type TestServer } from '../helpers/realtime';
import { createCategory, createRoom } from '../helpers/structure';
import { until } from '../helpers/wait';

let fake: FakeTv;
let t: TestServer;
let owner: RegisteredHotel;
let other: RegisteredHotel;

beforeAll(async () => {
  fake = await startFakeTv();
  // The fake TV system listens on 127.0.0.1: this server may call it directly (a strict one is made below).
  t = await startTestServer({ ALLOW_PRIVATE_OUTBOUND: 'true' });
  [owner, other] = await Promise.all([registerHotel(t), registerHotel(t)]);
});
afterAll(async () => {
  await t.close();
  await fake.close();
});
beforeEach(() => fake.reset());

const path = (hotel: RegisteredHotel, rest: string) => `/api/hotels/${hotel.slug}/tv-integration/${rest}`;
const token = () => `tv-${randomUUID()}`;

const patchSettings = (hotel: RegisteredHotel, body: Record<string, unknown>, app: TestApp = t) =>
  app.http.patch(path(hotel, 'settings')).set(as(hotel.accessToken)).send(body);

async function roomOf(hotel: RegisteredHotel) {
  const category = await createCategory(t, hotel);
  return createRoom(t, hotel, category.id);
}

async function checkedIn(hotel: RegisteredHotel, roomId: string, guest: { first: string; last: string }, day: string) {
  const base = `/api/hotels/${hotel.slug}/bookings`;
  const created = await t.http
    .post(base)
    .set(as(hotel.accessToken))
    .send({
      room_id: roomId,
      check_in: day,
      check_out: '2031-01-01',
      guest_first_name: guest.first,
      guest_last_name: guest.last,
    })
    .expect(201);
  await t.http
    .patch(`${base}/${created.body.id}`)
    .set(as(hotel.accessToken))
    .send({ status: 'checked_in' })
    .expect(200);
  return created.body as { id: string; start_at: string; end_at: string };
}

const log = async (hotel: RegisteredHotel) =>
  (await t.http.get(path(hotel, 'log')).set(as(hotel.accessToken)).expect(200)).body as Record<string, unknown>[];

const testCheckin = (hotel: RegisteredHotel, body: Record<string, unknown> = {}) =>
  t.http.post(path(hotel, 'test-checkin')).set(as(hotel.accessToken)).send(body);

describe('settings', () => {
  it('start off, and the poll token is stored as a digest and never answered', async () => {
    const hotel = await registerHotel(t);
    const initial = await t.http.get(path(hotel, 'settings')).set(as(hotel.accessToken)).expect(200);
    expect(initial.body).toMatchObject({
      enabled: false,
      connection_type: 'direct',
      agent_workstation_id: null,
      server_url: null,
      default_language: 'ru',
      netup_room_number: {},
      tl_token_set: false,
      tl_token_hint: null,
    });
    expect(initial.headers.etag).toBeDefined();
    const secret = token();
    const changed = await patchSettings(hotel, { tl_token: secret }).expect(200);
    expect(changed.body).toMatchObject({ tl_token_set: true, tl_token_hint: `…${secret.slice(-4)}` });
    expect(JSON.stringify(changed.body)).not.toContain(secret);
    const row = await t.db('tv_settings').where({ hotel_id: hotel.hotelId }).first();
    expect(JSON.stringify(row)).not.toContain(secret);
    // If-Match: a stale version changes nothing.
    await t.http
      .patch(path(hotel, 'settings'))
      .set(as(hotel.accessToken))
      .set('If-Match', initial.headers.etag as string)
      .send({ default_language: 'en' })
      .expect(412);
    await patchSettings(hotel, { tl_token: null }).expect(200);
    expect((await t.http.get(path(hotel, 'settings')).set(as(hotel.accessToken))).body.tl_token_set).toBe(false);
  });

  it('refuse a private server address for direct calls, and allow it through a desk', async () => {
    const strict = createTestApp();
    try {
      const hotel = await registerHotel(strict);
      const refused = await patchSettings(hotel, { server_url: 'http://192.168.1.20:8080' }, strict).expect(400);
      expect(refused.body.error).toContain('адрес частной сети');
      await patchSettings(hotel, { server_url: 'http://127.0.0.1/tv' }, strict).expect(400);
      const workstation = await strict.http
        .post(`/api/hotels/${hotel.slug}/workstations`)
        .set(as(hotel.accessToken))
        .send({ name: 'Ресепшн' })
        .expect(201);
      const body = {
        connection_type: 'agent',
        agent_workstation_id: workstation.body.id,
        server_url: 'http://192.168.1.20:8080',
      };
      const saved = await patchSettings(hotel, body, strict).expect(200);
      expect(saved.body).toMatchObject(body);
      // Back to direct with that address: refused again.
      await patchSettings(hotel, { connection_type: 'direct' }, strict).expect(400);
    } finally {
      await strict.close();
    }
  });

  it('need a desk of this hotel for agent mode, a server to enable, and known tokens are taken', async () => {
    const hotel = await registerHotel(t);
    await patchSettings(hotel, { connection_type: 'agent' }).expect(400);
    const foreign = await t.http
      .post(`/api/hotels/${other.slug}/workstations`)
      .set(as(other.accessToken))
      .send({ name: 'Чужой' })
      .expect(201);
    await patchSettings(hotel, { connection_type: 'agent', agent_workstation_id: foreign.body.id }).expect(400);
    await patchSettings(hotel, { enabled: true }).expect(400);
    await patchSettings(hotel, { server_url: 'ftp://tv.example.com' }).expect(400);
    await patchSettings(hotel, { default_language: 'xx' }).expect(400);
    await patchSettings(other, { tl_token: 'short' }).expect(400);
  });

  it("never say whether another hotel holds a token: a vendor's token is kept per hotel", async () => {
    const [first, second] = await Promise.all([registerHotel(t), registerHotel(t)]);
    const [firstRoom, secondRoom] = await Promise.all([roomOf(first), roomOf(second)]);
    await checkedIn(first, firstRoom.id, { first: 'Вера', last: 'Первая' }, '2030-12-01');
    await checkedIn(second, secondRoom.id, { first: 'Глеб', last: 'Второй' }, '2030-12-01');
    const vendor = token();
    const mapped = (roomId: string) => ({ enabled: true, server_url: fake.url, netup_room_number: { [roomId]: '7' } });
    const set = await patchSettings(first, { ...mapped(firstRoom.id), tl_token: vendor }).expect(200);
    // The same token in another hotel answers exactly as a token nobody holds.
    const again = await patchSettings(second, { ...mapped(secondRoom.id), tl_token: vendor }).expect(200);
    const unused = await patchSettings(second, { tl_token: token() }).expect(200);
    const shape = (body: Record<string, unknown>) => Object.keys(body).sort();
    expect(shape(again.body)).toEqual(shape(set.body));
    expect(shape(unused.body)).toEqual(shape(again.body));
    await patchSettings(second, { tl_token: vendor }).expect(200);
    expect(again.body).toMatchObject({ tl_token_set: true, tl_token_kind: 'vendor' });
    // Each hotel's TV system reads its own guests with it, naming its hotel; a poll naming none finds nobody.
    const firstPoll = await pollTvpms(t.baseUrl, vendor, { hotel: first.slug });
    expect(firstPoll.body.reservations).toEqual([expect.objectContaining({ guest_name: 'Вера Первая' })]);
    const secondPoll = await pollTvpms(t.baseUrl, vendor, { hotel: second.slug, via: 'query' });
    expect(secondPoll.body.reservations).toEqual([expect.objectContaining({ guest_name: 'Глеб Второй' })]);
    expect((await pollTvpms(t.baseUrl, vendor)).status).toBe(401);
    expect((await pollTvpms(t.baseUrl, vendor, { hotel: other.slug })).status).toBe(401);
    const rows = await t.db('tv_settings').whereIn('hotel_id', [first.hotelId, second.hotelId]).pluck('tl_token_hash');
    expect(new Set(rows).size).toBe(2);
  });

  it('refuse a typed token with less than 128 bits of randomness', async () => {
    const hotel = await registerHotel(t);
    for (const weak of [
      'Sunrise-Hotel-2026',
      'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa',
      '1234567890123456789012345',
    ]) {
      const refused = await patchSettings(hotel, { tl_token: weak }).expect(400);
      expect(refused.body.details[0].path).toBe('body.tl_token');
    }
    await patchSettings(hotel, { tl_token: 'c0ffee42deadbeef0123456789abcdef' }).expect(200);
  });

  it('issue a random token, answered once, that names its hotel; a new one ends the one before', async () => {
    const hotel = await registerHotel(t);
    const room = await roomOf(hotel);
    await checkedIn(hotel, room.id, { first: 'Ия', last: 'Выданная' }, '2030-12-01');
    await patchSettings(hotel, { enabled: true, server_url: fake.url, netup_room_number: { [room.id]: '9' } });
    const issued = await t.http.post(path(hotel, 'tl-token')).set(as(hotel.accessToken)).expect(201);
    expect(issued.body).toEqual({
      tl_token: expect.stringMatching(/^[0-9a-f]{64}$/),
      tl_token_hint: `…${(issued.body.tl_token as string).slice(-4)}`,
      tl_token_created_at: expect.any(String),
    });
    const read = await t.http.get(path(hotel, 'settings')).set(as(hotel.accessToken)).expect(200);
    expect(read.body).toMatchObject({
      tl_token_set: true,
      tl_token_kind: 'issued',
      tl_token_hint: issued.body.tl_token_hint,
    });
    expect(JSON.stringify(read.body)).not.toContain(issued.body.tl_token);
    const polled = await pollTvpms(t.baseUrl, issued.body.tl_token);
    expect(polled.body.reservations).toEqual([expect.objectContaining({ guest_name: 'Ия Выданная' })]);
    expect((await pollTvpms(t.baseUrl, issued.body.tl_token, { hotel: hotel.slug })).status).toBe(200);
    const receptionist = await addStaff(t, hotel, 'receptionist');
    await t.http.post(path(hotel, 'tl-token')).set(as(receptionist.accessToken)).expect(403);
    await t.http.post(path(hotel, 'tl-token')).set(as(other.accessToken)).expect(403);
    const next = await t.http.post(path(hotel, 'tl-token')).set(as(hotel.accessToken)).expect(201);
    expect(next.body.tl_token).not.toBe(issued.body.tl_token);
    expect((await pollTvpms(t.baseUrl, issued.body.tl_token)).status).toBe(401);
    expect((await pollTvpms(t.baseUrl, next.body.tl_token)).status).toBe(200);
  });

  it('map only rooms of this hotel', async () => {
    const hotel = await registerHotel(t);
    const [own, foreign] = await Promise.all([roomOf(hotel), roomOf(other)]);
    const refused = await patchSettings(hotel, { netup_room_number: { [foreign.id]: '101' } }).expect(400);
    expect(refused.body.details[0].path).toBe('body.netup_room_number');
    await patchSettings(hotel, { netup_room_number: { [randomUUID()]: '101' } }).expect(400);
    await patchSettings(hotel, { netup_room_number: { 'room-101': '101' } }).expect(400);
    await patchSettings(hotel, { netup_room_number: { [own.id]: '' } }).expect(400);
    const tooMany = Object.fromEntries(Array.from({ length: 2001 }, (_, index) => [randomUUID(), String(index)]));
    await patchSettings(hotel, { netup_room_number: tooMany }).expect(400);
    const saved = await patchSettings(hotel, { netup_room_number: { [own.id]: '101' } }).expect(200);
    expect(saved.body.netup_room_number).toEqual({ [own.id]: '101' });
  });

  it('are read by the desk and changed by managers', async () => {
    const hotel = await registerHotel(t);
    const receptionist = await addStaff(t, hotel, 'receptionist');
    const housekeeper = await addStaff(t, hotel, 'housekeeper');
    await t.http.get(path(hotel, 'settings')).set(as(receptionist.accessToken)).expect(200);
    await t.http.get(path(hotel, 'log')).set(as(receptionist.accessToken)).expect(200);
    await t.http.patch(path(hotel, 'settings')).set(as(receptionist.accessToken)).send({ enabled: false }).expect(403);
    await t.http.post(path(hotel, 'test-checkin')).set(as(receptionist.accessToken)).send({}).expect(403);
    await t.http.get(path(hotel, 'settings')).set(as(housekeeper.accessToken)).expect(403);
    await t.http.get(path(other, 'settings')).set(as(hotel.accessToken)).expect(403);
  });
});

describe('test check-in, directly', () => {
  let hotel: RegisteredHotel;
  let roomId: string;
  beforeAll(async () => {
    hotel = await registerHotel(t);
    roomId = (await roomOf(hotel)).id;
  });

  it('is skipped (and logged) while no room is mapped', async () => {
    await patchSettings(hotel, { server_url: fake.url }).expect(200);
    const answer = await testCheckin(hotel).expect(200);
    expect(answer.body).toEqual({
      status: 'skipped',
      detail: 'Номер не сопоставлен с номером ТВ-системы',
      http_status: null,
    });
    expect((await log(hotel))[0]).toMatchObject({ event: 'test_check_in', status: 'skipped', via: null });
    expect(fake.received).toHaveLength(0);
  });

  it('reaches the TV system in our wire format, and is logged ok', async () => {
    await patchSettings(hotel, { netup_room_number: { [roomId]: '101' }, default_language: 'en' }).expect(200);
    const answer = await testCheckin(hotel).expect(200);
    expect(answer.body).toEqual({ status: 'ok', detail: 'HTTP 200', http_status: 200 });
    expect(fake.accepted()).toHaveLength(1);
    const [push] = fake.accepted();
    expect(push.kind).toBe('checkin');
    expect(push.headers['content-type']).toBe('application/json');
    expect(push.body).toEqual({
      room: '101',
      guest: { first_name: 'Тест', last_name: 'Тестов' },
      language: 'en',
      arrival: expect.any(String),
      departure: expect.any(String),
      reference: expect.stringMatching(/^test-/),
    });
    expect((await log(hotel))[0]).toMatchObject({
      event: 'test_check_in',
      status: 'ok',
      attempt: 1,
      via: 'direct',
      http_status: 200,
      booking_id: null,
    });
  });

  it('reports a TV system that is down or refuses, and logs the error', async () => {
    fake.down();
    const down = await testCheckin(hotel, { room_id: roomId }).expect(200);
    expect(down.body).toEqual({ status: 'error', detail: 'HTTP 503: tv system unavailable', http_status: 503 });
    fake.refuse();
    const refused = await testCheckin(hotel).expect(200);
    expect(refused.body).toMatchObject({ status: 'error', http_status: 400 });
    const [last, before] = await log(hotel);
    expect(last).toMatchObject({ status: 'error', http_status: 400 });
    expect(before).toMatchObject({ status: 'error', http_status: 503, detail: 'HTTP 503: tv system unavailable' });
  });

  it('waits for a slow TV system up to 10 s, then reports it silent', async () => {
    fake.slow(300);
    expect((await testCheckin(hotel).expect(200)).body.status).toBe('ok');
    fake.slow(12_000);
    const silent = await testCheckin(hotel).expect(200);
    expect(silent.body).toEqual({ status: 'error', detail: 'нет ответа за 10000 мс', http_status: null });
    expect((await log(hotel))[0]).toMatchObject({ status: 'error', detail: 'нет ответа за 10000 мс' });
  }, 30_000);

  it('refuses a room that is not mapped', async () => {
    const unmapped = await roomOf(hotel);
    await testCheckin(hotel, { room_id: unmapped.id }).expect(400);
    await testCheckin(hotel, { room_id: 'x' }).expect(400);
  });

  it('pages the log, newest first', async () => {
    const first = await t.http
      .get(`${path(hotel, 'log')}?limit=2`)
      .set(as(hotel.accessToken))
      .expect(200);
    expect(first.body).toHaveLength(2);
    const next = await t.http
      .get(`${path(hotel, 'log')}?limit=2&cursor=${first.headers['x-next-cursor']}`)
      .set(as(hotel.accessToken))
      .expect(200);
    expect(new Date(next.body[0].created_at).getTime()).toBeLessThanOrEqual(
      new Date(first.body[1].created_at).getTime(),
    );
    expect(await log(other)).toEqual(
      expect.not.arrayContaining([expect.objectContaining({ hotel_id: hotel.hotelId })]),
    );
  });
});

describe('test check-in through a desk', () => {
  it("is performed by the desk's agent, and 409 while the desk is offline", async () => {
    const hotel = await registerHotel(t);
    const room = await roomOf(hotel);
    const desk = await deskWithAgent(t, hotel);
    try {
      await patchSettings(hotel, {
        connection_type: 'agent',
        agent_workstation_id: desk.id,
        server_url: fake.url,
        netup_room_number: { [room.id]: '201' },
      }).expect(200);
      const answer = await testCheckin(hotel).expect(200);
      expect(answer.body).toEqual({ status: 'ok', detail: 'HTTP 200', http_status: 200 });
      expect(fake.accepted()).toEqual([expect.objectContaining({ body: expect.objectContaining({ room: '201' }) })]);
      expect((await log(hotel))[0]).toMatchObject({ status: 'ok', via: 'agent' });

      fake.down();
      expect((await testCheckin(hotel).expect(200)).body).toMatchObject({ status: 'error', http_status: 503 });
    } finally {
      await desk.agent.stop();
    }
    const offline = await until(
      async () => {
        const response = await testCheckin(hotel);
        return response.status === 409 && response;
      },
      { what: 'the desk to be offline' },
    );
    expect(offline.body.code).toBe('workstation_offline');
    expect((await log(hotel))[0]).toMatchObject({ status: 'error', via: 'agent', detail: 'Рабочее место не в сети' });
  });
});

describe('/tvpms', () => {
  let secret: string;
  let otherSecret: string;
  let stay: { start_at: string; end_at: string };

  beforeAll(async () => {
    const [mapped, unmapped, otherRoom] = await Promise.all([roomOf(owner), roomOf(owner), roomOf(other)]);
    stay = await checkedIn(owner, mapped.id, { first: 'Пётр', last: 'Иванов' }, '2030-12-01');
    await checkedIn(owner, unmapped.id, { first: 'Анна', last: 'Смирнова' }, '2030-12-01');
    // A stay still to come in the mapped room: not in house.
    await t.http
      .post(`/api/hotels/${owner.slug}/bookings`)
      .set(as(owner.accessToken))
      .send({
        room_id: mapped.id,
        check_in: '2031-02-01',
        check_out: '2031-02-03',
        guest_first_name: 'Олег',
        guest_last_name: 'Будущев',
      })
      .expect(201);
    await checkedIn(other, otherRoom.id, { first: 'Чужой', last: 'Гость' }, '2030-12-01');
    otherSecret = token();
    await patchSettings(owner, {
      enabled: true,
      server_url: fake.url,
      netup_room_number: { [mapped.id]: '101' },
    }).expect(200);
    secret = (await t.http.post(path(owner, 'tl-token')).set(as(owner.accessToken)).expect(201)).body.tl_token;
    await patchSettings(other, {
      enabled: true,
      server_url: fake.url,
      tl_token: otherSecret,
      netup_room_number: { [otherRoom.id]: '101' },
    }).expect(200);
  });

  it("answers the hotel's checked-in stays in mapped rooms, by header or query token, with any method", async () => {
    const expected = {
      reservations: [
        { room: '101', guest_name: 'Пётр Иванов', language: 'ru', arrival: stay.start_at, departure: stay.end_at },
      ],
    };
    expect(await pollTvpms(t.baseUrl, secret)).toEqual({ status: 200, body: expected });
    expect(await pollTvpms(t.baseUrl, secret, { via: 'query', method: 'POST' })).toEqual({
      status: 200,
      body: expected,
    });
    const foreign = await pollTvpms(t.baseUrl, otherSecret, { hotel: other.slug });
    expect(JSON.stringify(foreign.body)).not.toContain('Иванов');
    expect(foreign.body.reservations).toEqual([expect.objectContaining({ guest_name: 'Чужой Гость' })]);
  });

  it('answers a wrong and a missing token alike: 401', async () => {
    const wrong = await pollTvpms(t.baseUrl, token());
    const missing = await pollTvpms(t.baseUrl, undefined, { via: 'none' });
    const invalid = problem(401, 'tv_token_invalid', 'Неверный или отсутствующий токен ТВ-системы');
    expect(wrong).toEqual({ status: 401, body: invalid });
    expect(missing).toEqual({ status: 401, body: invalid });
    expect(JSON.stringify(wrong.body)).not.toContain('Иванов');
  });

  it('keeps a bounded log of polls, each hotel seeing only its own', async () => {
    for (let index = 0; index < 230; index += 1) await pollTvpms(t.baseUrl, secret);
    await pollTvpms(t.baseUrl, otherSecret, { method: 'PUT', hotel: other.slug });
    const own = await t.http.get('/tvpms/_log').set(as(owner.accessToken)).expect(200);
    expect(own.body).toHaveLength(200);
    expect(own.body[0]).toEqual({
      at: expect.any(String),
      method: 'GET',
      address: expect.any(String),
      status: 200,
      reservations: 1,
    });
    const theirs = await t.http.get('/tvpms/_log').set(as(other.accessToken)).expect(200);
    expect(theirs.body[0]).toMatchObject({ method: 'PUT', reservations: 1 });
    expect(theirs.body.length).toBeLessThan(10);
    // A query naming another hotel changes nothing for staff.
    const named = await t.http.get(`/tvpms/_log?hotel=${other.slug}`).set(as(owner.accessToken)).expect(200);
    expect(named.body).toHaveLength(200);
  });

  it('_log needs a desk role, and super_admin names the hotel', async () => {
    await t.http.get('/tvpms/_log').expect(401);
    const housekeeper = await addStaff(t, owner, 'housekeeper');
    await t.http.get('/tvpms/_log').set(as(housekeeper.accessToken)).expect(403);
    const receptionist = await addStaff(t, owner, 'receptionist');
    await t.http.get('/tvpms/_log').set(as(receptionist.accessToken)).expect(200);
    const admin = await superAdminToken(t);
    await t.http.get('/tvpms/_log').set(as(admin)).expect(400);
    const theirs = await t.http.get(`/tvpms/_log?hotel=${other.slug}`).set(as(admin)).expect(200);
    expect(theirs.body[0]).toMatchObject({ method: 'PUT' });
  });
});

describe('the poll log', () => {
  it('is bounded per hotel and in hotels', () => {
    const polls = createPollLog({ perHotel: 3, hotels: 2 });
    const entry = (n: number) => ({ at: String(n), method: 'GET', address: 'a', status: 200, reservations: n });
    for (let n = 0; n < 10; n += 1) polls.add('a', entry(n));
    expect(polls.of('a').map((e) => e.reservations)).toEqual([9, 8, 7]);
    polls.add('b', entry(1));
    polls.add('c', entry(2));
    expect(polls.of('a')).toEqual([]);
    expect(polls.of('c')).toHaveLength(1);
  });
});
