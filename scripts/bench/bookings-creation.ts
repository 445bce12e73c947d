import type { Db } from '../../src/platform/db/knex';
import { spawnEntryPoint, waitForApi, waitForWorker, type AppProcess } from '../stack/app-processes';
import { freePort } from '../stack/ports';
import { bookStay, pseudoRandom, type bigHotel } from './bookings';
import { signIn } from './fixtures';
import { withCpuShares, type CpuRoles } from './cpu-shares';
import { neighbourRooms, neighbourWork, THINK_MS } from './neighbour';
import { runLoad } from './stats';

const CLIENTS = 50;
const NEIGHBOUR_CLIENTS = 20;

/** What the bench needs to run an API and a worker of their own beside the stack. */
export interface CreationRig {
  env: NodeJS.ProcessEnv;
  temporalAddress: string;
  db: Db;
}

/**
 * Booking creation by one hotel's 50 clients against an API with the default pool and per-hotel bulkhead (as
 * deployed), first alone, then with the worker (workflows and the outbox relay) and the Temporal server busy beside
 * it on the same cores, as production would run them on machines of their own. Meanwhile another hotel's staff work
 * as usual: their latencies show the flood leaves them their share. Checks by SQL that bookings and their room segments agree.
 */
export async function benchCreation(
  rig: CreationRig,
  big: Awaited<ReturnType<typeof bigHotel>>,
  neighbourEmail: string,
  durationMs: number,
): Promise<string[]> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  // The deployed defaults, unless a sizing experiment sets BENCH_DATABASE_POOL_MAX / BENCH_HOTEL_MAX_CONCURRENT_REQUESTS.
  const env = {
    ...rig.env,
    PORT: String(port),
    DATABASE_POOL_MAX: process.env.BENCH_DATABASE_POOL_MAX,
    HOTEL_MAX_CONCURRENT_REQUESTS: process.env.BENCH_HOTEL_MAX_CONCURRENT_REQUESTS,
  };
  const api = spawnEntryPoint('src/main.ts', env, 'ignore');
  let worker: AppProcess | undefined;
  try {
    await waitForApi(baseUrl, api);
    const neighbour = await signIn(baseUrl, neighbourEmail);
    const rooms = await neighbourRooms(baseUrl, neighbour, NEIGHBOUR_CLIENTS);
    const roles: CpuRoles = {
      api: api.child.pid,
      postgresPort: Number(new URL(String(rig.env.DATABASE_URL)).port),
      temporalPort: Number(rig.temporalAddress.split(':').pop()),
    };
    const flood = async (seed: number) => {
      const book = bookStay(baseUrl, big.token, big.hotel, big.rooms);
      const random = pseudoRandom(seed);
      let created = 0;
      let conflicts = 0;
      const pagesBefore = await pagesTouched(rig.db);
      const [[creation, other], cpu] = await withCpuShares(roles, () =>
        Promise.all([
          runLoad(CLIENTS, durationMs, async () => {
            const status = await book(random);
            if (status === 201) created += 1;
            if (status === 409) conflicts += 1;
            return status === 201 || status === 409;
          }),
          neighbourWork(baseUrl, neighbour, rooms, performance.now() + durationMs),
        ]),
      );
      const pages = ((await pagesTouched(rig.db)) - pagesBefore) / (created + conflicts);
      return [
        `${(created / creation.seconds).toFixed(1)} bookings/s, ` +
          `${((created + conflicts) / creation.seconds).toFixed(1)} answers/s ` +
          `(${created} created, ${conflicts} refused 409, ${creation.errors} other), ` +
          `p50 ${creation.p50.toFixed(1)} ms, p99 ${creation.p99.toFixed(1)} ms`,
        `  another hotel's ${NEIGHBOUR_CLIENTS} clients meanwhile (${THINK_MS} ms pauses): ` +
          `${other.latencies.length} requests, ${other.errors} errors, ` +
          `p50 ${other.p50.toFixed(1)} ms, p99 ${other.p99.toFixed(1)} ms`,
        `  ${cpu}; PostgreSQL pages touched per answer (all work of the run): ${pages.toFixed(0)}`,
      ];
    };
    const sizing = `pool ${env.DATABASE_POOL_MAX ?? 'default'}, bulkhead ${env.HOTEL_MAX_CONCURRENT_REQUESTS ?? 'default'}`;
    const lines = [`POST /bookings (${CLIENTS} clients, ${sizing}), API alone: ${(await flood(7)).join('\n')}`];
    worker = spawnEntryPoint('workers/main.ts', env, 'ignore');
    roles.worker = worker.child.pid;
    await waitForWorker(rig.temporalAddress, 'hotel', worker);
    lines.push(`POST /bookings (${CLIENTS} clients), worker running beside: ${(await flood(13)).join('\n')}`);
    lines.push(`bookings disagreeing with their segments (SQL):    ${await disagreements(rig.db)}`);
    return lines;
  } finally {
    await worker?.stop();
    await api.stop();
  }
}

/**
 * Pages the database has read or found in its cache so far: a cost per booking that other work on the machine does
 * not skew, unlike rates (this includes the worker's and the other hotel's work during the run).
 */
async function pagesTouched(db: Db): Promise<number> {
  const { rows } = await db.raw(
    'SELECT (blks_hit + blks_read)::bigint AS pages FROM pg_stat_database WHERE datname = current_database()',
  );
  return Number((rows as { pages: string }[])[0].pages);
}

/**
 * Bookings and their segments disagreeing (their exclusion constraint makes two active segments of a room overlapping
 * impossible, so what can go wrong is between the two tables): a booking holding a room without an active segment in
 * its room_id, or whose segments do not span exactly its stay, or with an inactive segment.
 */
async function disagreements(db: Db): Promise<number> {
  const { rows } = await db.raw(
    `SELECT count(*)::int AS n FROM bookings b
       LEFT JOIN LATERAL (
         SELECT min(lower(s.during)) AS first, max(upper(s.during)) AS last,
                bool_and(s.active) AS all_active, bool_or(s.active AND s.room_id = b.room_id) AS in_room
         FROM booking_rooms s WHERE s.booking_id = b.id) s ON true
     WHERE b.status IN ('inquiry', 'confirmed', 'checked_in')
       AND (s.in_room IS NOT TRUE OR s.all_active IS NOT TRUE
            OR s.first IS DISTINCT FROM b.start_at OR s.last IS DISTINCT FROM b.end_at)`,
  );
  return (rows as { n: number }[])[0].n;
}
