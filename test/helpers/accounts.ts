import { randomUUID } from 'node:crypto';
import { signAccessToken } from '../../src/platform/http/access-token';
import type { TestApp } from './app';
import { linkIn, tokenOf, waitForMessages } from './mail';

export const CONFIRM_PREFIX = 'http://api.test/api/auth/confirm-email?token=';

export function uniqueEmail(label = 'user'): string {
  return `${label}-${randomUUID()}@example.test`;
}

export interface RegisteredHotel {
  email: string;
  password: string;
  slug: string;
  hotelId: string;
  userId: string;
  accessToken: string;
  refreshCookie: string;
}

export function registrationBody(overrides: Record<string, unknown> = {}) {
  return {
    hotel_name: `Тестовый отель ${randomUUID().slice(0, 8)}`,
    address: 'ул. Тестовая, 1',
    contact: 'Иван Петров',
    email: uniqueEmail('owner'),
    phone: '+79990001122',
    password: 'password1',
    ...overrides,
  };
}

export function refreshCookieOf(setCookie: string[] | string | undefined): string {
  const cookies = Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : [];
  const cookie = cookies.find((c) => c.startsWith('refresh_token='));
  if (!cookie) throw new Error('no refresh_token cookie');
  return cookie.split(';')[0];
}

/** Registers a hotel the way its owner would: form, e-mail link, sign-in. */
export async function registerHotel(t: TestApp, overrides: Record<string, unknown> = {}): Promise<RegisteredHotel> {
  const body = registrationBody(overrides);
  await t.http.post('/api/auth/register').send(body).expect(201);
  const [message] = await waitForMessages(body.email);
  const token = tokenOf(linkIn(message, CONFIRM_PREFIX));
  await t.http.get('/api/auth/confirm-email').query({ token }).expect(302);
  const login = await t.http.post('/api/auth/login').send({ email: body.email, password: body.password }).expect(200);
  return {
    email: body.email,
    password: body.password,
    slug: login.body.user.hotelSlug,
    hotelId: login.body.user.hotelId,
    userId: login.body.user.id,
    accessToken: login.body.access_token,
    refreshCookie: refreshCookieOf(login.headers['set-cookie']),
  };
}

/** Adds an active staff member with a password and signs them in. */
export async function addStaff(t: TestApp, owner: RegisteredHotel, role: string) {
  const email = uniqueEmail(role);
  const password = 'staffpass1';
  const created = await t.http
    .post(`/api/hotels/${owner.slug}/users`)
    .set('Authorization', `Bearer ${owner.accessToken}`)
    .send({ name: `Staff ${role}`, email, role, password })
    .expect(201);
  const login = await t.http.post('/api/auth/login').send({ email, password }).expect(200);
  return { id: created.body.id as string, email, password, accessToken: login.body.access_token as string };
}

/** The Authorization header of a signed-in member. */
export const as = (accessToken: string) => ({ Authorization: `Bearer ${accessToken}` });

/**
 * A platform operator: super_admin accounts are made by the operators of the service, not through the API, so the
 * test puts one in the database and signs its token as login would.
 */
export async function superAdminToken(t: TestApp, ttlSeconds = 900): Promise<string> {
  const email = uniqueEmail('root');
  const [{ id }] = await t
    .db('users')
    .insert({ name: 'Root', email, role: 'super_admin', hotel_id: null, active: true, email_confirmed: true })
    .returning('id');
  const payload = {
    sub: id as string,
    email,
    name: 'Root',
    role: 'super_admin' as const,
    hotelId: null,
    hotelSlug: null,
  };
  return signAccessToken({ ...payload, sv: 0 }, t.config.jwtSecret, ttlSeconds);
}
