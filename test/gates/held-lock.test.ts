import pg from 'pg';
import { waitForApi } from '../../scripts/stack/app-processes';
import { freePort } from '../../scripts/stack/ports';
import { as, registerHotel, type RegisteredHotel } from '../helpers/accounts';
import { createTestApp, type TestApp } from '../helpers/app';
import { reportGate } from '../helpers/gates';
import { spawnManaged, type ManagedProcess } from '../helpers/processes';
import { readStackInfo, TEST_APP_ENV } from '../helpers/stack-env';
import { pace, until } from '../helpers/wait';

/**
 * A transaction opened directly on the database holds hotel A's settings row for 30 s. Meanwhile hotel A's clients
 * keep trying to change those settings and hotel B's 50 clients work as usual, all over HTTP against the real API
 * process with its default pool and limits. Hotel B must not notice (no error); hotel A is told to come back later
 * (503 with Retry-After), never 500; `/ready` stays 200. How fast hotel B's answers stay meanwhile is a figure of
 * `npm run bench` (`BENCH=held-lock`), measured on a quiet stack rather than beside the other suites.
 */

jest.setTimeout(180_000);

/** How long the lock is held while the load runs: the length of the experiment. */
const HOLD_MS = 30_000;
const OTHER_CLIENTS = 50;
const BLOCKED_CLIENTS = 20;
/** A member of staff does not fire requests back to back: each of hotel B's clients pauses this long on average. */
const OTHER_THINK_MS = 500;

let t: TestApp;
let api: ManagedProcess | undefined;
let apiUrl: string;

interface Outcome {
  status: number;
  retryAfter: string | null;
  /** The problem's `code` of a refusal. */
  code?: string;
}

async function send(method: string, path: string, token: string, body?: unknown): Promise<Outcome> {
  try {
    const response = await fetch(`${apiUrl}${path}`, {
      method,
      headers: { ...as(token), ...(body !== undefined && { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(40_000),
    });
    const text = await response.text();
    return {
      status: response.status,
      retryAfter: response.headers.get('retry-after'),
      code: response.ok ? undefined : (JSON.parse(text) as { code?: string }).code,
    };
  } catch {
    // No answer at all (the client gave up): recorded as status 0.
    return { status: 0, retryAfter: null };
  }
}

/** Runs `step` in a loop from each of `clients` clients until `running()` turns false, collecting every outcome. */
async function clientsLoop(
  clients: number,
  running: () => boolean,
  step: (client: number, i: number) => Promise<Outcome>,
) {
  const outcomes: Outcome[] = [];
  await Promise.all(
    Array.from({ length: clients }, async (_, client) => {
      for (let i = 0; running(); i++) outcomes.push(await step(client, i));
    }),
  );
  return outcomes;
}

async function roomsOf(owner: RegisteredHotel, count: number): Promise<string[]> {
  const category = await t.http
    .post(`/api/hotels/${owner.slug}/room-categories`)
    .set(as(owner.accessToken))
    .send({ name: 'Стандарт', base_price: 3000 })
    .expect(201);
  const rooms: string[] = [];
  for (let i = 0; i < count; i++) {
    const room = await t.http
      .post(`/api/hotels/${owner.slug}/rooms`)
      .set(as(owner.accessToken))
      .send({ number: `${100 + i}`, category_id: category.body.id })
      .expect(201);
    rooms.push(room.body.id as string);
  }
  return rooms;
}

interface HeldLock {
  /** The holding backend, to find the sessions it blocks. */
  pid: number;
  release(): Promise<void>;
}

/** A transaction opened directly on the database that holds `hotelId`'s settings row until released. */
async function holdSettingsRow(hotelId: string): Promise<HeldLock> {
  const holder = new pg.Client({ connectionString: t.config.databaseUrl });
  await holder.connect();
  await holder.query('BEGIN');
  await holder.query('SELECT 1 FROM hotel_settings WHERE hotel_id = $1 FOR UPDATE', [hotelId]);
  const { rows } = await holder.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
  let released: Promise<void> | undefined;
  return {
    pid: rows[0].pid,
    release: () => (released ??= holder.query('ROLLBACK').then(() => holder.end())),
  };
}

beforeAll(async () => {
  t = createTestApp();
  const port = await freePort();
  apiUrl = `http://127.0.0.1:${port}`;
  api = spawnManaged('src/main.ts', {
    ...process.env,
    ...TEST_APP_ENV,
    ...readStackInfo().env,
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'warn',
  });
  await waitForApi(apiUrl, api.process, 60_000).catch((error: Error) => {
    throw new Error(`${error.message}\n${api!.output()}`);
  });
}, 90_000);

afterAll(async () => {
  await api?.stop();
  await t?.close();
});

describe('a lock held on one hotel', () => {
  it("keeps the other hotels' requests fast and answers the blocked hotel 503 with Retry-After", async () => {
    const [blocked, other] = await Promise.all([registerHotel(t), registerHotel(t)]);
    const rooms = await roomsOf(other, OTHER_CLIENTS);

    const lock = await holdSettingsRow(blocked.hotelId);
    let holding = true;
    try {
      const released = pace(HOLD_MS).then(() => {
        holding = false;
        return lock.release();
      });
      const running = () => holding;

      const otherHotel = `/api/hotels/${other.slug}`;
      const otherWork = clientsLoop(OTHER_CLIENTS, running, async (client, i) => {
        await pace(Math.random() * 2 * OTHER_THINK_MS);
        const token = other.accessToken;
        switch (i % 4) {
          case 0:
            return send('GET', `${otherHotel}/rooms`, token);
          case 1:
            return send('PATCH', `${otherHotel}/rooms/${rooms[client]}/status`, token, {
              status: i % 8 === 1 ? 'dirty' : 'clean',
            });
          case 2:
            return send('GET', `${otherHotel}/settings`, token);
          default:
            return send('GET', `${otherHotel}/bookings`, token);
        }
      });
      // Answers that arrive after the lock is released may be 200; those that arrive while it is held must be 503.
      const answeredWhileHeld: Outcome[] = [];
      const blockedWork = clientsLoop(BLOCKED_CLIENTS, running, async (_, i) => {
        const outcome = await send('PATCH', `/api/hotels/${blocked.slug}/settings`, blocked.accessToken, {
          auto_checkout: i % 2 === 0,
        });
        if (holding) answeredWhileHeld.push(outcome);
        return outcome;
      });
      // A load balancer's readiness probe, every half second.
      const readiness = clientsLoop(1, running, async () => {
        await pace(500);
        return send('GET', '/ready', blocked.accessToken);
      });
      const [otherOutcomes, blockedOutcomes, readyOutcomes] = await Promise.all([otherWork, blockedWork, readiness]);
      await released;

      const otherErrors = otherOutcomes.filter((o) => o.status < 200 || o.status >= 300);
      const count = (outcomes: Outcome[], status: number) => outcomes.filter((o) => o.status === status).length;
      const blockedWithoutRetryAfter = blockedOutcomes.filter((o) => o.status === 503 && !o.retryAfter).length;
      const notReady = readyOutcomes.filter((o) => o.status !== 200).length;
      const blockedStatuses = [...new Set(blockedOutcomes.map((o) => o.status))].sort().join(', ');
      const refusalCodes = [...new Set(blockedOutcomes.map((o) => o.code).filter(Boolean))]
        .map((code) => `${blockedOutcomes.filter((o) => o.code === code).length} ${code}`)
        .join(', ');
      reportGate(
        'held-lock',
        `hotel A's settings row locked ${HOLD_MS / 1000} s: hotel B (${OTHER_CLIENTS} clients) ` +
          `${otherOutcomes.length} requests, ${otherErrors.length} errors; hotel A (${BLOCKED_CLIENTS} clients) ${blockedOutcomes.length} requests: ` +
          `${count(blockedOutcomes, 503)} × 503 (${refusalCodes}; ${blockedWithoutRetryAfter} without Retry-After), ` +
          `${count(blockedOutcomes, 500)} × 500, statuses ${blockedStatuses}; /ready ${notReady} of ` +
          `${readyOutcomes.length} not 200`,
      );
      expect(otherErrors).toEqual([]);
      expect(answeredWhileHeld.length).toBeGreaterThan(BLOCKED_CLIENTS);
      expect(answeredWhileHeld.filter((o) => o.status !== 503)).toEqual([]);
      expect(blockedOutcomes.filter((o) => o.status !== 503 && o.status !== 200)).toEqual([]);
      expect(blockedWithoutRetryAfter).toBe(0);
      expect(notReady).toBe(0);
    } finally {
      await lock.release();
    }
  });

  it('answers each wait given up with 503, Retry-After and its own code: lock, statement, pool', async () => {
    const [blocked, other] = await Promise.all([registerHotel(t), registerHotel(t)]);
    const lock = await holdSettingsRow(blocked.hotelId);
    // One connection, taken by a request of the blocked hotel waiting on the lock: the next request finds none.
    const tight = createTestApp({
      DATABASE_POOL_MAX: '1',
      DATABASE_API_LOCK_TIMEOUT_MS: '1500',
      DATABASE_API_ACQUIRE_TIMEOUT_MS: '200',
    });
    // No lock timeout of ours: the statement timeout ends the wait.
    const impatient = createTestApp({ DATABASE_API_LOCK_TIMEOUT_MS: '0', DATABASE_API_STATEMENT_TIMEOUT_MS: '300' });
    const blockedSessions = async () =>
      Number(
        (
          await t.db.raw<{ rows: { count: string }[] }>(
            "SELECT count(*) FROM pg_stat_activity WHERE ? = ANY(pg_blocking_pids(pid)) AND application_name = 'hotel-pms-api'",
            [lock.pid],
          )
        ).rows[0].count,
      );
    const changeSettings = (app: TestApp) =>
      app.http.patch(`/api/hotels/${blocked.slug}/settings`).set(as(blocked.accessToken)).send({ auto_checkout: true });
    try {
      const waiting = changeSettings(tight).then((response) => response);
      await until(async () => (await blockedSessions()) > 0, {
        what: 'the request waiting on the lock',
        timeoutMs: 10_000,
        intervalMs: 20,
      });
      const starved = await tight.http.get(`/api/hotels/${other.slug}/rooms`).set(as(other.accessToken));
      const [lockWait, statementWait] = await Promise.all([waiting, changeSettings(impatient)]);
      const answers = [starved, lockWait, statementWait].map((response) => ({
        status: response.status,
        code: (response.body as { code?: string }).code,
        retryAfter: response.headers['retry-after'],
      }));
      expect(answers).toEqual([
        { status: 503, code: 'database_busy', retryAfter: '1' },
        { status: 503, code: 'lock_timeout', retryAfter: '1' },
        { status: 503, code: 'statement_timeout', retryAfter: '1' },
      ]);
    } finally {
      await lock.release();
      await Promise.all([tight.close(), impatient.close()]);
    }
  });
});
