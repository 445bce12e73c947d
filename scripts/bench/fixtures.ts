import type { Db } from '../../src/platform/db/knex';

export const BENCH_PASSWORD = 'benchpass1';

/** A JSON call of the bench's API; anything but the expected status throws with the answer's body. */
export async function call<T>(
  baseUrl: string,
  method: string,
  path: string,
  token?: string,
  body?: unknown,
): Promise<T> {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: {
      ...(body !== undefined && { 'content-type': 'application/json' }),
      ...(token && { authorization: `Bearer ${token}` }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
  return JSON.parse(text) as T;
}

/** `count` hotels through the API, their owners confirmed directly in the database (no mail round trip). */
export async function registerConfirmedOwners(baseUrl: string, db: Db, count: number): Promise<string[]> {
  const emails = await Promise.all(
    Array.from({ length: count }, async (_, i) => {
      const email = `bench-${i}-${Date.now()}@example.test`;
      await call(baseUrl, 'POST', '/api/auth/register', undefined, {
        hotel_name: `Bench ${i}`,
        address: 'Bench street 1',
        contact: 'Bench',
        email,
        phone: '+70000000000',
        password: BENCH_PASSWORD,
      });
      return email;
    }),
  );
  await db('users').whereIn('email', emails).update({ email_confirmed: true, confirmation_token: null });
  return emails;
}

/** Signs the owner of `email` in: their access token and the API path of their hotel. */
export async function signIn(baseUrl: string, email: string): Promise<{ token: string; hotel: string }> {
  const session = await call<{ access_token: string; user: { hotelSlug: string } }>(
    baseUrl,
    'POST',
    '/api/auth/login',
    undefined,
    { email, password: BENCH_PASSWORD },
  );
  return { token: session.access_token, hotel: `/api/hotels/${session.user.hotelSlug}` };
}

const addDays = (date: string, days: number) =>
  new Date(Date.parse(date) + days * 86_400_000).toISOString().slice(0, 10);

export interface QuoteFixture {
  token: string;
  /** 30 nights of one category: base nights, a rate period on 10 of them, overrides on 3, a percent tariff, 5 % off. */
  categoryQuote: string;
  /** The same stay for a room of that category with its own rate and fees. */
  roomQuote: string;
}

/** Prices for a 30-night stay in the hotel of `email`, set up through the API. */
export async function createQuoteFixture(baseUrl: string, email: string): Promise<QuoteFixture> {
  const { token, hotel } = await signIn(baseUrl, email);
  const create = <T = { id: string }>(path: string, body: object) =>
    call<T>(baseUrl, 'POST', `${hotel}${path}`, token, body);

  const checkIn = addDays(new Date().toISOString().slice(0, 10), 30);
  const checkOut = addDays(checkIn, 30);
  const category = await create('/room-categories', { name: 'Bench', base_price: 5000 });
  const room = await create('/rooms', {
    number: '101',
    category_id: category.id,
    base_rate: 5200,
    early_checkin_fee: 1000,
    late_checkout_fee: 1000,
  });
  await create('/rate-periods', {
    name: 'Bench season',
    date_from: addDays(checkIn, 10),
    date_to: addDays(checkIn, 19),
    prices: [{ category_id: category.id, price: 6500 }],
  });
  await create('/rate-overrides', {
    category_id: category.id,
    date_from: addDays(checkIn, 3),
    date_to: addDays(checkIn, 5),
    price: 7200,
  });
  const tariff = await create('/tariffs', { name: 'Bench -10 %', adjustment_type: 'percent', adjustment_value: -10 });

  const stay = { check_in: checkIn, check_out: checkOut, tariff_id: tariff.id, discount: '5' };
  const categoryQuote = `${hotel}/quote?${new URLSearchParams({ ...stay, category_id: category.id })}`;
  const roomQuote = `${hotel}/quote?${new URLSearchParams({ ...stay, room_id: room.id })}`;
  const quote = await call<{ units: number; lines: { source: string }[] }>(baseUrl, 'GET', categoryQuote, token);
  const sources = new Set(quote.lines.map((line) => line.source));
  if (quote.units !== 30 || sources.size !== 3) throw new Error(`unexpected quote: ${JSON.stringify(quote)}`);
  return { token, categoryQuote: `${baseUrl}${categoryQuote}`, roomQuote: `${baseUrl}${roomQuote}` };
}

/** Runs `task` for 0..count-1 from at most `concurrency` loops at once; the results in index order. */
export async function mapConcurrently<T>(
  count: number,
  concurrency: number,
  task: (index: number) => Promise<T>,
): Promise<T[]> {
  const results = new Array<T>(count);
  let next = 0;
  const loop = async () => {
    for (let index = next++; index < count; index = next++) results[index] = await task(index);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, loop));
  return results;
}

export interface StaffSession {
  id: string;
  email: string;
  token: string;
}

/**
 * `count` active, confirmed members of staff (`role`) of the hotel of the owner `ownerEmail`, each signed in through
 * the API. The first is added through the API (`POST /users` with a password); the others are copies of its row
 * inserted in the database, so the setup costs one bcrypt hash instead of `count` (the sign-ins still compare).
 */
export async function createSignedInStaff(
  baseUrl: string,
  db: Db,
  ownerEmail: string,
  count: number,
  role = 'receptionist',
): Promise<StaffSession[]> {
  const owner = await signIn(baseUrl, ownerEmail);
  const stamp = Date.now();
  const first = await call<{ id: string; hotel_id: string; email: string }>(
    baseUrl,
    'POST',
    `${owner.hotel}/users`,
    owner.token,
    { name: 'Bench staff 0', email: `bench-staff-0-${stamp}@example.test`, role, password: BENCH_PASSWORD },
  );
  const { password_hash } = (await db('users').where({ id: first.id }).first('password_hash')) as {
    password_hash: string;
  };
  const copies = Array.from({ length: count - 1 }, (_, i) => ({
    hotel_id: first.hotel_id,
    name: `Bench staff ${i + 1}`,
    email: `bench-staff-${i + 1}-${stamp}@example.test`,
    password_hash,
    role,
    active: true,
    email_confirmed: true,
  }));
  const inserted = copies.length
    ? ((await db('users').insert(copies).returning(['id', 'email'])) as { id: string; email: string }[])
    : [];
  const accounts = [{ id: first.id, email: first.email }, ...inserted];
  // Sign-ins compare bcrypt hashes on the API's thread pool: a few at a time keeps every one well inside its timeouts.
  return mapConcurrently(accounts.length, 8, async (i) => ({
    ...accounts[i],
    token: (await signIn(baseUrl, accounts[i].email)).token,
  }));
}
