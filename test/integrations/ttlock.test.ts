import { createHash, randomUUID } from 'node:crypto';
import {
  createTTLockClient,
  TTLockError,
  type TTLockCredentials,
  type TTLockPasswordGrant,
} from '../../src/integrations/ttlock';
import { fakeTTLockControl, startFakeTTLock, type FakeLock, type FakeTTLock } from '../fakes/ttlock';

const DAY_MS = 24 * 60 * 60_000;

let fake: FakeTTLock;

beforeAll(async () => {
  fake = await startFakeTTLock();
});

afterAll(() => fake.close());

const control = () => fakeTTLockControl(fake.url);

function locks(count: number): FakeLock[] {
  return Array.from({ length: count }, (_, index) => ({
    lockId: 100_000 + index,
    lockMac: `C5:40:E7:00:${(index >> 8).toString(16).padStart(2, '0')}:${(index & 0xff).toString(16).padStart(2, '0')}`,
    lockAlias: `Номер ${101 + index}`,
    floorNumber: 1 + Math.floor(index / 20),
    buildingNumber: 1,
  }));
}

/** A new app and account on the fake, a client whose calls are recorded, and the grant to log in with. */
async function newAccount(lockCount = 3, options: { cloud?: 'EU' | 'China'; hotelCreated?: boolean } = {}) {
  const grant: TTLockPasswordGrant = {
    apiServer: 'EU',
    clientId: randomUUID().replaceAll('-', ''),
    clientSecret: `secret-${randomUUID()}`,
    username: `hotel_${randomUUID().slice(0, 8)}`,
    password: `Пароль-${randomUUID()}`,
  };
  const uid = await control().registerAccount({ ...grant, locks: locks(lockCount), ...options });
  const bodies: string[] = [];
  const client = createTTLockClient({
    baseUrlFor: (apiServer) => (apiServer === 'China' ? fake.chinaUrl : fake.url),
    fetch: (input, init) => {
      bodies.push(String(init?.body));
      return fetch(input, init);
    },
  });
  return { grant, uid, client, bodies };
}

async function loggedIn(lockCount?: number, options?: Parameters<typeof newAccount>[1]) {
  const account = await newAccount(lockCount, options);
  const token = await account.client.getToken(account.grant);
  const credentials: TTLockCredentials = { apiServer: 'EU', clientId: account.grant.clientId, ...token };
  return { ...account, token, credentials };
}

async function failure(promise: Promise<unknown>): Promise<TTLockError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(TTLockError);
  return error as TTLockError;
}

describe('TTLock client against the fake', () => {
  test('a token is granted for the MD5 of the password, never the password itself', async () => {
    const { client, grant, uid, bodies } = await newAccount();
    const before = Date.now();
    const token = await client.getToken(grant);
    expect(token).toMatchObject({ uid, accessToken: expect.any(String), refreshToken: expect.any(String) });
    expect(token.expiresAt.getTime()).toBeGreaterThanOrEqual(before + 90 * DAY_MS - 1000);
    const sent = new URLSearchParams(bodies[0]);
    expect(sent.get('password')).toBe(createHash('md5').update(grant.password, 'utf8').digest('hex'));
    expect(sent.get('password')).toMatch(/^[0-9a-f]{32}$/);
    expect(bodies[0]).not.toContain(encodeURIComponent(grant.password));
  });

  test('a wrong password is refused with errcode 10007 and a message staff read', async () => {
    const { client, grant } = await newAccount();
    const error = await failure(client.getToken({ ...grant, password: 'wrong' }));
    expect(error).toMatchObject({ errcode: 10007, retryable: false });
    expect(error.message).toContain('Неверный логин или пароль аккаунта TTLock');
  });

  test('a wrong client secret is refused with errcode 10001', async () => {
    const { client, grant } = await newAccount();
    const error = await failure(client.getToken({ ...grant, clientSecret: 'not-the-secret' }));
    expect(error).toMatchObject({ errcode: 10001, retryable: false });
    expect(error.message).toContain('clientSecret');
  });

  test('an expired token is refused with 10004; the refresh token gets a working one', async () => {
    const { client, grant, credentials, token } = await loggedIn();
    await control().advanceClock(91 * DAY_MS);
    const expired = await failure(client.listLocks(credentials, { pageNo: 1, pageSize: 10 }));
    expect(expired).toMatchObject({ errcode: 10004, retryable: false });
    expect(expired.message).toContain('истёк');

    const refreshed = await client.refreshToken({ ...grant, refreshToken: token.refreshToken });
    expect(refreshed.accessToken).not.toBe(token.accessToken);
    const page = await client.listLocks(
      { ...credentials, accessToken: refreshed.accessToken },
      { pageNo: 1, pageSize: 2 },
    );
    expect(page).toMatchObject({ pageNo: 1, pageSize: 2, pages: 2, total: 3 });
    const unknown = await failure(client.refreshToken({ ...grant, refreshToken: 'f'.repeat(32) }));
    expect(unknown).toMatchObject({ errcode: 10011 });
    expect(unknown.message).toContain('Токен обновления TTLock недействителен');
  });

  test('allLocks pages through 230 locks, with what rooms are mapped by and no door secrets', async () => {
    const { client, credentials, bodies } = await loggedIn(230);
    const before = bodies.length;
    const all = await client.allLocks(credentials, { pageSize: 100 });
    expect(bodies.length - before).toBe(3);
    expect(all).toHaveLength(230);
    expect(new Set(all.map((lock) => lock.lockId)).size).toBe(230);
    expect(all[229]).toMatchObject({
      lockId: 100_229,
      lockMac: 'C5:40:E7:00:00:e5',
      lockAlias: 'Номер 330',
      floorNumber: 12,
      buildingNumber: 1,
      hasGateway: true,
    });
    expect(JSON.stringify(all)).not.toContain('lockData');
    expect(await client.allLocks(credentials, { lockAlias: 'номер 33' })).toHaveLength(1);
  });

  test('lock detail answers the lock, without its admin codes; an unknown lock is -1003', async () => {
    const { client, credentials } = await loggedIn();
    const detail = await client.lockDetail(credentials, 100_001);
    expect(detail).toMatchObject({ lockId: 100_001, lockAlias: 'Номер 102', modelNum: expect.any(String) });
    expect(detail).not.toHaveProperty('noKeyPwd');
    expect(detail).not.toHaveProperty('adminPwd');
    const missing = await failure(client.lockDetail(credentials, 999));
    expect(missing).toMatchObject({ errcode: -1003 });
    expect(missing.message).toContain('Замок не найден');
  });

  test('hotelInfo is the same text for an account, fresh for 10 minutes; without a hotel it is refused in words', async () => {
    const { client, credentials } = await loggedIn();
    const before = Date.now();
    const first = await client.getHotelInfo(credentials);
    expect(first.hotelInfo).toMatch(/^[A-Za-z0-9+/]+=*$/);
    expect(first.expiresAt.getTime()).toBeGreaterThanOrEqual(before + 10 * 60_000);
    expect((await client.getHotelInfo(credentials)).hotelInfo).toBe(first.hotelInfo);
    const other = await loggedIn();
    expect((await other.client.getHotelInfo(other.credentials)).hotelInfo).not.toBe(first.hotelInfo);

    const withoutHotel = await loggedIn(1, { hotelCreated: false });
    const refused = await failure(withoutHotel.client.getHotelInfo(withoutHotel.credentials));
    expect(refused).toMatchObject({ retryable: false });
    expect(refused.message).toContain('TTLock не выдал данные отеля для карт');
  });

  test('an account answers on its own cloud only: elsewhere its password grant is 30008', async () => {
    const { client, grant } = await newAccount(1, { cloud: 'China' });
    const elsewhere = await failure(client.getToken(grant));
    expect(elsewhere).toMatchObject({ errcode: 30008, retryable: false });
    expect(elsewhere.message).toContain('другом сервере');
    const token = await client.getToken({ ...grant, apiServer: 'China' });
    const credentials: TTLockCredentials = { apiServer: 'China', clientId: grant.clientId, ...token };
    expect(await client.allLocks(credentials)).toHaveLength(1);
    await failure(client.allLocks({ ...credentials, apiServer: 'EU' }));
  });

  test('an unknown token is refused with errcode 10003', async () => {
    const { client, credentials } = await loggedIn();
    const error = await failure(
      client.listLocks({ ...credentials, accessToken: 'f'.repeat(32) }, { pageNo: 1, pageSize: 20 }),
    );
    expect(error).toMatchObject({ errcode: 10003, retryable: false });
  });

  test('no secret reaches an error message', async () => {
    const { client, grant, credentials, token } = await loggedIn();
    const passwordMd5 = createHash('md5').update(grant.password, 'utf8').digest('hex');
    const secrets = [grant.clientSecret, grant.password, passwordMd5, token.accessToken, token.refreshToken];
    const errors = await Promise.all([
      failure(client.getToken({ ...grant, password: `${grant.password}!` })),
      failure(client.getToken({ ...grant, clientSecret: `${grant.clientSecret}!` })),
      failure(client.refreshToken({ ...grant, refreshToken: `${token.refreshToken}!` })),
      failure(client.listLocks({ ...credentials, accessToken: `${token.accessToken}!` }, { pageNo: 1, pageSize: 5 })),
      failure(client.lockDetail(credentials, 1)),
      failure(
        createTTLockClient({
          baseUrlFor: () => fake.url,
          fetch: () => Promise.reject(new TypeError('fetch failed')),
        }).getToken(grant),
      ),
    ]);
    for (const error of errors) {
      const shown = `${error.message} ${JSON.stringify(error)}`;
      for (const secret of secrets) expect(shown).not.toContain(secret);
    }
  });

  test('network failures, timeouts and 5xx are retryable', async () => {
    const { grant } = await newAccount();
    const failing = (fetch: typeof globalThis.fetch, timeoutMs?: number) =>
      failure(createTTLockClient({ baseUrlFor: () => fake.url, fetch, timeoutMs }).getToken(grant));
    const offline = await failing(() => Promise.reject(new TypeError('fetch failed')));
    expect(offline).toMatchObject({ retryable: true });
    expect(offline.message).toContain('TTLock не отвечает');
    const gateway = await failing(async () => new Response('Bad Gateway', { status: 502 }));
    expect(gateway).toMatchObject({ retryable: true, status: 502 });
    const slow = await failing(
      (_input, init) =>
        new Promise((_resolve, reject) => init?.signal?.addEventListener('abort', () => reject(init.signal!.reason))),
      50,
    );
    expect(slow).toMatchObject({ retryable: true });
    expect(slow.message).toContain('no answer within 50 ms');
  });

  test('the fake refuses a call without a current date', async () => {
    const { credentials } = await loggedIn();
    const call = async (date: string | undefined) => {
      const form = new URLSearchParams({ clientId: credentials.clientId, accessToken: credentials.accessToken });
      form.set('lockId', '100000');
      if (date !== undefined) form.set('date', date);
      return (await fetch(`${fake.url}/v3/lock/detail`, { method: 'POST', body: form })).json();
    };
    await expect(call(undefined)).resolves.toMatchObject({ errcode: -3 });
    await expect(call(String(Date.now() - 10 * 60_000))).resolves.toMatchObject({ errcode: 80000 });
    await expect(call(String(Date.now()))).resolves.toMatchObject({ lockId: 100000 });
  });
});
