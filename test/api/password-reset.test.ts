import { createTestApp, type TestApp } from '../helpers/app';
import { registerHotel, registrationBody, uniqueEmail } from '../helpers/accounts';
import { linkIn, settledMessagesTo, tokenOf, waitForMessages } from '../helpers/mail';
import { problem } from '../helpers/problem';

const RESET_PREFIX = 'http://app.test/reset-password?token=';

let t: TestApp;
beforeAll(() => {
  t = createTestApp();
});
afterAll(() => t.close());

async function requestReset(email: string, expectedMessages = 2): Promise<string> {
  await t.http.post('/api/auth/forgot-password').send({ email }).expect(200, { ok: true });
  const messages = await waitForMessages(email, expectedMessages);
  return tokenOf(linkIn(messages[expectedMessages - 1], RESET_PREFIX));
}

describe('password reset', () => {
  it('e-mails a one-hour link; the new password works, the old one and every session end', async () => {
    const owner = await registerHotel(t);
    const token = await requestReset(owner.email);
    expect(token).toMatch(/^[0-9a-f]{64}$/);
    const user = await t.db('users').where({ id: owner.userId }).first();
    const validForMs = new Date(user.reset_token_expires).getTime() - Date.now();
    expect(validForMs).toBeGreaterThan(59 * 60_000);
    expect(validForMs).toBeLessThanOrEqual(60 * 60_000);

    await t.http.post('/api/auth/reset-password').send({ token, password: 'brandnew1' }).expect(200, { ok: true });
    expect((await t.db('users').where({ id: owner.userId }).first()).reset_token).toBeNull();
    await t.http.post('/api/auth/login').send({ email: owner.email, password: owner.password }).expect(401);
    await t.http.post('/api/auth/login').send({ email: owner.email, password: 'brandnew1' }).expect(200);
    // The session opened before the reset is revoked.
    await t.http.post('/api/auth/refresh').set('Cookie', owner.refreshCookie).expect(401);
  });

  it('a link works once', async () => {
    const owner = await registerHotel(t);
    const token = await requestReset(owner.email);
    await t.http.post('/api/auth/reset-password').send({ token, password: 'brandnew1' }).expect(200);
    const again = await t.http.post('/api/auth/reset-password').send({ token, password: 'brandnew2' }).expect(400);
    expect(again.body).toEqual(problem(400, 'validation_failed', 'Ссылка недействительна или истекла'));
  });

  it('400 for an expired link', async () => {
    const owner = await registerHotel(t);
    const token = await requestReset(owner.email);
    await t
      .db('users')
      .where({ id: owner.userId })
      .update({ reset_token_expires: t.db.raw("now() - interval '1 second'") });
    const response = await t.http.post('/api/auth/reset-password').send({ token, password: 'brandnew1' }).expect(400);
    expect(response.body).toEqual(problem(400, 'validation_failed', 'Ссылка недействительна или истекла'));
  });

  it('400 for an unknown token', async () => {
    const response = await t.http
      .post('/api/auth/reset-password')
      .send({ token: 'f'.repeat(64), password: 'brandnew1' })
      .expect(400);
    expect(response.body).toEqual(problem(400, 'validation_failed', 'Ссылка недействительна или истекла'));
  });

  it('400 for a new password without a letter, and the token stays usable', async () => {
    const owner = await registerHotel(t);
    const token = await requestReset(owner.email);
    const response = await t.http.post('/api/auth/reset-password').send({ token, password: '12345678' }).expect(400);
    expect(response.body).toEqual(problem(400, 'validation_failed', 'Пароль должен содержать хотя бы одну букву'));
    await t.http.post('/api/auth/reset-password').send({ token, password: 'brandnew1' }).expect(200);
  });

  it.each([
    [{ password: 'brandnew1' }, 'token'],
    [{ token: 'abc' }, 'password'],
    [{ token: 'abc', password: 'short1' }, 'password'],
  ])('400 for %j (%s)', async (body, field) => {
    const response = await t.http.post('/api/auth/reset-password').send(body).expect(400);
    expect(response.body.details[0].path).toBe(`body.${field}`);
  });

  it('forgot-password answers 200 and sends nothing for an unknown or unconfirmed e-mail', async () => {
    const unknown = uniqueEmail('nobody');
    await t.http.post('/api/auth/forgot-password').send({ email: unknown }).expect(200, { ok: true });
    const body = registrationBody();
    await t.http.post('/api/auth/register').send(body).expect(201);
    await waitForMessages(body.email, 1);
    await t.http.post('/api/auth/forgot-password').send({ email: body.email }).expect(200, { ok: true });
    expect(await settledMessagesTo(t.db, unknown)).toEqual([]);
    expect(await settledMessagesTo(t.db, body.email)).toHaveLength(1);
    expect((await t.db('users').where({ email: body.email }).first()).reset_token).toBeNull();
  });
});
