import { setTimeout as delay } from 'node:timers/promises';
import type { Db } from '../../src/platform/db/knex';
import { spawnEntryPoint, waitForApi } from '../stack/app-processes';
import { freePort } from '../stack/ports';
import { call, signIn } from './fixtures';
import { percentile } from './stats';

const OTHER_CLIENTS = 50;
const BLOCKED_CLIENTS = 20;
/** Each of the other hotel's clients pauses this long on average between requests, as a member of staff would. */
const THINK_MS = 500;
/** What the other hotel's p99 is held to while the lock is held (the `held-lock` gate checks its behaviour). */
const P99_BOUND_MS = 500;

/**
 * The `held-lock` gate's experiment, timed: a transaction holds one hotel's settings row while that hotel's clients
 * keep trying to change its settings and another hotel's 50 clients work as usual (list rooms, change a room's status,
 * read settings, list bookings). The other hotel's latencies, beside the blocked hotel's answers. Against an API
 * process of its own with the default pool and per-hotel limit, as the gate's (the bench's API has raised ones).
 */
export async function benchHeldLock(
  env: NodeJS.ProcessEnv,
  db: Db,
  owners: [string, string],
  durationMs: number,
): Promise<string[]> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const defaults = {
    ...env,
    PORT: String(port),
    DATABASE_POOL_MAX: undefined,
    HOTEL_MAX_CONCURRENT_REQUESTS: undefined,
  };
  const api = spawnEntryPoint('src/main.ts', defaults, 'ignore');
  try {
    await waitForApi(baseUrl, api);
    return await heldLockFigures(baseUrl, db, owners, durationMs);
  } finally {
    await api.stop();
  }
}

async function heldLockFigures(baseUrl: string, db: Db, owners: [string, string], durationMs: number) {
  const [blocked, other] = await Promise.all(owners.map((owner) => signIn(baseUrl, owner)));
  const category = await call<{ id: string }>(baseUrl, 'POST', `${other.hotel}/room-categories`, other.token, {
    name: 'Held lock',
    base_price: 3000,
  });
  const rooms: string[] = [];
  for (let i = 0; i < OTHER_CLIENTS; i++) {
    const room = await call<{ id: string }>(baseUrl, 'POST', `${other.hotel}/rooms`, other.token, {
      number: `${500 + i}`,
      category_id: category.id,
    });
    rooms.push(room.id);
  }
  const blockedSlug = blocked.hotel.split('/').pop()!;
  const holder = await db.transaction();
  await holder.raw('SELECT 1 FROM hotel_settings WHERE hotel_id = (SELECT id FROM hotels WHERE slug = ?) FOR UPDATE', [
    blockedSlug,
  ]);
  const deadline = performance.now() + durationMs;
  const send = async (method: string, path: string, token: string, body?: unknown) => {
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
  };
  const latencies: number[] = [];
  let otherErrors = 0;
  const blockedStatuses: number[] = [];
  try {
    await Promise.all([
      ...rooms.map(async (room, client) => {
        for (let i = 0; performance.now() < deadline; i++) {
          await delay(Math.random() * 2 * THINK_MS);
          const started = performance.now();
          const status = await [
            () => send('GET', `${other.hotel}/rooms`, other.token),
            () =>
              send('PATCH', `${other.hotel}/rooms/${room}/status`, other.token, { status: i % 8 ? 'clean' : 'dirty' }),
            () => send('GET', `${other.hotel}/settings`, other.token),
            () => send('GET', `${other.hotel}/bookings`, other.token),
          ][(client + i) % 4]();
          latencies.push(performance.now() - started);
          if (status < 200 || status >= 300) otherErrors++;
        }
      }),
      ...Array.from({ length: BLOCKED_CLIENTS }, async () => {
        while (performance.now() < deadline)
          blockedStatuses.push(
            await send('PATCH', `${blocked.hotel}/settings`, blocked.token, { auto_checkout: true }),
          );
      }),
    ]);
  } finally {
    await holder.rollback();
  }
  latencies.sort((a, b) => a - b);
  const p99 = percentile(latencies, 99);
  const refused = blockedStatuses.filter((status) => status === 503).length;
  return [
    `one hotel's settings row locked ${(durationMs / 1000).toFixed(0)} s; another hotel's ${OTHER_CLIENTS} clients ` +
      `(${THINK_MS} ms pauses): ${latencies.length} requests, ${otherErrors} errors, ` +
      `p50 ${percentile(latencies, 50).toFixed(1)} ms, p99 ${p99.toFixed(1)} ms ` +
      `(${p99 < P99_BOUND_MS ? 'within' : 'OVER'} the ${P99_BOUND_MS} ms bound)`,
    `  the locked hotel's ${BLOCKED_CLIENTS} clients: ${blockedStatuses.length} settings changes, ${refused} × 503`,
  ];
}
