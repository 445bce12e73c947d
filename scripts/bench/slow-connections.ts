import net from 'node:net';

/** The short limits the `connections` gate and its bench give the server, as environment variables. */
export const SLOW_CONNECTION_LIMITS = {
  headersTimeoutMs: 2000,
  requestTimeoutMs: 4000,
  keepAliveTimeoutMs: 1500,
  perAddress: 40,
};

export const SLOW_CONNECTION_ENV = {
  HTTP_HEADERS_TIMEOUT_MS: String(SLOW_CONNECTION_LIMITS.headersTimeoutMs),
  HTTP_REQUEST_TIMEOUT_MS: String(SLOW_CONNECTION_LIMITS.requestTimeoutMs),
  HTTP_KEEP_ALIVE_TIMEOUT_MS: String(SLOW_CONNECTION_LIMITS.keepAliveTimeoutMs),
  MAX_CONNECTIONS_PER_ADDRESS: String(SLOW_CONNECTION_LIMITS.perAddress),
};

export const SLOW_ADDRESSES = Array.from({ length: 10 }, (_, i) => `127.0.0.${i + 2}`);
export const SLOW_PER_ADDRESS = 50;
const DRIBBLE_EVERY_MS = 1000;

export type Kind = 'slow-headers' | 'slow-body' | 'idle-keep-alive';

export interface SlowConnection {
  kind: Kind;
  /** Milliseconds from connect to the server closing the connection. */
  closedAfterMs: number;
  /** The server answered before closing (the 408 of a timeout, or the response before the keep-alive wait). */
  answered: boolean;
}

/** Opens a connection from `localAddress` and feeds it the way `kind` does, until the server closes it. */
function slowConnection(port: number, kind: Kind, localAddress: string): Promise<SlowConnection> {
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

export interface SlowConnectionsRun {
  connections: SlowConnection[];
  /** The normal clients' request latencies, in ms, sorted. */
  latencies: number[];
  failures: string[];
}

/**
 * 500 slow connections (headers or bodies dribbled a byte at a time, a few idle keep-alive ones) from ten other
 * loopback addresses against the server on `port`, while two normal clients on 127.0.0.1 GET `url` with `headers`
 * until the last slow connection is closed.
 */
export async function slowConnectionsWhile(
  port: number,
  url: string,
  headers: Record<string, string>,
): Promise<SlowConnectionsRun> {
  const kinds: Kind[] = ['slow-headers', 'slow-body'];
  let slowOpen = true;
  const slow = Promise.all(
    SLOW_ADDRESSES.flatMap((address) =>
      Array.from({ length: SLOW_PER_ADDRESS }, (_, i) =>
        slowConnection(port, i < 2 ? 'idle-keep-alive' : kinds[i % 2], address),
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
      const response = await fetch(url, { headers, signal: AbortSignal.timeout(10_000) });
      await response.arrayBuffer();
      latencies.push(performance.now() - started);
      if (response.status !== 200) failures.push(`GET ${new URL(url).pathname}: ${response.status}`);
    }
  };
  const [connections] = await Promise.all([slow, normalClient(), normalClient()]);
  return { connections, latencies: latencies.sort((a, b) => a - b), failures };
}
