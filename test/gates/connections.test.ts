import {
  SLOW_ADDRESSES,
  SLOW_CONNECTION_ENV,
  SLOW_CONNECTION_LIMITS,
  SLOW_PER_ADDRESS,
  slowConnectionsWhile,
  type Kind,
} from '../../scripts/bench/slow-connections';
import { createLogger } from '../../src/platform/logger';
import { createHttpServer, type HttpServer } from '../../src/platform/http/server';
import { as, registerHotel } from '../helpers/accounts';
import { createTestApp, type TestApp } from '../helpers/app';
import { reportGate } from '../helpers/gates';

/**
 * 500 slow connections (headers or bodies dribbled a byte at a time) from ten other loopback addresses against the
 * real HTTP server with short limits: a normal client on 127.0.0.1 keeps being served, every slow client is cut at
 * its deadline, and connections beyond the per-address cap are closed at once. The normal client's latency meanwhile
 * is a figure of `npm run bench` (`BENCH=connections`), measured on a quiet stack rather than beside the other suites.
 */

jest.setTimeout(120_000);

const { headersTimeoutMs: HEADERS_TIMEOUT_MS, requestTimeoutMs: REQUEST_TIMEOUT_MS } = SLOW_CONNECTION_LIMITS;
const { keepAliveTimeoutMs: KEEP_ALIVE_TIMEOUT_MS, perAddress: PER_ADDRESS } = SLOW_CONNECTION_LIMITS;
/** How late a cut may come on a loaded machine: Node checks deadlines on a timer, and the event loop may lag. */
const LATE_SLACK_MS = 1500;

let t: TestApp;
let http: HttpServer;
let port: number;

beforeAll(async () => {
  t = createTestApp(SLOW_CONNECTION_ENV);
  http = createHttpServer(t.app, t.config.http, createLogger('silent', 'test'));
  ({ port } = await http.listen(0, '127.0.0.1'));
});

afterAll(async () => {
  await http?.drain(1000);
  await t?.close();
});

describe('slow and idle connections', () => {
  it('are cut at the configured limits while a normal client keeps being served', async () => {
    const owner = await registerHotel(t);
    const roomsUrl = `http://127.0.0.1:${port}/api/hotels/${owner.slug}/rooms`;

    // Per address: the first PER_ADDRESS connections are held (slow headers, slow bodies and a few idle keep-alive
    // ones), the rest must be closed at once.
    const { connections, latencies, failures } = await slowConnectionsWhile(port, roomsUrl, as(owner.accessToken));

    const refused = connections.filter((c) => !c.answered && c.closedAfterMs < HEADERS_TIMEOUT_MS / 2);
    const held = connections.filter((c) => !refused.includes(c));
    const closingTimes = (kind: Kind) =>
      held
        .filter((c) => c.kind === kind)
        .map((c) => c.closedAfterMs)
        .sort((a, b) => a - b);
    const keepAliveCloseMs = KEEP_ALIVE_TIMEOUT_MS + http.server.keepAliveTimeoutBuffer;
    const deadlines: Record<Kind, number> = {
      'slow-headers': HEADERS_TIMEOUT_MS,
      'slow-body': REQUEST_TIMEOUT_MS,
      'idle-keep-alive': keepAliveCloseMs,
    };
    const cutRange = (kind: Kind) => {
      const times = closingTimes(kind);
      return `${kind} ${times.length} cut after ${(times[0] / 1000).toFixed(1)}–${(times.at(-1)! / 1000).toFixed(1)} s`;
    };
    const slowestRefusal = Math.max(...refused.map((c) => c.closedAfterMs));
    reportGate(
      'connections',
      `${connections.length} slow connections from ${SLOW_ADDRESSES.length} addresses (cap ${PER_ADDRESS} each): ` +
        `${refused.length} closed at once (within ${slowestRefusal.toFixed(0)} ms); ` +
        `${(['slow-headers', 'slow-body', 'idle-keep-alive'] as Kind[]).map(cutRange).join(', ')} ` +
        `(limits ${HEADERS_TIMEOUT_MS / 1000} / ${REQUEST_TIMEOUT_MS / 1000} / ${keepAliveCloseMs / 1000} s); ` +
        `normal client ${latencies.length} requests, ${failures.length} failures`,
    );

    expect(failures).toEqual([]);
    expect(latencies.length).toBeGreaterThan(0);
    expect(refused).toHaveLength(SLOW_ADDRESSES.length * (SLOW_PER_ADDRESS - PER_ADDRESS));
    for (const kind of Object.keys(deadlines) as Kind[]) {
      const times = closingTimes(kind);
      expect(times.length).toBeGreaterThan(0);
      // Never before the deadline (allowing the timer's own granularity), never much after it.
      expect(times[0]).toBeGreaterThanOrEqual(deadlines[kind] - 100);
      expect(times.at(-1)).toBeLessThanOrEqual(deadlines[kind] + LATE_SLACK_MS);
    }
    // The idle ones were served before they waited: the keep-alive limit, not an error, closed them.
    expect(held.filter((c) => c.kind === 'idle-keep-alive' && !c.answered)).toEqual([]);
  });
});
