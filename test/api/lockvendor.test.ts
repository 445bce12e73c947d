import { randomUUID } from 'node:crypto';
import { reencryptLockSecrets } from '../../src/modules/lockvendor';
import { decryptSecret } from '../../src/platform/crypto';
import { fakeTTLockControl, startFakeTTLock, type FakeLock, type FakeTTLock } from '../fakes/ttlock';
import { addStaff, as, registerHotel, type RegisteredHotel } from '../helpers/accounts';
import { createTestApp, testConfig, type TestApp } from '../helpers/app';
import { problem } from '../helpers/problem';
import { TEST_APP_ENV } from '../helpers/stack-env';

const DAY_MS = 24 * 60 * 60_000;

let fake: FakeTTLock;
let t: TestApp;
let owner: RegisteredHotel;
let other: RegisteredHotel;

beforeAll(async () => {
  // A private cloud: this file moves its clock, which would expire the tokens of every other user of a shared one.
  fake = await startFakeTTLock();
  t = createTestApp({ TTLOCK_API_URL: fake.url, TTLOCK_CHINA_API_URL: fake.chinaUrl });
  [owner, other] = await Promise.all([registerHotel(t), registerHotel(t)]);
});
afterAll(async () => {
  await t.close();
  await fake.close();
});

const control = () => fakeTTLockControl(fake.url);
const path = (hotel: RegisteredHotel, rest: string) => `/api/hotels/${hotel.slug}/lockvendor/${rest}`;

function locksOf(prefix: string, count: number): FakeLock[] {
  return Array.from({ length: count }, (_, index) => ({
    lockId: 500_000 + index,
    // The cloud writes MACs in either case: ours are upper-case.
    lockMac: `${prefix}:0${index}`.toLowerCase(),
    lockAlias: `Дверь ${101 + index}`,
    buildingNumber: 1,
    floorNumber: 2,
    electricQuantity: 80 + index,
  }));
}

/** A new app and account on the fake cloud, as the hotel's staff would type them in. */
async function newAccount(options: { cloud?: 'EU' | 'China'; hotelCreated?: boolean; locks?: FakeLock[] } = {}) {
  const settings = {
    client_id: randomUUID().replaceAll('-', ''),
    client_secret: randomUUID().replaceAll('-', ''),
    username: `hotel_${randomUUID().slice(0, 8)}`,
    password: `Пароль ${randomUUID().slice(0, 8)}`,
  };
  const { client_id: clientId, client_secret: clientSecret, username, password } = settings;
  const uid = await control().registerAccount({
    clientId,
    clientSecret,
    username,
    password,
    locks: options.locks ?? locksOf('AA:BB:CC:DD:EE', 3),
    cloud: options.cloud,
    hotelCreated: options.hotelCreated,
  });
  return { settings, uid };
}

async function configure(hotel: RegisteredHotel, body: Record<string, unknown>) {
  return (await t.http.patch(path(hotel, 'config')).set(as(hotel.accessToken)).send(body).expect(200)).body as Record<
    string,
    unknown
  >;
}

/** A hotel of its own with a configured account (signed in when asked). */
async function configuredHotel(options: Parameters<typeof newAccount>[0] = {}) {
  const hotel = await registerHotel(t);
  const account = await newAccount(options);
  await configure(hotel, account.settings);
  return { hotel, ...account };
}

const row = (hotel: RegisteredHotel) => t.db('lock_configs').where({ hotel_id: hotel.hotelId }).first();

async function roomOf(hotel: RegisteredHotel) {
  const auth = as(hotel.accessToken);
  const category = await t.http
    .post(`/api/hotels/${hotel.slug}/room-categories`)
    .set(auth)
    .send({ name: `Категория ${randomUUID().slice(0, 6)}`, base_price: 3000 })
    .expect(201);
  const room = await t.http
    .post(`/api/hotels/${hotel.slug}/rooms`)
    .set(auth)
    .send({ number: randomUUID().slice(0, 6), category_id: category.body.id })
    .expect(201);
  return room.body.id as string;
}

describe('lock cloud settings', () => {
  it('start empty; the secret and the password are stored encrypted and never answered', async () => {
    const hotel = await registerHotel(t);
    const empty = await t.http.get(path(hotel, 'config')).set(as(hotel.accessToken)).expect(200);
    expect(empty.body).toEqual({
      hotel_id: hotel.hotelId,
      client_id: null,
      client_secret_set: false,
      client_secret_hint: null,
      username: null,
      password_set: false,
      api_server: 'EU',
      enabled: false,
      token_expires_at: null,
      ttlock_uid: null,
      updated_at: expect.any(String),
    });
    expect(empty.headers.etag).toBeDefined();

    const { settings } = await newAccount();
    const answer = await configure(hotel, { ...settings, enabled: true });
    expect(answer).toMatchObject({
      client_id: settings.client_id,
      client_secret_set: true,
      client_secret_hint: `…${settings.client_secret.slice(-4)}`,
      username: settings.username,
      password_set: true,
      enabled: true,
    });
    const read = await t.http.get(path(hotel, 'config')).set(as(hotel.accessToken)).expect(200);
    for (const text of [JSON.stringify(answer), read.text]) {
      expect(text).not.toContain(settings.client_secret);
      expect(text).not.toContain(settings.password);
    }
    const stored = await row(hotel);
    expect(stored.client_secret_encrypted).toMatch(/^v1\.test1\./);
    expect(decryptSecret(stored.client_secret_encrypted, t.config.encryption)).toBe(settings.client_secret);
    expect(decryptSecret(stored.password_encrypted, t.config.encryption)).toBe(settings.password);
    expect(JSON.stringify(stored)).not.toContain(settings.password);
  });

  it('refuses to enable without a complete account, and bad values, changing nothing', async () => {
    const hotel = await registerHotel(t);
    const refused = await t.http
      .patch(path(hotel, 'config'))
      .set(as(hotel.accessToken))
      .send({ client_id: 'abc', enabled: true })
      .expect(422);
    expect(refused.body).toEqual(
      problem(422, 'lock_vendor_not_configured', expect.stringContaining('Замки не настроены'), {
        errors: ['client_secret', 'username', 'password'],
      }),
    );
    for (const body of [
      {},
      { api_server: 'US' },
      { client_id: 'with space' },
      { client_secret: 'x'.repeat(257) },
      { password: '' },
      { username: 'u'.repeat(101) },
      { enabled: 'yes please' },
    ]) {
      await t.http.patch(path(hotel, 'config')).set(as(hotel.accessToken)).send(body).expect(400);
    }
    expect(await row(hotel)).toMatchObject({ client_id: null, enabled: false });
  });

  it('a change sent with an old ETag is refused (412); the current one applies', async () => {
    const hotel = await registerHotel(t);
    const read = await t.http.get(path(hotel, 'config')).set(as(hotel.accessToken)).expect(200);
    const changed = await t.http
      .patch(path(hotel, 'config'))
      .set(as(hotel.accessToken))
      .set('If-Match', read.headers.etag)
      .send({ api_server: 'China' })
      .expect(200);
    expect(changed.headers.etag).not.toBe(read.headers.etag);
    await t.http
      .patch(path(hotel, 'config'))
      .set(as(hotel.accessToken))
      .set('If-Match', read.headers.etag)
      .send({ api_server: 'EU' })
      .expect(412);
    expect(await row(hotel)).toMatchObject({ api_server: 'China' });
  });

  it('the desk reads the settings (never a secret) and changes nothing; other roles see none of it', async () => {
    const { hotel } = await configuredHotel();
    const [receptionist, technician, housekeeper] = await Promise.all(
      ['receptionist', 'technician', 'housekeeper'].map((role) => addStaff(t, hotel, role)),
    );
    await t.http.get(path(hotel, 'config')).set(as(receptionist.accessToken)).expect(200);
    await t.http.get(path(hotel, 'locks')).set(as(receptionist.accessToken)).expect(200);
    await t.http.get(path(hotel, 'room-locks')).set(as(technician.accessToken)).expect(200);
    await t.http.get(path(hotel, 'config')).set(as(technician.accessToken)).expect(403);
    await t.http.patch(path(hotel, 'config')).set(as(receptionist.accessToken)).send({ enabled: false }).expect(403);
    await t.http.post(path(hotel, 'token')).set(as(receptionist.accessToken)).expect(403);
    await t.http.get(path(hotel, 'locks')).set(as(housekeeper.accessToken)).expect(403);
  });
});

describe('signing in to the cloud', () => {
  it('answers when the token expires and the uid, never the token, which is kept encrypted', async () => {
    const { hotel, uid } = await configuredHotel();
    const before = Date.now();
    const response = await t.http.post(path(hotel, 'token')).set(as(hotel.accessToken)).expect(200);
    expect(response.body).toEqual({ expires_at: expect.any(String), uid });
    expect(Date.parse(response.body.expires_at)).toBeGreaterThanOrEqual(before + 89 * DAY_MS);
    const stored = await row(hotel);
    const accessToken = decryptSecret(stored.access_token_encrypted, t.config.encryption);
    expect(accessToken).toMatch(/^[0-9a-f]{32}$/);
    expect(response.text).not.toContain(accessToken);
    const config = await t.http.get(path(hotel, 'config')).set(as(hotel.accessToken)).expect(200);
    expect(config.body).toMatchObject({ ttlock_uid: uid, token_expires_at: response.body.expires_at });
    expect(config.text).not.toContain(accessToken);
  });

  it('a wrong password or secret is a 422 in words; no account is a 422 too', async () => {
    const { hotel } = await configuredHotel();
    await configure(hotel, { password: 'not the password' });
    const wrong = await t.http.post(path(hotel, 'token')).set(as(hotel.accessToken)).expect(422);
    expect(wrong.body).toMatchObject({ code: 'lock_vendor_refused' });
    expect(wrong.body.error).toContain('Неверный логин или пароль аккаунта TTLock');
    await configure(hotel, { client_secret: 'not-the-secret' });
    const secret = await t.http.post(path(hotel, 'test')).set(as(hotel.accessToken)).expect(422);
    expect(secret.body.error).toContain('clientSecret');

    const bare = await registerHotel(t);
    const none = await t.http.post(path(bare, 'token')).set(as(bare.accessToken)).expect(422);
    expect(none.body).toMatchObject({ code: 'lock_vendor_not_configured' });
  });

  it('a cloud that does not answer is a 503 with Retry-After', async () => {
    const down = createTestApp({ TTLOCK_API_URL: 'http://127.0.0.1:9' });
    try {
      const { hotel } = await configuredHotel();
      const response = await down.http.post(path(hotel, 'test')).set(as(hotel.accessToken)).expect(503);
      expect(response.body).toMatchObject({ code: 'lock_vendor_unavailable' });
      expect(response.body.error).toContain('TTLock не отвечает');
      expect(response.headers['retry-after']).toBe('30');
    } finally {
      await down.close();
    }
  });

  it('a token with less than a day left is refreshed; one the cloud dropped is replaced by signing in', async () => {
    const { hotel } = await configuredHotel();
    await t.http.post(path(hotel, 'token')).set(as(hotel.accessToken)).expect(200);
    const first = await row(hotel);
    // Nearly 90 days on: the cloud still takes the token for half a day, and we see it expire within one.
    await control().advanceClock(89.5 * DAY_MS);
    await t
      .db('lock_configs')
      .where({ hotel_id: hotel.hotelId })
      .update({ token_expires_at: new Date(Date.now() + DAY_MS / 2) });
    await t.http.get(path(hotel, 'locks')).set(as(hotel.accessToken)).expect(200);
    const refreshed = await row(hotel);
    expect(refreshed.access_token_encrypted).not.toBe(first.access_token_encrypted);
    expect(refreshed.token_expires_at.getTime()).toBeGreaterThan(Date.now() + 89 * DAY_MS);
    // The refresh token is the one TTLock gave back (the same one, as the documented refresh answers it).
    expect(decryptSecret(refreshed.refresh_token_encrypted, t.config.encryption)).toBe(
      decryptSecret(first.refresh_token_encrypted, t.config.encryption),
    );

    // Past the cloud's 90 days while we still count on it: refused (10004), signed in again, answered.
    await control().advanceClock(91 * DAY_MS);
    const locks = await t.http.get(path(hotel, 'locks')).set(as(hotel.accessToken)).expect(200);
    expect(locks.body).toHaveLength(3);
    expect((await row(hotel)).access_token_encrypted).not.toBe(refreshed.access_token_encrypted);
  });

  it('changing the account drops the stored token', async () => {
    const { hotel } = await configuredHotel();
    await t.http.post(path(hotel, 'token')).set(as(hotel.accessToken)).expect(200);
    await configure(hotel, { enabled: true });
    expect((await row(hotel)).access_token_encrypted).not.toBeNull();
    await configure(hotel, { password: 'a new password' });
    expect(await row(hotel)).toMatchObject({ access_token_encrypted: null, token_expires_at: null, ttlock_uid: null });
  });

  it('test signs in and counts the locks', async () => {
    const { hotel } = await configuredHotel({ locks: locksOf('AA:BB:CC:DD:E1', 7) });
    const response = await t.http.post(path(hotel, 'test')).set(as(hotel.accessToken)).expect(200);
    expect(response.body).toEqual({ ok: true, api_server: 'EU', locks_count: 7 });
  });

  it('find-api-config finds the cloud the account lives on, and stores it when asked', async () => {
    const china = await configuredHotel({ cloud: 'China' });
    await t.http.post(path(china.hotel, 'token')).set(as(china.hotel.accessToken)).expect(422);
    const found = await t.http
      .post(path(china.hotel, 'find-api-config'))
      .set(as(china.hotel.accessToken))
      .send({})
      .expect(200);
    expect(found.body).toEqual({ api_server: 'China', saved: false });
    expect(await row(china.hotel)).toMatchObject({ api_server: 'EU', access_token_encrypted: null });
    const saved = await t.http
      .post(path(china.hotel, 'find-api-config'))
      .set(as(china.hotel.accessToken))
      .send({ save: true })
      .expect(200);
    expect(saved.body).toEqual({ api_server: 'China', saved: true });
    expect(await row(china.hotel)).toMatchObject({ api_server: 'China', ttlock_uid: String(china.uid) });
    await t.http.get(path(china.hotel, 'locks')).set(as(china.hotel.accessToken)).expect(200);

    const eu = await configuredHotel();
    const euFound = await t.http.post(path(eu.hotel, 'find-api-config')).set(as(eu.hotel.accessToken)).expect(200);
    expect(euFound.body).toEqual({ api_server: 'EU', saved: false });

    await configure(eu.hotel, { password: 'wrong' });
    const refused = await t.http.post(path(eu.hotel, 'find-api-config')).set(as(eu.hotel.accessToken)).expect(422);
    expect(refused.body.error).toContain('Неверный логин или пароль аккаунта TTLock');
  });
});

describe('locks and their rooms', () => {
  it('lists the cloud locks with the room each is mapped to, by MAC', async () => {
    const { hotel } = await configuredHotel({ locks: locksOf('C5:40:E7:00:0A', 3) });
    const roomId = await roomOf(hotel);
    const mapped = await t.http
      .post(path(hotel, 'room-locks'))
      .set(as(hotel.accessToken))
      .send({ lock_mac: 'c5-40-e7-00-0a-01', room_id: roomId, build_no: 1, floor_no: 2 })
      .expect(201);
    const response = await t.http.get(path(hotel, 'locks')).set(as(hotel.accessToken)).expect(200);
    expect(response.body).toEqual([
      {
        lock_id: 500_000,
        lock_name: expect.any(String),
        lock_alias: 'Дверь 101',
        lock_mac: 'C5:40:E7:00:0A:00',
        battery: 80,
        has_gateway: true,
        build_no: 1,
        floor_no: 2,
        room_id: null,
        room_lock_id: null,
      },
      expect.objectContaining({ lock_mac: 'C5:40:E7:00:0A:01', room_id: roomId, room_lock_id: mapped.body.id }),
      expect.objectContaining({ lock_mac: 'C5:40:E7:00:0A:02', room_id: null }),
    ]);
    expect(response.text).not.toContain('lockData');
  });

  it('maps by MAC (upsert), one lock per room, only rooms of the hotel; deletes by id and by MAC', async () => {
    const [roomA, roomB, foreignRoom] = await Promise.all([roomOf(owner), roomOf(owner), roomOf(other)]);
    const auth = as(owner.accessToken);
    const mac = `0A:1B:2C:${randomUUID().slice(0, 2)}:${randomUUID().slice(0, 2)}:FF`.toUpperCase();
    const created = await t.http
      .post(path(owner, 'room-locks'))
      .set(auth)
      .send({ lock_mac: mac.toLowerCase(), room_id: roomA, build_no: 1, floor_no: 3, lock_id: 42, lock_alias: '301' })
      .expect(201);
    expect(created.body).toEqual({
      id: expect.any(String),
      hotel_id: owner.hotelId,
      lock_mac: mac,
      room_id: roomA,
      build_no: 1,
      floor_no: 3,
      lock_id: 42,
      lock_alias: '301',
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const moved = await t.http
      .post(path(owner, 'room-locks'))
      .set(auth)
      .send({ lock_mac: mac.replaceAll(':', ''), room_id: roomB, build_no: 2, floor_no: 4 })
      .expect(200);
    expect(moved.body).toMatchObject({
      id: created.body.id,
      room_id: roomB,
      build_no: 2,
      lock_id: 42,
      lock_alias: '301',
    });

    const taken = await t.http
      .post(path(owner, 'room-locks'))
      .set(auth)
      .send({ lock_mac: '0A:0A:0A:0A:0A:0A', room_id: roomB, build_no: 1, floor_no: 1 })
      .expect(409);
    expect(taken.body.error).toContain('уже привязан другой замок');
    const foreign = await t.http
      .post(path(owner, 'room-locks'))
      .set(auth)
      .send({ lock_mac: '0A:0A:0A:0A:0A:0B', room_id: foreignRoom, build_no: 1, floor_no: 1 })
      .expect(400);
    expect(foreign.body.details).toEqual([{ path: 'body.room_id', message: 'Номер не найден' }]);
    for (const body of [
      { lock_mac: '0A:0A:0A:0A:0A', room_id: null, build_no: 1, floor_no: 1 },
      { lock_mac: 'GG:0A:0A:0A:0A:0A', room_id: null, build_no: 1, floor_no: 1 },
      { lock_mac: '0A:0A:0A:0A:0A:0C', room_id: null, build_no: 256, floor_no: 1 },
      { lock_mac: '0A:0A:0A:0A:0A:0C', room_id: null, build_no: 1 },
      { lock_mac: '0A:0A:0A:0A:0A:0C', room_id: null, build_no: 1, floor_no: 1, lock_alias: 'x'.repeat(101) },
    ]) {
      await t.http.post(path(owner, 'room-locks')).set(auth).send(body).expect(400);
    }
    const unmapped = await t.http
      .post(path(owner, 'room-locks'))
      .set(auth)
      .send({ lock_mac: '0A:0A:0A:0A:0A:0D', room_id: null, build_no: 0, floor_no: 0 })
      .expect(201);

    const list = await t.http.get(path(owner, 'room-locks')).query({ limit: 1 }).set(auth).expect(200);
    expect(list.body).toHaveLength(1);
    expect(list.headers['x-next-cursor']).toBeDefined();

    await t.http
      .delete(path(other, `room-locks/${created.body.id}`))
      .set(as(other.accessToken))
      .expect(404);
    await t.http
      .delete(path(other, `room-locks/by-mac/${mac}`))
      .set(as(other.accessToken))
      .expect(404);
    await t.http
      .delete(path(owner, `room-locks/${created.body.id}`))
      .set(auth)
      .expect(200);
    await t.http
      .delete(path(owner, `room-locks/${created.body.id}`))
      .set(auth)
      .expect(404);
    await t.http.delete(path(owner, 'room-locks/by-mac/0a-0a-0a-0a-0a-0d')).set(auth).expect(200);
    await t.http
      .delete(path(owner, `room-locks/by-mac/${unmapped.body.lock_mac}`))
      .set(auth)
      .expect(404);
    await t.http.delete(path(owner, 'room-locks/by-mac/not-a-mac')).set(auth).expect(400);
  });

  it('a deleted room leaves its lock mapped to no room', async () => {
    const roomId = await roomOf(owner);
    const auth = as(owner.accessToken);
    const created = await t.http
      .post(path(owner, 'room-locks'))
      .set(auth)
      .send({ lock_mac: '0B:0B:0B:0B:0B:01', room_id: roomId, build_no: 1, floor_no: 1 })
      .expect(201);
    await t.http.delete(`/api/hotels/${owner.slug}/rooms/${roomId}`).set(auth).expect(200);
    expect(await t.db('room_locks').where({ id: created.body.id }).first()).toMatchObject({
      room_id: null,
      hotel_id: owner.hotelId,
    });
  });
});

describe('for card issuance', () => {
  it('credentials and hotelInfo need the locks enabled; hotelInfo is refused in words without a hotel', async () => {
    const { lockvendor } = t.services;
    const { hotel } = await configuredHotel();
    await expect(lockvendor.hotelInfo(hotel.hotelId)).rejects.toMatchObject({
      status: 422,
      code: 'lock_vendor_disabled',
    });
    await configure(hotel, { enabled: true });
    const credentials = await lockvendor.credentials(hotel.hotelId);
    expect(credentials).toEqual({ apiServer: 'EU', clientId: expect.any(String), accessToken: expect.any(String) });
    const info = await lockvendor.hotelInfo(hotel.hotelId);
    expect(info.hotelInfo).toMatch(/^[A-Za-z0-9+/]+=*$/);
    expect(info.expiresAt.getTime()).toBeGreaterThan(Date.now() + 9 * 60_000);
    expect((await lockvendor.hotelInfo(hotel.hotelId)).hotelInfo).toBe(info.hotelInfo);

    const withoutHotel = await configuredHotel({ hotelCreated: false });
    await configure(withoutHotel.hotel, { enabled: true });
    await expect(lockvendor.hotelInfo(withoutHotel.hotel.hotelId)).rejects.toMatchObject({
      status: 422,
      code: 'lock_vendor_refused',
      message: expect.stringContaining('TTLock не выдал данные отеля для карт'),
    });
  });
});

describe('key rotation', () => {
  it('re-encrypts every lock secret under the new key, idempotently; an unknown key stops it', async () => {
    const { hotel, settings } = await configuredHotel();
    await t.http.post(path(hotel, 'token')).set(as(hotel.accessToken)).expect(200);
    const before = await row(hotel);
    const k2 = Buffer.alloc(32, 2).toString('base64');
    const rotated = testConfig({
      ENCRYPTION_KEYS: `${TEST_APP_ENV.ENCRYPTION_KEYS},k2:${k2}`,
      ENCRYPTION_KEY_ID: 'k2',
    });
    const onlyK2 = testConfig({ ENCRYPTION_KEYS: `k2:${k2}` });
    await expect(reencryptLockSecrets(t.db, onlyK2.encryption, 10, { hotelId: hotel.hotelId })).rejects.toThrow(
      /encrypted with key "test1", which is not configured/,
    );
    expect(await reencryptLockSecrets(t.db, rotated.encryption, 1, { hotelId: hotel.hotelId })).toEqual({
      reencrypted: 1,
    });
    const after = await row(hotel);
    for (const column of [
      'client_secret_encrypted',
      'password_encrypted',
      'access_token_encrypted',
      'refresh_token_encrypted',
    ]) {
      expect(after[column].split('.')[1]).toBe('k2');
      expect(decryptSecret(after[column], rotated.encryption)).toBe(decryptSecret(before[column], t.config.encryption));
    }
    expect(decryptSecret(after.password_encrypted, onlyK2.encryption)).toBe(settings.password);
    expect(after.updated_at).toEqual(before.updated_at);
    expect(await reencryptLockSecrets(t.db, rotated.encryption, 10, { hotelId: hotel.hotelId })).toEqual({
      reencrypted: 0,
    });
  });
});
