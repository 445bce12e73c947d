import type { Db } from '../../src/platform/db/knex';
import { registrationBody } from './accounts';
import { messagesTo } from './mail';
import type { FaultStack } from './processes';
import { until } from './wait';

export interface FaultOwner {
  email: string;
  userId: string;
  hotelId: string;
  slug: string;
  token: string;
}

export type FaultCall = (
  method: string,
  path: string,
  token?: string,
  body?: unknown,
  headers?: Record<string, string>,
) => Promise<{ status: number; body: Record<string, unknown> }>;

/**
 * HTTP against a fault stack's API process, as its clients would speak to it, with the stack's database at hand for
 * what only e-mails would carry (a confirmation token).
 */
export function faultClient(stack: () => FaultStack, db: () => Db) {
  const call: FaultCall = async (method, path, token, body, headers = {}) => {
    const response = await fetch(`${stack().apiUrl}${path}`, {
      method,
      redirect: 'manual',
      headers: {
        ...(body !== undefined && { 'content-type': 'application/json' }),
        ...(token && { authorization: `Bearer ${token}` }),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(30_000),
    });
    const text = await response.text();
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = text;
    }
    return { status: response.status, body: json as Record<string, unknown> };
  };

  async function expectStatus(expected: number, pending: ReturnType<FaultCall>) {
    const result = await pending;
    if (result.status !== expected) {
      throw new Error(`expected ${expected}, got ${result.status}: ${JSON.stringify(result.body)}`);
    }
    return result.body;
  }

  /** Registers a hotel through the API; the confirmation token is read from the database (the e-mail is checked later). */
  async function register(): Promise<{ email: string; password: string; userId: string }> {
    const body = registrationBody();
    await expectStatus(201, call('POST', '/api/auth/register', undefined, body));
    const user = (await db()('users').where({ email: body.email }).first('id')) as { id: string };
    return { email: body.email, password: body.password, userId: user.id };
  }

  async function registerAndSignIn(): Promise<FaultOwner> {
    const { email, password, userId } = await register();
    // The e-mail goes out before the address is confirmed (a confirmed address is not sent a link any more).
    await until(async () => (await messagesTo(email)).length > 0, { what: 'confirmation e-mail', timeoutMs: 30_000 });
    const { confirmation_token: token } = (await db()('users').where({ id: userId }).first('confirmation_token')) as {
      confirmation_token: string;
    };
    await expectStatus(302, call('GET', `/api/auth/confirm-email?token=${token}`));
    const login = await expectStatus(200, call('POST', '/api/auth/login', undefined, { email, password }));
    const user = login.user as { hotelId: string; hotelSlug: string };
    return { email, userId, hotelId: user.hotelId, slug: user.hotelSlug, token: login.access_token as string };
  }

  return { call, expectStatus, register, registerAndSignIn };
}
