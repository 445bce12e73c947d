import jwt from 'jsonwebtoken';
import { createTestApp, type TestApp } from '../helpers/app';
import { addStaff, refreshCookieOf, registerHotel, registrationBody, uniqueEmail } from '../helpers/accounts';
import { problem } from '../helpers/problem';

let t: TestApp;
beforeAll(() => {
  t = createTestApp();
});
afterAll(() => t.close());

describe('POST /api/auth/login', () => {
  it('signs in with the e-mail in any case and spacing, returning the token, the user and the refresh cookie', async () => {
    const owner = await registerHotel(t);
    const response = await t.http
      .post('/api/auth/login')
      .send({ email: `  ${owner.email.toUpperCase()}  `, password: owner.password })
      .expect(200);
    expect(response.body.user).toEqual({
      id: owner.userId,
      email: owner.email,
      name: 'Иван Петров',
      role: 'hotel_admin',
      hotelId: owner.hotelId,
      hotelSlug: owner.slug,
    });
    const payload = jwt.verify(response.body.access_token, t.config.jwtSecret, { algorithms: ['HS256'] }) as Record<
      string,
      unknown
    >;
    expect(payload).toMatchObject({
      sub: owner.userId,
      email: owner.email,
      name: 'Иван Петров',
      role: 'hotel_admin',
      hotelId: owner.hotelId,
      hotelSlug: owner.slug,
    });
    expect((payload.exp as number) - (payload.iat as number)).toBe(900);

    const cookie = (response.headers['set-cookie'] as unknown as string[]).find((c) => c.startsWith('refresh_token='))!;
    expect(cookie).toMatch(/^refresh_token=[0-9a-f]{80};/);
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Strict');
    expect(cookie).toContain('Path=/api/auth');
    expect(cookie).toContain(`Max-Age=${30 * 24 * 3600}`);
    expect(cookie).not.toContain('Secure');
  });

  it('stores only a hash of the refresh token', async () => {
    const owner = await registerHotel(t);
    const token = owner.refreshCookie.split('=')[1];
    const rows = await t.db('sessions').where({ user_id: owner.userId });
    expect(rows.length).toBeGreaterThan(0);
    expect(JSON.stringify(rows)).not.toContain(token);
  });

  it('401 with the same message for an unknown e-mail and a wrong password', async () => {
    const owner = await registerHotel(t);
    const wrong = await t.http.post('/api/auth/login').send({ email: owner.email, password: 'wrongpass1' }).expect(401);
    const unknown = await t.http
      .post('/api/auth/login')
      .send({ email: uniqueEmail('ghost'), password: 'whatever1' })
      .expect(401);
    expect(wrong.body).toEqual(problem(401, 'invalid_credentials', 'Неверный email или пароль'));
    expect(unknown.body).toEqual(wrong.body);
  });

  it('403 for correct credentials with an unconfirmed e-mail', async () => {
    const body = registrationBody();
    await t.http.post('/api/auth/register').send(body).expect(201);
    const response = await t.http
      .post('/api/auth/login')
      .send({ email: body.email, password: body.password })
      .expect(403);
    expect(response.body).toEqual(
      problem(403, 'email_not_confirmed', 'Email не подтверждён. Проверьте почту и перейдите по ссылке.'),
    );
  });

  it('does not let a longer password pass on its first 72 bytes', async () => {
    const password = 'a1'.repeat(36);
    const owner = await registerHotel(t, { password });
    await t.http.post('/api/auth/login').send({ email: owner.email, password }).expect(200);
    await t.http
      .post('/api/auth/login')
      .send({ email: owner.email, password: password + 'extra' })
      .expect(401);
  });

  it.each([['email'], ['password']])('400 without %s', async (field) => {
    const body: Record<string, string> = { email: 'a@b.c', password: 'x' };
    delete body[field];
    await t.http.post('/api/auth/login').send(body).expect(400);
  });
});

describe('POST /api/auth/refresh', () => {
  it('401 "No refresh token" without the cookie', async () => {
    const response = await t.http.post('/api/auth/refresh').expect(401);
    expect(response.body).toEqual(problem(401, 'no_refresh_token', 'No refresh token'));
  });

  it('401 "Invalid or expired refresh token" for an unknown or expired token', async () => {
    const unknown = await t.http
      .post('/api/auth/refresh')
      .set('Cookie', `refresh_token=${'ab'.repeat(40)}`)
      .expect(401);
    expect(unknown.body).toEqual(problem(401, 'invalid_refresh_token', 'Invalid or expired refresh token'));

    const owner = await registerHotel(t);
    await t
      .db('sessions')
      .where({ user_id: owner.userId })
      .update({ expires_at: t.db.raw("now() - interval '1 second'") });
    const expired = await t.http.post('/api/auth/refresh').set('Cookie', owner.refreshCookie).expect(401);
    expect(expired.body).toEqual(problem(401, 'invalid_refresh_token', 'Invalid or expired refresh token'));
  });

  it('issues a new access token that carries a role changed since sign-in', async () => {
    const owner = await registerHotel(t);
    const member = await addStaff(t, owner, 'receptionist');
    const login = await t.http
      .post('/api/auth/login')
      .send({ email: member.email, password: member.password })
      .expect(200);
    const cookie = refreshCookieOf(login.headers['set-cookie']);
    await t.http
      .patch(`/api/hotels/${owner.slug}/users/${member.id}`)
      .set('Authorization', `Bearer ${owner.accessToken}`)
      .send({ role: 'manager' })
      .expect(200);

    const response = await t.http.post('/api/auth/refresh').set('Cookie', cookie).expect(200);
    const payload = jwt.decode(response.body.access_token) as Record<string, unknown>;
    expect(payload).toMatchObject({ sub: member.id, role: 'manager', hotelSlug: owner.slug, hotelId: owner.hotelId });
    const session = await t.db('sessions').where({ user_id: member.id }).orderBy('created_at', 'desc').first();
    expect(session.payload.role).toBe('manager');
  });

  it('ends the sessions of a deactivated account: 401, cookie cleared, tokens removed', async () => {
    const owner = await registerHotel(t);
    const member = await addStaff(t, owner, 'housekeeper');
    const login = await t.http
      .post('/api/auth/login')
      .send({ email: member.email, password: member.password })
      .expect(200);
    const cookie = refreshCookieOf(login.headers['set-cookie']);
    await t.db('users').where({ id: member.id }).update({ active: false });

    const response = await t.http.post('/api/auth/refresh').set('Cookie', cookie).expect(401);
    expect(response.body).toEqual(problem(401, 'account_inactive', 'Account inactive or not found'));
    expect(String(response.headers['set-cookie'])).toMatch(/refresh_token=;.*Expires=Thu, 01 Jan 1970/);
    expect(await t.db('sessions').where({ user_id: member.id })).toHaveLength(0);
  });

  it('login does not check active (spec rule 10), refresh does', async () => {
    const owner = await registerHotel(t);
    const member = await addStaff(t, owner, 'security');
    await t.db('users').where({ id: member.id }).update({ active: false });
    const login = await t.http
      .post('/api/auth/login')
      .send({ email: member.email, password: member.password })
      .expect(200);
    await t.http.post('/api/auth/refresh').set('Cookie', refreshCookieOf(login.headers['set-cookie'])).expect(401);
  });
});

describe('POST /api/auth/logout', () => {
  it('removes the stored session and clears the cookie; the old cookie no longer refreshes', async () => {
    const owner = await registerHotel(t);
    const response = await t.http.post('/api/auth/logout').set('Cookie', owner.refreshCookie).expect(200);
    expect(response.body).toEqual({ ok: true });
    expect(String(response.headers['set-cookie'])).toMatch(/refresh_token=;.*Path=\/api\/auth/);
    await t.http.post('/api/auth/refresh').set('Cookie', owner.refreshCookie).expect(401);
  });

  it('answers 200 without a cookie', async () => {
    await t.http.post('/api/auth/logout').expect(200, { ok: true });
  });
});

describe('GET /api/auth/me', () => {
  it('returns the account', async () => {
    const owner = await registerHotel(t);
    const response = await t.http.get('/api/auth/me').set('Authorization', `Bearer ${owner.accessToken}`).expect(200);
    expect(response.body).toEqual({
      id: owner.userId,
      email: owner.email,
      name: 'Иван Петров',
      role: 'hotel_admin',
      hotel_id: owner.hotelId,
      created_at: expect.any(String),
      hotel_slug: owner.slug,
    });
  });

  it('returns null for a valid token whose account was deleted', async () => {
    const owner = await registerHotel(t);
    const member = await addStaff(t, owner, 'technician');
    await t.db('users').where({ id: member.id }).delete();
    const response = await t.http.get('/api/auth/me').set('Authorization', `Bearer ${member.accessToken}`).expect(200);
    expect(response.body).toBeNull();
  });

  it('401 for a token revoked by a deactivation, once the account is active again, even before the notice arrives', async () => {
    const owner = await registerHotel(t);
    const member = await addStaff(t, owner, 'technician');
    await t.http
      .patch(`/api/hotels/${owner.slug}/users/${member.id}`)
      .set('Authorization', `Bearer ${owner.accessToken}`)
      .send({ active: false })
      .expect(200);
    const me = () => t.http.get('/api/auth/me').set('Authorization', `Bearer ${member.accessToken}`);
    expect((await me().expect(200)).body).toBeNull();
    // Reactivated without the account's notice: this process still holds it as inactive.
    await t.db.transaction(async (trx) => {
      await trx.raw('set local session_replication_role = replica');
      await trx('users').where({ id: member.id }).update({ active: true });
    });
    await me().expect(401);
  });

  it.each([
    ['no header', undefined],
    ['a malformed token', 'Bearer not-a-jwt'],
    ['a token signed with another secret', `Bearer ${jwt.sign({ sub: 'x' }, 'another-secret-another-secret-123')}`],
    [
      'an expired token',
      `Bearer ${jwt.sign({ sub: 'x' }, 'test-secret-that-is-long-enough-0123456789', { expiresIn: -10 })}`,
    ],
    ['the none algorithm', `Bearer ${jwt.sign({ sub: 'x' }, '', { algorithm: 'none' })}`],
  ])('401 with %s', async (_case, header) => {
    const request = t.http.get('/api/auth/me');
    if (header) request.set('Authorization', header);
    await request.expect(401);
  });
});

describe('rate limits', () => {
  let limited: TestApp;
  beforeAll(() => {
    limited = createTestApp({
      RATE_LIMIT_MAX_PER_ACCOUNT: '3',
      RATE_LIMIT_MAX_PER_IP: '1000000',
      RATE_LIMIT_WINDOW_SECONDS: '600',
    });
  });
  afterAll(() => limited.close());

  it.each([
    ['/api/auth/login', (email: string) => ({ email, password: 'wrongpass1' })],
    ['/api/auth/forgot-password', (email: string) => ({ email })],
    ['/api/auth/resend-confirmation', (email: string) => ({ email })],
    ['/api/auth/register', (email: string) => registrationBody({ email })],
  ])('%s answers 429 with Retry-After after 3 attempts for one account', async (path, body) => {
    const email = uniqueEmail('limited');
    for (let i = 0; i < 3; i++) expect((await limited.http.post(path).send(body(email))).status).not.toBe(429);
    const response = await limited.http.post(path).send(body(email)).expect(429);
    expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(response.headers['retry-after'])).toBeLessThanOrEqual(600);
    expect(response.body.error).toBeDefined();
    // Another account from the same address is still served.
    expect((await limited.http.post(path).send(body(uniqueEmail('other')))).status).not.toBe(429);
  });

  it('refuses a limited login before checking the password, even a correct one', async () => {
    const owner = await registerHotel(t); // its sign-in is the first attempt counted
    for (let i = 0; i < 2; i++) {
      await limited.http.post('/api/auth/login').send({ email: owner.email, password: 'wrongpass1' }).expect(401);
    }
    await limited.http.post('/api/auth/login').send({ email: owner.email, password: owner.password }).expect(429);
  });

  it('limits one client address across accounts', async () => {
    const perIp = createTestApp({ RATE_LIMIT_MAX_PER_IP: '2', TRUST_PROXY: 'true' });
    try {
      const ip = `203.0.113.${Math.floor(Math.random() * 250) + 1}`;
      const send = () =>
        perIp.http
          .post('/api/auth/forgot-password')
          .set('X-Forwarded-For', ip)
          .send({ email: uniqueEmail('ip') });
      expect((await send()).status).toBe(200);
      expect((await send()).status).toBe(200);
      expect((await send()).status).toBe(429);
    } finally {
      await perIp.close();
    }
  });
});
