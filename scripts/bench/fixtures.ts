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
