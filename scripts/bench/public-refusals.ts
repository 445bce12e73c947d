import { randomBytes, randomInt, randomUUID } from 'node:crypto';
import type { Db } from '../../src/platform/db/knex';
import { call, signIn } from './fixtures';
import { percentile } from './stats';

/** Tries of each refusal, interleaved so that a drift of the machine weighs on every kind alike. */
const TRIES = 300;

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
const randomCode = () => String(randomInt(0, 100_000_000)).padStart(8, '0');

interface Kind {
  name: string;
  expected: number;
  send(): Promise<Response>;
}

/** A room, and a stay checked in to it with its room-service code when `guest` is given. */
async function room(baseUrl: string, token: string, hotel: string, number: string, categoryId: string, guest?: string) {
  const post = <T>(path: string, body: object) => call<T>(baseUrl, 'POST', `${hotel}${path}`, token, body);
  const created = await post<{ id: string; number: string }>('/rooms', { number, category_id: categoryId });
  if (!guest) return { number: created.number, code: undefined };
  const booking = await post<{ id: string }>('/bookings', {
    room_id: created.id,
    check_in: day(-1),
    check_out: day(3),
    guest_last_name: guest,
    guest_first_name: 'Бенч',
  });
  await call(baseUrl, 'PATCH', `${hotel}/bookings/${booking.id}`, token, { status: 'checked_in' });
  const { code } = await call<{ code: string }>(
    baseUrl,
    'GET',
    `${hotel}/room-service/stays/${booking.id}/code`,
    token,
  );
  return { number: created.number, code };
}

/**
 * Public refusals timed one at a time: a guest's wrong room-service proof, the captive portal's wrong guesses and an
 * unknown TV token. Each kind is one answer (403, 403, 401); what the timings may not do is tell the kinds apart. The
 * wrong-guess budgets are emptied between tries (outside the timing), so every try is judged, never throttled.
 */
export async function benchPublicRefusals(baseUrl: string, db: Db, owner: string): Promise<string[]> {
  const { token, hotel } = await signIn(baseUrl, owner);
  const slug = hotel.split('/').pop()!;
  const category = await call<{ id: string }>(baseUrl, 'POST', `${hotel}/room-categories`, token, {
    name: 'Refusals',
    base_price: 3000,
  });
  const occupied = await room(baseUrl, token, hotel, '801', category.id, 'Скамейкин');
  const empty = await room(baseUrl, token, hotel, '802', category.id);
  await call(baseUrl, 'PATCH', `${hotel}/wifi-settings`, token, { enabled: true, auth_method: 'room+lastname' });
  const { portal_secret: secret } = await call<{ portal_secret: string }>(
    baseUrl,
    'POST',
    `${hotel}/wifi-settings/portal-secret`,
    token,
  );

  const order = (roomNumber: string, code: string) =>
    fetch(`${baseUrl}${hotel}/room-service/guest/orders`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-room': roomNumber, 'x-stay-code': code },
      body: JSON.stringify({ items: [{ item_id: randomUUID(), quantity: 1 }] }),
    });
  const portal = (roomNumber: string, lastName: string) =>
    fetch(`${baseUrl}/api/wifi-auth/verify`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${secret}` },
      body: JSON.stringify({ hotel: slug, room: roomNumber, last_name: lastName }),
    });
  const kinds: Kind[] = [
    { name: 'room service, a random code', expected: 403, send: () => order(occupied.number, randomCode()) },
    { name: "room service, another room's code", expected: 403, send: () => order(empty.number, occupied.code!) },
    { name: 'room service, an invented room', expected: 403, send: () => order(`x${randomInt(1e6)}`, randomCode()) },
    { name: 'Wi-Fi, an unknown room', expected: 403, send: () => portal(`x${randomInt(1e6)}`, 'Петров') },
    { name: 'Wi-Fi, an empty room', expected: 403, send: () => portal(empty.number, 'Петров') },
    { name: 'Wi-Fi, occupied, a wrong surname', expected: 403, send: () => portal(occupied.number, 'Петров') },
    {
      name: 'TV poll, an unknown token',
      expected: 401,
      send: () =>
        fetch(`${baseUrl}/tvpms`, { headers: { authorization: `Bearer ${randomBytes(32).toString('hex')}` } }),
    },
  ];

  const latencies = kinds.map(() => [] as number[]);
  for (let round = 0; round < TRIES; round++) {
    for (const [index, kind] of kinds.entries()) {
      const t0 = performance.now();
      const response = await kind.send();
      await response.arrayBuffer();
      latencies[index].push(performance.now() - t0);
      if (response.status !== kind.expected)
        throw new Error(`${kind.name}: ${response.status}, expected ${kind.expected}`);
    }
    await db('rate_limit_counters').where('key', 'like', 'room\\_service.%').orWhere('key', 'like', 'wifi.%').delete();
  }
  return [
    `public refusals: ${TRIES} tries of each kind, one at a time, interleaved (budgets emptied between tries)`,
    ...kinds.map((kind, index) => {
      const sorted = latencies[index].sort((a, b) => a - b);
      const figures = `p50 ${percentile(sorted, 50).toFixed(2)} ms, p90 ${percentile(sorted, 90).toFixed(2)} ms`;
      return `${`${kind.name} (${kind.expected}):`.padEnd(44)} ${figures}`;
    }),
  ];
}
