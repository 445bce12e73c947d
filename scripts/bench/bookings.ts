import type { Db } from '../../src/platform/db/knex';
import { BENCH_PASSWORD } from './fixtures';
import { formatLoad, runLoad } from './stats';

const ROOMS = 200;

/**
 * A repeatable sequence of integers below `n`, from the high bits of a linear congruential generator (its low bits
 * cycle quickly: rooms and dates drawn from them repeat, and the bench then measures its own collisions).
 */
export function pseudoRandom(seed: number): (n: number) => number {
  let state = seed;
  return (n) => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return Math.floor((state / 2147483648) * n);
  };
}
const DAY_MS = 86_400_000;
export const day = (offset: number) => new Date(Date.now() + offset * DAY_MS).toISOString().slice(0, 10);

async function call<T>(
  baseUrl: string,
  method: string,
  path: string,
  token: string | undefined,
  body?: unknown,
): Promise<T> {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...(token && { authorization: `Bearer ${token}` }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

/** A 200-room hotel (4 categories × 50) through the API, with a year of back-to-back stays written straight to SQL. */
export async function bigHotel(baseUrl: string, db: Db, email: string) {
  const session = await call<{ access_token: string; user: { hotelSlug: string; hotelId: string } }>(
    baseUrl,
    'POST',
    '/api/auth/login',
    undefined,
    { email, password: BENCH_PASSWORD },
  );
  const token = session.access_token;
  const hotel = `/api/hotels/${session.user.hotelSlug}`;
  const rooms: { id: string; category_id: string }[] = [];
  for (let c = 0; c < 4; c++) {
    const category = await call<{ id: string }>(baseUrl, 'POST', `${hotel}/room-categories`, token, {
      name: `Cat ${c}`,
      base_price: 3000 + c * 1000,
    });
    const batch = await Promise.all(
      Array.from({ length: ROOMS / 4 }, (_, i) =>
        call<{ id: string; category_id: string }>(baseUrl, 'POST', `${hotel}/rooms`, token, {
          number: `${c + 1}${String(i + 1).padStart(2, '0')}`,
          category_id: category.id,
          floor: c + 1,
        }),
      ),
    );
    rooms.push(...batch);
  }
  const rows: Record<string, unknown>[] = [];
  const random = pseudoRandom(42);
  for (const room of rooms) {
    for (let offset = random(3); offset < 365;) {
      const nights = 1 + random(5);
      const checkIn = day(offset);
      const checkOut = day(offset + nights);
      rows.push({
        hotel_id: session.user.hotelId,
        room_id: room.id,
        category_id: room.category_id,
        kind: 'nightly',
        check_in: checkIn,
        check_out: checkOut,
        start_at: `${checkIn}T11:00:00Z`,
        end_at: `${checkOut}T09:00:00Z`,
        status: 'confirmed',
        guest_last_name: 'Bench',
        guest_first_name: 'Guest',
        price: nights * 3000,
      });
      offset += nights + random(3);
    }
  }
  for (let i = 0; i < rows.length; i += 1000) await db('bookings').insert(rows.slice(i, i + 1000));
  return { token, hotel, hotelId: session.user.hotelId, slug: session.user.hotelSlug, rooms, seeded: rows.length };
}

/** Availability for 30 nights, alone and while bookings are made (creation itself: bookings-creation.ts). */
export async function benchAvailability(
  baseUrl: string,
  big: Awaited<ReturnType<typeof bigHotel>>,
  durationMs: number,
): Promise<string[]> {
  const { token, hotel, rooms, seeded } = big;
  const lines = [`bookings: ${ROOMS}-room hotel with ${seeded} stays over the next year`];
  const get = (path: string) =>
    fetch(`${baseUrl}${path}`, { headers: { authorization: `Bearer ${token}` } }).then(async (response) => {
      await response.arrayBuffer();
      return response.status === 200;
    });
  const window = `${hotel}/availability?from=${day(100)}&to=${day(130)}`;
  const availability = await runLoad(20, durationMs, () => get(window));
  lines.push(`GET /availability (30 nights, 20 clients):        ${formatLoad(availability)}`);

  const book = bookStay(baseUrl, token, hotel, rooms);
  // Every booking moves the hotel's inventory version: the next reader recomputes the nights (once, for all waiting).
  let writing = true;
  let written = 0;
  const writerRandom = pseudoRandom(11);
  const writer = (async () => {
    while (writing) {
      if ((await book(writerRandom)) === 201) written += 1;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  })();
  const amidWrites = await runLoad(20, durationMs, () => get(window));
  writing = false;
  await writer;
  lines.push(
    `GET /availability, a booking every ~100 ms meanwhile: ${formatLoad(amidWrites)} ` +
      `(${(written / amidWrites.seconds).toFixed(1)} bookings/s)`,
  );

  lines.push(...(await withRestrictions(baseUrl, big, durationMs, get)));
  return lines;
}

/**
 * The same reads once the year holds restrictions on every category (weekend minimum stays, closed arrivals, nights
 * closed to sale), then group blocks too, and the revenue calendar of the whole year: its first answer after a change
 * (counted) and the next.
 */
async function withRestrictions(
  baseUrl: string,
  { token, hotel, rooms }: Awaited<ReturnType<typeof bigHotel>>,
  durationMs: number,
  get: (path: string) => Promise<boolean>,
): Promise<string[]> {
  const categories = [...new Set(rooms.map((room) => room.category_id))];
  const random = pseudoRandom(7);
  const items = categories.flatMap((category_id) => [
    { category_id, from: day(0), to: day(365), weekdays: [5, 6], min_stay_arrival: 2 },
    { category_id, from: day(0), to: day(365), weekdays: [7], closed_to_arrival: true },
    ...Array.from({ length: 20 }, () => {
      const from = random(360);
      return { category_id, from: day(from), to: day(from + random(5)), stop_sell: true };
    }),
  ]);
  const written = await call<{ nights: number }>(baseUrl, 'PUT', `${hotel}/restrictions`, token, { items });
  const lines = [`restrictions: ${items.length} ranges written, ${written.nights} category-nights hold one`];
  const window = `${hotel}/availability?from=${day(100)}&to=${day(130)}`;
  lines.push(
    `GET /availability with them (30 nights, 20 clients): ${formatLoad(await runLoad(20, durationMs, () => get(window)))}`,
  );
  // A definite block per category holding one room each night of the window, where the free rooms allow it.
  let blocks = 0;
  for (const category_id of categories) {
    const response = await fetch(`${baseUrl}${hotel}/blocks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({
        name: 'Bench group',
        status: 'definite',
        allotment: [{ category_id, from: day(100), to: day(129), rooms: 1 }],
      }),
    });
    await response.arrayBuffer();
    if (response.status === 201) blocks += 1;
  }
  lines.push(
    `GET /availability with them and ${blocks} blocks holding a room a night: ` +
      formatLoad(await runLoad(20, durationMs, () => get(window))),
  );
  const year = `${hotel}/availability/calendar?from=${day(0)}&to=${day(366)}`;
  const timed = async () => {
    const started = performance.now();
    if (!(await get(year))) throw new Error(`GET ${year} failed`);
    return (performance.now() - started).toFixed(1);
  };
  // A write moves the inventory version: the next answer is computed afresh.
  await call(baseUrl, 'PUT', `${hotel}/restrictions`, token, { items: [{ ...items[0], min_stay_arrival: 3 }] });
  const first = await timed();
  lines.push(
    `GET /availability/calendar, a year of ${categories.length} categories: ${first} ms after a change, ${await timed()} ms then`,
  );
  return lines;
}

/** A stay past the seeded year in a room drawn at random: 201 made, 409 the room was taken meanwhile. */
export function bookStay(baseUrl: string, token: string, hotel: string, rooms: { id: string }[]) {
  return async (random: (n: number) => number) => {
    const offset = 400 + random(360);
    const response = await fetch(`${baseUrl}${hotel}/bookings`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({
        room_id: rooms[random(rooms.length)].id,
        check_in: day(offset),
        check_out: day(offset + 1 + random(4)),
        guest_last_name: 'Load',
        guest_first_name: 'Test',
        price: 1000,
      }),
    });
    await response.arrayBuffer();
    return response.status;
  };
}
