import { randomInt, randomUUID } from 'node:crypto';
import { createTestApp, type TestApp } from '../helpers/app';
import { as, registerHotel, uniqueEmail } from '../helpers/accounts';
import { problem } from '../helpers/problem';

/**
 * The refusal contract: RFC 9457 problem details as `application/problem+json` with the spec's `error` and a stable
 * `code`; the IETF RateLimit headers on every answer of a limited route; the headers a browser client may read.
 */

let t: TestApp;
beforeAll(() => {
  t = createTestApp();
});
afterAll(() => t.close());

describe('problem details', () => {
  it('a validation failure: 400 problem+json, the message in detail and error, every field in details', async () => {
    const response = await t.http.post('/api/auth/register').send({ email: 'not an e-mail' }).expect(400);
    expect(response.headers['content-type']).toBe('application/problem+json; charset=utf-8');
    const details = response.body.details as { path: string; message: string }[];
    expect(details.map((detail) => detail.path)).toEqual(
      expect.arrayContaining(['body.hotel_name', 'body.email', 'body.password']),
    );
    expect(response.body).toEqual(
      problem(400, 'validation_failed', `Некорректные данные: ${details.map((d) => d.message).join('; ')}`, {
        details,
      }),
    );
    expect(response.body.title).toBe('Некорректный запрос');
  });

  it('the same problem type always has the same title, whatever the occurrence says', async () => {
    const owner = await registerHotel(t);
    const base = `/api/hotels/${owner.slug}`;
    const first = await t.http.get(`${base}/rooms/${randomUUID()}`).set(as(owner.accessToken)).expect(404);
    const second = await t.http.get('/api/nothing-here').expect(404);
    expect(first.body).toEqual(problem(404, 'not_found', first.body.detail));
    expect(second.body).toEqual(problem(404, 'not_found', 'Маршрут не найден'));
    expect(first.body.title).toBe(second.body.title);
    expect(first.body.detail).not.toBe(second.body.detail);
  });

  it('each refusal names its own stable code', async () => {
    const response = await t.http
      .post('/api/auth/login')
      .send({ email: uniqueEmail('nobody'), password: 'wrongpass1' })
      .expect(401);
    expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(response.body).toEqual(problem(401, 'invalid_credentials', 'Неверный email или пароль'));
  });
});

describe('RateLimit headers (draft-ietf-httpapi-ratelimit-headers)', () => {
  const PER_ADDRESS = 6;
  const PER_ACCOUNT = 2;
  const WINDOW = 600;
  let limited: TestApp;
  beforeAll(() => {
    limited = createTestApp({
      RATE_LIMIT_MAX_PER_IP: String(PER_ADDRESS),
      RATE_LIMIT_MAX_PER_ACCOUNT: String(PER_ACCOUNT),
      RATE_LIMIT_WINDOW_SECONDS: String(WINDOW),
      TRUST_PROXY: 'true',
    });
  });
  afterAll(() => limited.close());

  /** A client address of its own (documentation range), so other tests' attempts are not counted with ours. */
  const clientAddress = () => `2001:db8::${randomInt(0x10000).toString(16)}:${randomInt(0x10000).toString(16)}`;
  const POLICY = `"per-address";q=${PER_ADDRESS};w=${WINDOW}, "per-account";q=${PER_ACCOUNT};w=${WINDOW}`;

  function quota(header: string | undefined): Record<string, { r: number; t: number }> {
    return Object.fromEntries(
      (header ?? '').split(', ').map((item) => {
        const [, policy, r, t] = /^"([\w-]+)";r=(\d+);t=(\d+)$/.exec(item) ?? [];
        return [policy, { r: Number(r), t: Number(t) }];
      }),
    );
  }

  it('every answer carries both; the 429 says the same wait in RateLimit and Retry-After', async () => {
    const address = clientAddress();
    const email = uniqueEmail('limited');
    const send = (body: Record<string, unknown>) =>
      limited.http.post('/api/auth/forgot-password').set('X-Forwarded-For', address).send(body);

    const first = await send({ email }).expect(200);
    expect(first.headers['ratelimit-policy']).toBe(POLICY);
    expect(quota(first.headers['ratelimit'])).toEqual({
      'per-address': { r: PER_ADDRESS - 1, t: expect.any(Number) },
      'per-account': { r: PER_ACCOUNT - 1, t: expect.any(Number) },
    });
    const { t: reset } = quota(first.headers['ratelimit'])['per-address'];
    expect(reset).toBeGreaterThan(0);
    expect(reset).toBeLessThanOrEqual(WINDOW);

    await send({ email }).expect(200);
    const refused = await send({ email }).expect(429);
    expect(refused.headers['ratelimit-policy']).toBe(POLICY);
    const left = quota(refused.headers['ratelimit']);
    expect(left['per-account'].r).toBe(0);
    expect(left['per-address'].r).toBe(PER_ADDRESS - 3);
    expect(Number(refused.headers['retry-after'])).toBe(left['per-account'].t);
    expect(refused.body).toEqual(problem(429, 'rate_limited', 'Слишком много попыток. Повторите позже.'));

    // A malformed attempt is counted (its account is the empty one) and answered with the headers too.
    const malformed = await send({ email: 42 }).expect(400);
    expect(malformed.headers['ratelimit-policy']).toBe(POLICY);
    expect(quota(malformed.headers['ratelimit'])).toEqual({
      'per-address': { r: PER_ADDRESS - 4, t: expect.any(Number) },
      'per-account': { r: PER_ACCOUNT - 1, t: expect.any(Number) },
    });
  });

  it('an address over its quota is refused before any account is counted', async () => {
    const address = clientAddress();
    const send = () =>
      limited.http
        .post('/api/auth/forgot-password')
        .set('X-Forwarded-For', address)
        .send({ email: uniqueEmail('ip') });
    for (let attempt = 0; attempt < PER_ADDRESS; attempt++) await send().expect(200);
    const refused = await send().expect(429);
    expect(refused.headers['ratelimit-policy']).toBe(POLICY);
    expect(quota(refused.headers['ratelimit'])).toEqual({
      'per-address': { r: 0, t: Number(refused.headers['retry-after']) },
    });
  });

  it('routes without a limit send no RateLimit headers', async () => {
    const response = await t.http.get('/api/nothing-here').expect(404);
    expect(response.headers['ratelimit']).toBeUndefined();
    expect(response.headers['ratelimit-policy']).toBeUndefined();
  });
});

it('CORS lets the application read the headers it needs', async () => {
  const response = await t.http.get('/health').set('Origin', t.config.appUrl).expect(200);
  const exposed = String(response.headers['access-control-expose-headers'])
    .split(',')
    .map((name) => name.trim());
  expect(exposed).toEqual(
    expect.arrayContaining([
      'ETag',
      'Location',
      'Link',
      'Retry-After',
      'X-Request-Id',
      'RateLimit',
      'RateLimit-Policy',
    ]),
  );
});
