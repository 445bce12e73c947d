import { createTestApp, type TestApp } from '../helpers/app';
import { as, CONFIRM_PREFIX, registerHotel, registrationBody, uniqueEmail } from '../helpers/accounts';
import { linkIn, settledMessagesTo, tokenOf, waitForMessages } from '../helpers/mail';
import { problem } from '../helpers/problem';

let t: TestApp;
beforeAll(() => {
  t = createTestApp();
});
afterAll(() => t.close());

describe('POST /api/auth/register', () => {
  it('creates the hotel, its unconfirmed owner and three draft rental objects, and e-mails the link', async () => {
    const body = registrationBody({
      hotel_name: 'Гостиница Рассвет',
      email: `  ${uniqueEmail('Owner').toUpperCase()} `,
    });
    const response = await t.http.post('/api/auth/register').send(body).expect(201);
    expect(response.body).toEqual({ ok: true, message: expect.any(String) });

    const email = body.email.trim().toLowerCase();
    const user = await t.db('users').where({ email }).first();
    expect(user).toMatchObject({
      role: 'hotel_admin',
      name: body.contact,
      email_confirmed: false,
      active: true,
      phone: body.phone,
    });
    expect(user.confirmation_token).toMatch(/^[0-9a-f]{64}$/);
    expect(user.password_hash).toMatch(/^\$2[aby]\$12\$/);

    const hotel = await t.db('hotels').where({ id: user.hotel_id }).first();
    expect(hotel).toMatchObject({
      name: 'Гостиница Рассвет',
      address: body.address,
      timezone: 'Europe/Moscow',
      currency: 'RUB',
      plan: 'starter',
      is_active: true,
    });
    expect(hotel.slug).toMatch(/^gostinitsa-rassvet(-\d+)?$/);

    const rentals = await t
      .db('rental_objects')
      .where({ hotel_id: hotel.id })
      .orderBy('sort_order')
      .select('price_per_hour', 'price_per_day', 'open_hour', 'close_hour', 'sort_order', 'is_active');
    expect(rentals).toEqual([
      {
        price_per_hour: '1500.00',
        price_per_day: '8000.00',
        open_hour: 8,
        close_hour: 22,
        sort_order: 1,
        is_active: false,
      },
      {
        price_per_hour: '2500.00',
        price_per_day: '12000.00',
        open_hour: 10,
        close_hour: 23,
        sort_order: 2,
        is_active: false,
      },
      {
        price_per_hour: '3000.00',
        price_per_day: '15000.00',
        open_hour: 9,
        close_hour: 20,
        sort_order: 3,
        is_active: false,
      },
    ]);

    const [message] = await waitForMessages(email);
    expect(linkIn(message, CONFIRM_PREFIX)).toBe(`${CONFIRM_PREFIX}${user.confirmation_token}`);
  });

  it('appends -2, -3 to a taken slug', async () => {
    const name = `Slug Clash ${Date.now()}`;
    const owners = [];
    for (let i = 0; i < 3; i++) owners.push(await registerHotel(t, { hotel_name: name }));
    const base = name.toLowerCase().replace(/ /g, '-');
    expect(owners.map((o) => o.slug)).toEqual([base, `${base}-2`, `${base}-3`]);
  });

  it('gives concurrent registrations of one name distinct slugs', async () => {
    const name = `Race ${Date.now()}`;
    const responses = await Promise.all(
      Array.from({ length: 4 }, () => t.http.post('/api/auth/register').send(registrationBody({ hotel_name: name }))),
    );
    expect(responses.map((r) => r.status)).toEqual([201, 201, 201, 201]);
    const slugs = await t.db('hotels').where({ name }).pluck('slug');
    expect(new Set(slugs).size).toBe(4);
  });

  it('refuses an e-mail already used, whatever its case, with 409 and writes nothing', async () => {
    const body = registrationBody();
    await t.http.post('/api/auth/register').send(body).expect(201);
    const again = registrationBody({ email: body.email.toUpperCase(), hotel_name: 'Другой отель' });
    const response = await t.http.post('/api/auth/register').send(again).expect(409);
    expect(response.body).toEqual(problem(409, 'email_taken', 'Пользователь с таким email уже существует'));
    expect(await t.db('hotels').where({ name: 'Другой отель', address: again.address }).first()).toBeUndefined();
  });

  it('refuses a password without a letter', async () => {
    const body = registrationBody({ password: '1234567890' });
    const response = await t.http.post('/api/auth/register').send(body).expect(400);
    expect(response.body.error).toBe('Пароль должен содержать хотя бы одну букву');
    expect(await t.db('users').where({ email: body.email }).first()).toBeUndefined();
  });

  it('accepts a Cyrillic letter as the letter, and signs in with that password', async () => {
    // Registers, confirms by the e-mailed link and signs in (200) with the Cyrillic password.
    const hotel = await registerHotel(t, { password: '1234567ж' });
    await t.http.get(`/api/hotels/${hotel.slug}`).set(as(hotel.accessToken)).expect(200);
    // The letter counts as typed: its capital is another password.
    await t.http.post('/api/auth/login').send({ email: hotel.email, password: '1234567Ж' }).expect(401);
  });

  it('refuses a password longer than bcrypt reads (72 bytes) instead of truncating it', async () => {
    const response = await t.http
      .post('/api/auth/register')
      .send(registrationBody({ password: 'пароль'.repeat(7) }))
      .expect(400);
    expect(response.body.error).toMatch(/72/);
  });

  it.each(['hotel_name', 'address', 'contact', 'email', 'phone', 'password'])(
    '400 when %s is missing',
    async (field) => {
      const body: Record<string, unknown> = registrationBody();
      delete body[field];
      const response = await t.http.post('/api/auth/register').send(body).expect(400);
      expect(response.body.details).toEqual(
        expect.arrayContaining([expect.objectContaining({ path: `body.${field}` })]),
      );
    },
  );

  it.each([
    ['hotel_name', 'A'],
    ['address', 'B'],
    ['contact', 'C'],
    ['phone', '1234'],
    ['password', 'abc1234'],
  ])('400 when %s is below its minimum length', async (field, value) => {
    const response = await t.http
      .post('/api/auth/register')
      .send(registrationBody({ [field]: value }))
      .expect(400);
    expect(response.body.details[0].path).toBe(`body.${field}`);
  });

  it('400 for a body that is not an object or not JSON', async () => {
    await t.http.post('/api/auth/register').set('content-type', 'application/json').send('{"oops"').expect(400);
    await t.http.post('/api/auth/register').send([1, 2]).expect(400);
  });
});

describe('GET /api/auth/confirm-email', () => {
  const location = (response: { headers: Record<string, string> }) => response.headers.location;

  it('confirms once, then treats the same link as invalid', async () => {
    const body = registrationBody();
    await t.http.post('/api/auth/register').send(body).expect(201);
    const token = tokenOf(linkIn((await waitForMessages(body.email))[0], CONFIRM_PREFIX));

    const first = await t.http.get(`/api/auth/confirm-email?token=${token}`).expect(302);
    expect(location(first)).toBe('http://app.test/login?confirmed=1');
    const user = await t.db('users').where({ email: body.email }).first();
    expect(user).toMatchObject({ email_confirmed: true, confirmation_token: null });

    const second = await t.http.get(`/api/auth/confirm-email?token=${token}`).expect(302);
    expect(location(second)).toBe('http://app.test/login?error=invalid_token');
  });

  it('redirects with invalid_token for a missing or unknown token', async () => {
    expect(location(await t.http.get('/api/auth/confirm-email').expect(302))).toBe(
      'http://app.test/login?error=invalid_token',
    );
    expect(location(await t.http.get(`/api/auth/confirm-email?token=${'0'.repeat(64)}`).expect(302))).toBe(
      'http://app.test/login?error=invalid_token',
    );
  });

  it('redirects with token_expired after 24 hours and leaves the account unconfirmed', async () => {
    const body = registrationBody();
    await t.http.post('/api/auth/register').send(body).expect(201);
    await t
      .db('users')
      .where({ email: body.email })
      .update({ confirmation_sent_at: t.db.raw("now() - interval '24 hours 1 minute'") });
    const { confirmation_token: token } = await t.db('users').where({ email: body.email }).first();
    const response = await t.http.get(`/api/auth/confirm-email?token=${token}`).expect(302);
    expect(location(response)).toBe('http://app.test/login?error=token_expired');
    expect((await t.db('users').where({ email: body.email }).first()).email_confirmed).toBe(false);
  });
});

describe('POST /api/auth/resend-confirmation', () => {
  it('sends a fresh link that restarts the 24-hour clock; the old link no longer works', async () => {
    const body = registrationBody();
    await t.http.post('/api/auth/register').send(body).expect(201);
    const oldToken = tokenOf(linkIn((await waitForMessages(body.email))[0], CONFIRM_PREFIX));
    await t
      .db('users')
      .where({ email: body.email })
      .update({ confirmation_sent_at: t.db.raw("now() - interval '23 hours'") });

    await t.http
      .post('/api/auth/resend-confirmation')
      .send({ email: body.email.toUpperCase() })
      .expect(200, { ok: true });
    const messages = await waitForMessages(body.email, 2);
    const newToken = tokenOf(linkIn(messages[1], CONFIRM_PREFIX));
    expect(newToken).toMatch(/^[0-9a-f]{64}$/);
    expect(newToken).not.toBe(oldToken);
    const user = await t.db('users').where({ email: body.email }).first();
    expect(Date.now() - new Date(user.confirmation_sent_at).getTime()).toBeLessThan(60_000);

    expect((await t.http.get(`/api/auth/confirm-email?token=${oldToken}`)).headers.location).toContain('invalid_token');
    expect((await t.http.get(`/api/auth/confirm-email?token=${newToken}`)).headers.location).toContain('confirmed=1');
  });

  it('answers 200 and sends nothing for an unknown or already confirmed e-mail', async () => {
    const unknown = uniqueEmail('nobody');
    await t.http.post('/api/auth/resend-confirmation').send({ email: unknown }).expect(200, { ok: true });
    const owner = await registerHotel(t);
    await t.http.post('/api/auth/resend-confirmation').send({ email: owner.email }).expect(200, { ok: true });
    expect(await settledMessagesTo(t.db, unknown)).toEqual([]);
    expect(await settledMessagesTo(t.db, owner.email)).toHaveLength(1);
  });

  it('400 without an e-mail', async () => {
    await t.http.post('/api/auth/resend-confirmation').send({}).expect(400);
  });
});
