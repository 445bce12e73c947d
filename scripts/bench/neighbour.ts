import { setTimeout as delay } from 'node:timers/promises';
import { call } from './fixtures';
import { percentile } from './stats';

/** Each of the neighbour's clients pauses this long on average between requests, as a member of staff would. */
export const THINK_MS = 500;

/** A request of the bench's API: its status, 0 when the connection failed. */
export async function send(baseUrl: string, method: string, path: string, token: string, body?: unknown) {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body !== undefined && { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  }).catch(() => undefined);
  await response?.arrayBuffer();
  return response?.status ?? 0;
}

/** A hotel going about its day beside another's trouble: one room per client, set up through the API. */
export async function neighbourRooms(
  baseUrl: string,
  other: { token: string; hotel: string },
  clients: number,
): Promise<string[]> {
  const category = await call<{ id: string }>(baseUrl, 'POST', `${other.hotel}/room-categories`, other.token, {
    name: 'Neighbour',
    base_price: 3000,
  });
  const rooms: string[] = [];
  for (let i = 0; i < clients; i++) {
    const room = await call<{ id: string }>(baseUrl, 'POST', `${other.hotel}/rooms`, other.token, {
      number: `${500 + i}`,
      category_id: category.id,
    });
    rooms.push(room.id);
  }
  return rooms;
}

/**
 * One client per room until `deadline`, each pausing about {@link THINK_MS} between requests: list rooms, change its
 * room's status, read settings, list bookings. Every request's latency, and how many were not answered 2xx.
 */
export async function neighbourWork(
  baseUrl: string,
  other: { token: string; hotel: string },
  rooms: string[],
  deadline: number,
) {
  const latencies: number[] = [];
  let errors = 0;
  await Promise.all(
    rooms.map(async (room, client) => {
      for (let i = 0; performance.now() < deadline; i++) {
        await delay(Math.random() * 2 * THINK_MS);
        const started = performance.now();
        const status = await [
          () => send(baseUrl, 'GET', `${other.hotel}/rooms`, other.token),
          () =>
            send(baseUrl, 'PATCH', `${other.hotel}/rooms/${room}/status`, other.token, {
              status: i % 8 ? 'clean' : 'dirty',
            }),
          () => send(baseUrl, 'GET', `${other.hotel}/settings`, other.token),
          () => send(baseUrl, 'GET', `${other.hotel}/bookings`, other.token),
        ][(client + i) % 4]();
        latencies.push(performance.now() - started);
        if (status < 200 || status >= 300) errors++;
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  return { latencies, errors, p50: percentile(latencies, 50), p99: percentile(latencies, 99) };
}
