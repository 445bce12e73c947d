import type { Db } from '../../src/platform/db/knex';
import { spawnEntryPoint, waitForApi } from '../stack/app-processes';
import { freePort } from '../stack/ports';
import { signIn } from './fixtures';
import { neighbourRooms, neighbourWork, send, THINK_MS } from './neighbour';

const OTHER_CLIENTS = 50;
const BLOCKED_CLIENTS = 20;
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
  const rooms = await neighbourRooms(baseUrl, other, OTHER_CLIENTS);
  const blockedSlug = blocked.hotel.split('/').pop()!;
  const holder = await db.transaction();
  await holder.raw('SELECT 1 FROM hotel_settings WHERE hotel_id = (SELECT id FROM hotels WHERE slug = ?) FOR UPDATE', [
    blockedSlug,
  ]);
  const deadline = performance.now() + durationMs;
  const blockedStatuses: number[] = [];
  let neighbour: Awaited<ReturnType<typeof neighbourWork>>;
  try {
    [neighbour] = await Promise.all([
      neighbourWork(baseUrl, other, rooms, deadline),
      ...Array.from({ length: BLOCKED_CLIENTS }, async () => {
        while (performance.now() < deadline)
          blockedStatuses.push(
            await send(baseUrl, 'PATCH', `${blocked.hotel}/settings`, blocked.token, { auto_checkout: true }),
          );
      }),
    ]);
  } finally {
    await holder.rollback();
  }
  const { latencies, errors, p50, p99 } = neighbour;
  const refused = blockedStatuses.filter((status) => status === 503).length;
  return [
    `one hotel's settings row locked ${(durationMs / 1000).toFixed(0)} s; another hotel's ${OTHER_CLIENTS} clients ` +
      `(${THINK_MS} ms pauses): ${latencies.length} requests, ${errors} errors, ` +
      `p50 ${p50.toFixed(1)} ms, p99 ${p99.toFixed(1)} ms ` +
      `(${p99 < P99_BOUND_MS ? 'within' : 'OVER'} the ${P99_BOUND_MS} ms bound)`,
    `  the locked hotel's ${BLOCKED_CLIENTS} clients: ${blockedStatuses.length} settings changes, ${refused} × 503`,
  ];
}
