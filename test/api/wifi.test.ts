import { randomBytes, randomUUID } from 'node:crypto';
import { createTestApp, type TestApp } from '../helpers/app';
import { addStaff, as, registerHotel, type RegisteredHotel } from '../helpers/accounts';
import { localDay } from '../helpers/dates';
import { problem } from '../helpers/problem';
import { createCategory, createRoom } from '../helpers/structure';

let t: TestApp;
let owner: RegisteredHotel;
let other: RegisteredHotel;
const secrets = new Map<string, string>();

const api = (hotel: RegisteredHotel, path: string) => `/api/hotels/${hotel.slug}${path}`;
const settingsPath = (hotel: RegisteredHotel) => api(hotel, '/wifi-settings');
const randomMac = () => [...randomBytes(6)].map((byte) => byte.toString(16).padStart(2, '0')).join(':');

async function configure(hotel: RegisteredHotel, changes: Record<string, unknown>) {
  await t.http.patch(settingsPath(hotel)).set(as(hotel.accessToken)).send(changes).expect(200);
}

async function issueSecret(hotel: RegisteredHotel): Promise<string> {
  const issued = await t.http
    .post(`${settingsPath(hotel)}/portal-secret`)
    .set(as(hotel.accessToken))
    .expect(201);
  secrets.set(hotel.slug, issued.body.portal_secret);
  return issued.body.portal_secret;
}

/** The captive-portal controller asking; a fresh device each time unless one is named. */
function verify(hotel: RegisteredHotel, body: Record<string, unknown>, secret = secrets.get(hotel.slug) ?? null) {
  const request = t.http.post('/api/wifi-auth/verify');
  if (secret !== null) request.set('Authorization', `Bearer ${secret}`);
  return request.send({ hotel: hotel.slug, client_mac: randomMac(), ...body });
}

interface StayOptions {
  from?: number;
  to?: number;
  lastName?: string;
  status?: 'confirmed' | 'checked_in' | 'checked_out';
  guestId?: string;
  roomNumber?: string;
}

/** A room with a stay in it (checked in by default, from yesterday to the day after tomorrow). */
async function stay(hotel: RegisteredHotel, options: StayOptions = {}) {
  const { from = -1, to = 2, lastName = 'Иванов', status = 'checked_in' } = options;
  const category = await createCategory(t, hotel);
  const room = await createRoom(t, hotel, category.id, options.roomNumber ? { number: options.roomNumber } : {});
  const booked = await t.http
    .post(api(hotel, '/bookings'))
    .set(as(hotel.accessToken))
    .send({
      room_id: room.id,
      check_in: localDay(from),
      check_out: localDay(to),
      guest_last_name: lastName,
      guest_first_name: 'Гость',
      ...(options.guestId && { guest_id: options.guestId }),
    })
    .expect(201);
  const move = (to: string) =>
    t.http
      .patch(api(hotel, `/bookings/${booked.body.id}`))
      .set(as(hotel.accessToken))
      .send({ status: to })
      .expect(200);
  if (status !== 'confirmed') await move('checked_in');
  if (status === 'checked_out') await move('checked_out');
  return { room, booking: booked.body as { id: string; end_at: string } };
}

async function guestProfile(hotel: RegisteredHotel, fields: Record<string, unknown>) {
  const created = await t.http
    .post(api(hotel, '/guests'))
    .set(as(hotel.accessToken))
    .send({ first_name: 'Гость', ...fields })
    .expect(201);
  return created.body.id as string;
}

const refusal = (code: string, reason: string) => ({
  ...problem(403, code, expect.any(String)),
  authorized: false,
  reason,
});
const notAuthorized = refusal('wifi_not_authorized', 'not_authorized');

beforeAll(async () => {
  t = createTestApp();
  [owner, other] = await Promise.all([registerHotel(t), registerHotel(t)]);
  await Promise.all([issueSecret(owner), issueSecret(other)]);
  await Promise.all([configure(owner, { enabled: true }), configure(other, { enabled: true })]);
});
afterAll(() => t.close());

describe('settings', () => {
  it('start off, by room and surname, 24 hours, 3 devices; the portal secret is never answered', async () => {
    const fresh = await registerHotel(t);
    const read = await t.http.get(settingsPath(fresh)).set(as(fresh.accessToken)).expect(200);
    expect(read.body).toEqual({
      hotel_id: fresh.hotelId,
      enabled: false,
      auth_method: 'room+lastname',
      session_hours: 24,
      devices_per_stay: 3,
      portal_secret_set: false,
      portal_secret_hint: null,
      portal_secret_created_at: null,
      updated_at: expect.any(String),
    });
    const issued = await t.http
      .post(`${settingsPath(fresh)}/portal-secret`)
      .set(as(fresh.accessToken))
      .expect(201);
    expect(issued.body.portal_secret).toMatch(/^[0-9a-f]{64}$/);
    const after = await t.http.get(settingsPath(fresh)).set(as(fresh.accessToken)).expect(200);
    expect(after.body).toMatchObject({
      portal_secret_set: true,
      portal_secret_hint: `…${issued.body.portal_secret.slice(-4)}`,
    });
    expect(JSON.stringify(after.body)).not.toContain(issued.body.portal_secret);
  });

  it('change in part, within bounds, at the version If-Match names', async () => {
    const fresh = await registerHotel(t);
    const before = await t.http.get(settingsPath(fresh)).set(as(fresh.accessToken)).expect(200);
    const changed = await t.http
      .patch(settingsPath(fresh))
      .set(as(fresh.accessToken))
      .set('If-Match', before.headers.etag)
      .send({ enabled: true, auth_method: 'room_only', session_hours: 720, devices_per_stay: 20 })
      .expect(200);
    expect(changed.body).toMatchObject({
      enabled: true,
      auth_method: 'room_only',
      session_hours: 720,
      devices_per_stay: 20,
    });
    await t.http
      .patch(settingsPath(fresh))
      .set(as(fresh.accessToken))
      .set('If-Match', before.headers.etag)
      .send({ enabled: false })
      .expect(412);
    for (const body of [
      {},
      { session_hours: 0 },
      { session_hours: 721 },
      { devices_per_stay: 0 },
      { devices_per_stay: 21 },
      { auth_method: 'room+passport' },
      { portal_secret_sha256: 'a'.repeat(64) },
    ])
      await t.http.patch(settingsPath(fresh)).set(as(fresh.accessToken)).send(body).expect(400);
  });

  it('are read by the desk and changed by management only; the secret is issued by management only', async () => {
    const fresh = await registerHotel(t);
    const [manager, receptionist, housekeeper] = await Promise.all(
      ['manager', 'receptionist', 'housekeeper'].map((role) => addStaff(t, fresh, role)),
    );
    await t.http.get(settingsPath(fresh)).set(as(receptionist.accessToken)).expect(200);
    await t.http.get(settingsPath(fresh)).set(as(housekeeper.accessToken)).expect(403);
    await t.http.patch(settingsPath(fresh)).set(as(receptionist.accessToken)).send({ enabled: true }).expect(403);
    await t.http.patch(settingsPath(fresh)).set(as(manager.accessToken)).send({ enabled: true }).expect(200);
    await t.http
      .post(`${settingsPath(fresh)}/portal-secret`)
      .set(as(receptionist.accessToken))
      .expect(403);
    await t.http
      .post(`${settingsPath(fresh)}/portal-secret`)
      .set(as(manager.accessToken))
      .expect(201);
    await t.http.get(settingsPath(fresh)).expect(401);
    await t.http.get(settingsPath(fresh)).set(as(owner.accessToken)).expect(403);
  });
});

describe('the portal proves itself with its hotel secret', () => {
  const unauthorized = problem(401, 'wifi_portal_unauthorized', expect.any(String));

  it('no secret, a wrong one, another hotel’s, or an unknown hotel: one 401', async () => {
    const { room } = await stay(owner);
    const body = { room: room.number, last_name: 'Иванов' };
    for (const secret of [null, 'wrong', secrets.get(other.slug)!]) {
      const refused = await verify(owner, body, secret).expect(401);
      expect(refused.body).toEqual(unauthorized);
    }
    const unknown = await verify(owner, { ...body, hotel: `no-such-${randomUUID().slice(0, 8)}` }).expect(401);
    expect(unknown.body).toEqual(unauthorized);
    await t.http
      .post('/api/wifi-auth/verify')
      .set('Authorization', 'Basic abc')
      .send({ hotel: owner.slug, ...body })
      .expect(401);
    await verify(owner, body).expect(200);
  });

  it('a new secret replaces the old one at once', async () => {
    const fresh = await registerHotel(t);
    await configure(fresh, { enabled: true, auth_method: 'room_only' });
    const { room } = await stay(fresh);
    const first = await issueSecret(fresh);
    await verify(fresh, { room: room.number }, first).expect(200);
    const second = await issueSecret(fresh);
    await verify(fresh, { room: room.number }, first).expect(401);
    await verify(fresh, { room: room.number }, second).expect(200);
  });

  it('a hotel without a secret yet lets no portal in', async () => {
    const fresh = await registerHotel(t);
    await configure(fresh, { enabled: true, auth_method: 'room_only' });
    const { room } = await stay(fresh);
    await verify(fresh, { room: room.number }, 'anything').expect(401);
  });

  it('refuses bad input with 400', async () => {
    const { room } = await stay(owner);
    for (const body of [
      { room: '' },
      { room: 'x'.repeat(21) },
      { room: room.number, last_name: 'x'.repeat(101) },
      { room: room.number, birth_date: '1990-02-30' },
      { room: room.number, birth_date: '04.03.1985' },
      { room: room.number, client_mac: 'not-a-mac' },
      { room: 101 },
    ])
      await verify(owner, body).expect(400);
  });

  it('a malformed secret or hotel is the one 401 of a wrong one, not a 400', async () => {
    const { room } = await stay(owner);
    const unauthorized = problem(401, 'wifi_portal_unauthorized', expect.any(String));
    for (const secret of ['x'.repeat(301), '', 'not base64 !!']) {
      expect((await verify(owner, { room: room.number }, secret).expect(401)).body).toEqual(unauthorized);
    }
    for (const hotel of ['UPPER CASE', 'x'.repeat(300), 'отель', 'a\u0000b', '']) {
      expect((await verify(owner, { room: room.number, hotel }).expect(401)).body).toEqual(unauthorized);
    }
  });
});

describe('room and surname', () => {
  beforeAll(() => configure(owner, { auth_method: 'room+lastname', session_hours: 24, devices_per_stay: 3 }));

  it('lets in a checked-in stay under way by its surname in either alphabet, answering nothing personal', async () => {
    const { room, booking } = await stay(owner, { lastName: 'Иванов' });
    const device = randomMac();
    for (const typed of ['Иванов', 'Ivanov', 'IVANOV', 'ivanov ', 'иванов']) {
      const started = Date.now();
      const let_in = await verify(owner, { room: room.number, last_name: typed, client_mac: device }).expect(200);
      expect(Object.keys(let_in.body).sort()).toEqual(['authorized', 'devices_allowed', 'devices_used', 'until']);
      expect(let_in.body).toMatchObject({ authorized: true, devices_allowed: 3 });
      const until = new Date(let_in.body.until).getTime();
      expect(until).toBeGreaterThanOrEqual(started + 24 * 3_600_000 - 1000);
      expect(until).toBeLessThanOrEqual(Math.min(Date.now() + 24 * 3_600_000, Date.parse(booking.end_at)));
      expect(JSON.stringify(let_in.body)).not.toMatch(/Иванов|Гость|[0-9a-f]{8}-[0-9a-f]{4}/);
    }
  });

  it('a Latin surname on file is matched by the same letters in Cyrillic too', async () => {
    const { room } = await stay(owner, { lastName: 'Khrushchev' });
    await verify(owner, { room: room.number, last_name: 'Хрущёв' }).expect(200);
    await verify(owner, { room: room.number, last_name: 'hrushchyov' }).expect(200);
  });

  it('the surname of a companion linked to the booking lets in too', async () => {
    const { room, booking } = await stay(owner, { lastName: 'Иванов' });
    const companion = await guestProfile(owner, { last_name: 'Щукина' });
    await t.http
      .post(api(owner, `/bookings/${booking.id}/guests`))
      .set(as(owner.accessToken))
      .send({ guest_id: companion })
      .expect(200);
    await verify(owner, { room: room.number, last_name: 'Shchukina' }).expect(200);
  });

  it('never lets in by the end of the stay', async () => {
    await configure(owner, { session_hours: 720 });
    const { room, booking } = await stay(owner, { lastName: 'Петров' });
    const let_in = await verify(owner, { room: room.number, last_name: 'Petrov' }).expect(200);
    expect(let_in.body.until).toBe(booking.end_at);
    await configure(owner, { session_hours: 24 });
  });

  it('finds the room by its exact number among many whose numbers contain it', async () => {
    const tag = randomUUID().slice(0, 6);
    const category = await createCategory(t, owner);
    const lower = Array.from({ length: 105 }, (_, i) => ({ number: `${tag}-${i}`, floor: 1 }));
    for (let batch = 0; batch < lower.length; batch += 15)
      await Promise.all(lower.slice(batch, batch + 15).map((room) => createRoom(t, owner, category.id, room)));
    const { room } = await stay(owner, { lastName: 'Белов', roomNumber: tag });
    await t.http
      .patch(api(owner, `/rooms/${room.id}`))
      .set(as(owner.accessToken))
      .send({ floor: 9 })
      .expect(200);
    await verify(owner, { room: tag.toUpperCase(), last_name: 'Belov' }).expect(200);
  });

  it('one refusal for a wrong surname, no such room, nobody in, not yet arrived, checked out or only booked', async () => {
    const current = await stay(owner, { lastName: 'Сидоров' });
    const ahead = await stay(owner, { lastName: 'Сидоров', from: 3, to: 5 });
    const gone = await stay(owner, { lastName: 'Сидоров', status: 'checked_out' });
    const booked = await stay(owner, { lastName: 'Сидоров', status: 'confirmed' });
    const vacant = await createRoom(t, owner, (await createCategory(t, owner)).id);
    const attempts = [
      { room: current.room.number, last_name: 'Sidorova' },
      { room: current.room.number, last_name: 'Иванов' },
      { room: current.room.number },
      { room: `nope-${randomUUID().slice(0, 8)}`, last_name: 'Сидоров' },
      { room: vacant.number, last_name: 'Сидоров' },
      { room: ahead.room.number, last_name: 'Сидоров' },
      { room: gone.room.number, last_name: 'Сидоров' },
      { room: booked.room.number, last_name: 'Сидоров' },
    ];
    for (const attempt of attempts) {
      const refused = await verify(owner, attempt).expect(403);
      expect(refused.body).toEqual(notAuthorized);
    }
  });
});

describe('room and birth date', () => {
  beforeAll(() => configure(owner, { auth_method: 'room+birthdate' }));
  afterAll(() => configure(owner, { auth_method: 'room+lastname' }));

  it('lets in by the birth date of a guest of the booking, and by nothing else', async () => {
    const guestId = await guestProfile(owner, { last_name: 'Орлова', birth_date: '1985-03-04' });
    const { room } = await stay(owner, { lastName: 'Орлова', guestId });
    await verify(owner, { room: room.number, birth_date: '1985-03-04' }).expect(200);
    for (const attempt of [
      { room: room.number, birth_date: '1985-04-03' },
      { room: room.number, last_name: 'Орлова' },
      { room: room.number },
    ])
      expect((await verify(owner, attempt).expect(403)).body).toEqual(notAuthorized);
  });

  it('not for a stay not yet arrived or checked out', async () => {
    const guestId = await guestProfile(owner, { last_name: 'Зайцев', birth_date: '1970-01-02' });
    const ahead = await stay(owner, { guestId, from: 6, to: 8 });
    const gone = await stay(owner, { guestId, status: 'checked_out', from: -1, to: 1 });
    for (const { room } of [ahead, gone])
      await verify(owner, { room: room.number, birth_date: '1970-01-02' }).expect(403);
  });
});

describe('room and anything, and the room alone', () => {
  afterAll(() => configure(owner, { auth_method: 'room+lastname' }));

  it('room+any: any surname or birth date for an occupied room; nothing typed, or the room empty, is refused', async () => {
    await configure(owner, { auth_method: 'room+any' });
    const { room } = await stay(owner, { lastName: 'Морозов' });
    const ahead = await stay(owner, { from: 4, to: 6 });
    await verify(owner, { room: room.number, last_name: 'whatever' }).expect(200);
    await verify(owner, { room: room.number, birth_date: '2000-01-01' }).expect(200);
    await verify(owner, { room: room.number }).expect(403);
    await verify(owner, { room: room.number, last_name: '  ' }).expect(403);
    await verify(owner, { room: ahead.room.number, last_name: 'whatever' }).expect(403);
  });

  it('room_only: a room checked in now is enough', async () => {
    await configure(owner, { auth_method: 'room_only' });
    const { room } = await stay(owner);
    const gone = await stay(owner, { status: 'checked_out' });
    const ahead = await stay(owner, { from: 2, to: 3 });
    await verify(owner, { room: room.number }).expect(200);
    await verify(owner, { room: ` ${room.number} ` }).expect(200);
    for (const refused of [gone, ahead]) await verify(owner, { room: refused.room.number }).expect(403);
  });
});

describe('devices, hotels, and Wi-Fi off', () => {
  it('a stay gets devices_per_stay devices; a known one is renewed, a new one past the limit refused', async () => {
    const fresh = await registerHotel(t);
    await issueSecret(fresh);
    await configure(fresh, { enabled: true, devices_per_stay: 2 });
    const { room, booking } = await stay(fresh, { lastName: 'Волков' });
    const body = { room: room.number, last_name: 'Volkov' };
    const first = await verify(fresh, { ...body, client_mac: 'aa:bb:cc:dd:ee:01' }).expect(200);
    expect(first.body).toMatchObject({ devices_allowed: 2, devices_used: 1 });
    await verify(fresh, { ...body, client_mac: 'AA-BB-CC-DD-EE-01' }).expect(200);
    const second = await verify(fresh, { ...body, client_mac: 'aabbccddee02' }).expect(200);
    expect(second.body.devices_used).toBe(2);
    const third = await verify(fresh, { ...body, client_mac: 'aa:bb:cc:dd:ee:03' }).expect(403);
    expect(third.body).toEqual(refusal('wifi_device_limit', 'device_limit'));
    const again = await verify(fresh, { ...body, client_mac: 'aa:bb:cc:dd:ee:01' }).expect(200);
    expect(again.body.devices_used).toBe(2);
    const sessions = await t.db('wifi_sessions').where({ booking_id: booking.id }).orderBy('client_mac');
    expect(sessions.map((row) => row.client_mac)).toEqual(['AA:BB:CC:DD:EE:01', 'AA:BB:CC:DD:EE:02']);
  });

  it("never answers another hotel's stay: hotel B's guest with hotel A's slug and secret is refused", async () => {
    const number = `W${randomUUID().slice(0, 6)}`;
    await stay(other, { lastName: 'Кузнецов', roomNumber: number });
    await createRoom(t, owner, (await createCategory(t, owner)).id, { number });
    const refused = await verify(owner, { room: number, last_name: 'Kuznetsov' }).expect(403);
    expect(refused.body).toEqual(notAuthorized);
    await verify(owner, { room: number, last_name: 'Kuznetsov', hotel: other.slug }).expect(401);
    await verify(other, { room: number, last_name: 'Kuznetsov' }).expect(200);
  });

  it('Wi-Fi off, or the hotel closed, refuses every guest', async () => {
    const fresh = await registerHotel(t);
    await issueSecret(fresh);
    const { room } = await stay(fresh, { lastName: 'Лебедев' });
    const body = { room: room.number, last_name: 'Lebedev' };
    const refused = await verify(fresh, body).expect(403);
    expect(refused.body).toEqual(refusal('wifi_disabled', 'disabled'));
    await configure(fresh, { enabled: true });
    await verify(fresh, body).expect(200);
    await t.db('hotels').where({ id: fresh.hotelId }).update({ is_active: false });
    expect((await verify(fresh, body).expect(403)).body).toEqual(refusal('wifi_disabled', 'disabled'));
  });
});

describe('wrong guesses are limited', () => {
  let hotel: RegisteredHotel;
  beforeAll(async () => {
    hotel = await registerHotel(t);
    await issueSecret(hotel);
    await configure(hotel, { enabled: true });
  });

  it('5 wrong surnames for a room, from any devices, stop even the right one (429) for that room only', async () => {
    const { room } = await stay(hotel, { lastName: 'Соколов' });
    const neighbour = await stay(hotel, { lastName: 'Соколов' });
    for (let attempt = 0; attempt < 5; attempt++)
      await verify(hotel, { room: room.number, last_name: `Guess${attempt}` }).expect(403);
    const stopped = await verify(hotel, { room: room.number, last_name: 'Sokolov' }).expect(429);
    expect(Number(stopped.headers['retry-after'])).toBeGreaterThan(0);
    expect(stopped.body).toMatchObject({
      status: 429,
      code: 'rate_limited',
      authorized: false,
      reason: 'too_many_attempts',
    });
    await verify(hotel, { room: neighbour.room.number, last_name: 'Sokolov' }).expect(200);
  });

  it('a burst of parallel wrong guesses gets no more than 5 judged', async () => {
    const { room } = await stay(hotel, { lastName: 'Егоров' });
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, n) => verify(hotel, { room: room.number, last_name: `Burst${n}` })),
    );
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses.filter((status) => status === 403)).toHaveLength(5);
    expect(statuses.filter((status) => status === 429)).toHaveLength(15);
    await verify(hotel, { room: room.number, last_name: 'Egorov' }).expect(429);
  });

  it('right answers are not counted', async () => {
    const { room } = await stay(hotel, { lastName: 'Новиков' });
    const device = randomMac();
    for (let attempt = 0; attempt < 8; attempt++)
      await verify(hotel, { room: room.number, last_name: 'Novikov', client_mac: device }).expect(200);
    await verify(hotel, { room: room.number, last_name: 'Wrong', client_mac: device }).expect(403);
    await verify(hotel, { room: room.number, last_name: 'Novikov', client_mac: device }).expect(200);
  });

  it('30 wrong guesses from one device, across rooms, stop that device (429) and no other', async () => {
    const { room } = await stay(hotel, { lastName: 'Попов' });
    // Six rooms of the hotel, five wrong guesses each: no room's own budget is what stops the device.
    const probed = await Promise.all(Array.from({ length: 6 }, () => stay(hotel, { lastName: 'Зайцев' })));
    const device = randomMac();
    for (let attempt = 0; attempt < 30; attempt++) {
      const guessed = { room: probed[attempt % 6].room.number, last_name: 'Попов', client_mac: device };
      await verify(hotel, guessed).expect(403);
    }
    await verify(hotel, { room: room.number, last_name: 'Popov', client_mac: device }).expect(429);
    await verify(hotel, { room: room.number, last_name: 'Popov' }).expect(200);
  });

  it('room names the hotel does not have share one budget: inventing names buys no fresh guesses', async () => {
    const fresh = await registerHotel(t);
    await issueSecret(fresh);
    await configure(fresh, { enabled: true });
    const { room } = await stay(fresh, { lastName: 'Орлов' });
    // Each from a fresh device and a name never used before: only the hotel's budget of unknown rooms is left.
    for (let attempt = 0; attempt < 5; attempt++)
      expect((await verify(fresh, { room: `invented-${attempt}`, last_name: 'Орлов' }).expect(403)).body).toEqual(
        notAuthorized,
      );
    await verify(fresh, { room: `nowhere-${randomUUID().slice(0, 8)}`, last_name: 'Орлов' }).expect(429);
    // A real room keeps its own budget.
    await verify(fresh, { room: room.number, last_name: 'Orlov' }).expect(200);
    await verify(fresh, { room: 'no-such-room', last_name: 'Orlov' }).expect(429);
  });
});
