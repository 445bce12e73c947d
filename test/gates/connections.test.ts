import net from 'node:net';
import { percentile } from '../../scripts/bench/stats';
import { createLogger } from '../../src/platform/logger';
import { createHttpServer, type HttpServer } from '../../src/platform/http/server';
import { as, registerHotel } from '../helpers/accounts';
import { createTestApp, type TestApp } from '../helpers/app';
import { reportGate } from '../helpers/gates';

/**
 * 500 slow connections (headers or bodies dribbled a byte at a time) from ten other loopback addresses against the
 * real HTTP server with short limits: a normal client on 127.0.0.1 keeps its latency, every slow client is cut at
 * its deadline, and connections beyond the per-address cap are closed at once.
 */

jest.setTimeout(120_000);

const HEADERS_TIMEOUT_MS = 2000;
const REQUEST_TIMEOUT_MS = 4000;
const KEEP_ALIVE_TIMEOUT_MS = 1500;
const PER_ADDRESS = 40;
const SLOW_ADDRESSES = Array.from({ length: 10 }, (_, i) => `127.0.0.${i + 2}`);
const SLOW_PER_ADDRESS = 50;
const DRIBBLE_EVERY_MS = 1000;
const NORMAL_P99_BOUND_MS = 200;
/** How late a cut may come on a loaded machine: Node checks deadlines on a timer, and the event loop may lag. */
const LATE_SLACK_MS = 1500;

let t: TestApp;
let http: HttpServer;
let port: number;

type Kind = 'slow-headers' | 'slow-body' | 'idle-keep-alive';

interface SlowConnection {
  kind: Kind;
  /** Milliseconds from connect to the server closing the connection. */
  closedAfterMs: number;
  /** The server answered before closing (the 408 of a timeout, or the response before the keep-alive wait). */
  answered: boolean;
}

/** Opens a connection from `localAddress` and feeds it the way `kind` does, until the server closes it. */
function slowConnection(kind: Kind, localAddress: string): Promise<SlowConnection> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port, localAddress });
    let connectedAt = 0;
    let answered = false;
    let timer: NodeJS.Timeout | undefined;
    socket.on('error', () => undefined);
    socket.on('data', () => {
      answered = true;
    });
    socket.once('connect', () => {
      connectedAt = performance.now();
      if (kind === 'slow-headers') {
        socket.write('GET /health HTTP/1.1\r\nHost: api.test\r\n');
        let n = 0;
        timer = setInterval(() => socket.write(`X-Slow-${n++}: a\r\n`), DRIBBLE_EVERY_MS);
      } else if (kind === 'slow-body') {
        socket.write(
          'POST /api/auth/login HTTP/1.1\r\nHost: api.test\r\nContent-Type: application/json\r\n' +
            'Content-Length: 100000\r\n\r\n{',
        );
        timer = setInterval(() => socket.write(' '), DRIBBLE_EVERY_MS);
      } else {
        socket.write('GET /health HTTP/1.1\r\nHost: api.test\r\n\r\n');
      }
    });
    socket.once('close', () => {
      clearInterval(timer);
      resolve({ kind, closedAfterMs: performance.now() - connectedAt, answered });
    });
  });
}

beforeAll(async () => {
  t = createTestApp({
    HTTP_HEADERS_TIMEOUT_MS: String(HEADERS_TIMEOUT_MS),
    HTTP_REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS),
    HTTP_KEEP_ALIVE_TIMEOUT_MS: String(KEEP_ALIVE_TIMEOUT_MS),
    MAX_CONNECTIONS_PER_ADDRESS: String(PER_ADDRESS),
  });
  http = createHttpServer(t.app, t.config.http, createLogger('silent', 'test'));
  ({ port } = await http.listen(0, '127.0.0.1'));
});

afterAll(async () => {
  await http?.drain(1000);
  await t?.close();
});

describe('slow and idle connections', () => {
  it('are cut at the configured limits while a normal client keeps its latency', async () => {
    const owner = await registerHotel(t);
    const roomsUrl = `http://127.0.0.1:${port}/api/hotels/${owner.slug}/rooms`;

    // Per address: the first PER_ADDRESS connections are held (slow headers, slow bodies and a few idle keep-alive
    // ones), the rest must be closed at once.
    const kinds: Kind[] = ['slow-headers', 'slow-body'];
    let slowOpen = true;
    const slow = Promise.all(
      SLOW_ADDRESSES.flatMap((address) =>
        Array.from({ length: SLOW_PER_ADDRESS }, (_, i) =>
          slowConnection(i < 2 ? 'idle-keep-alive' : kinds[i % 2], address),
        ),
      ),
    ).finally(() => {
      slowOpen = false;
    });

    const latencies: number[] = [];
    const failures: string[] = [];
    const normalClient = async () => {
      while (slowOpen) {
        const started = performance.now();
        const response = await fetch(roomsUrl, { headers: as(owner.accessToken), signal: AbortSignal.timeout(10_000) });
        await response.arrayBuffer();
        latencies.push(performance.now() - started);
        if (response.status !== 200) failures.push(`GET rooms: ${response.status}`);
      }
    };
    const [connections] = await Promise.all([slow, normalClient(), normalClient()]);

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
    latencies.sort((a, b) => a - b);
    const p50 = percentile(latencies, 50);
    const p99 = percentile(latencies, 99);
    const slowestRefusal = Math.max(...refused.map((c) => c.closedAfterMs));
    reportGate(
      'connections',
      `${connections.length} slow connections from ${SLOW_ADDRESSES.length} addresses (cap ${PER_ADDRESS} each): ` +
        `${refused.length} closed at once (within ${slowestRefusal.toFixed(0)} ms); ` +
        `${(['slow-headers', 'slow-body', 'idle-keep-alive'] as Kind[]).map(cutRange).join(', ')} ` +
        `(limits ${HEADERS_TIMEOUT_MS / 1000} / ${REQUEST_TIMEOUT_MS / 1000} / ${keepAliveCloseMs / 1000} s); ` +
        `normal client ${latencies.length} requests, p50 ${p50.toFixed(0)} ms, p99 ${p99.toFixed(0)} ms, ` +
        `${failures.length} failures`,
    );

    expect(failures).toEqual([]);
    expect(p99).toBeLessThan(NORMAL_P99_BOUND_MS);
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
