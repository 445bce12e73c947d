import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { PlatformConfig } from '../config';
import type { Logger } from '../logger';

export interface HttpServer {
  server: Server;
  listen(port: number, host: string): Promise<AddressInfo>;
  /**
   * Stops accepting, lets in-flight requests finish, drops idle keep-alive sockets and cuts whatever is still open
   * after `timeoutMs`; resolves once the server has closed. Upgraded sockets (WebSockets) count as open: their owner
   * closes them meanwhile.
   */
  drain(timeoutMs: number): Promise<void>;
}

type RequestListener = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * Node checks the header and request deadlines of open connections on a timer; checking four times per shortest
 * deadline cuts a slow client at most a quarter late.
 */
function checkingIntervalMs(limits: PlatformConfig['http']): number {
  return Math.max(50, Math.floor(Math.min(limits.headersTimeoutMs, limits.requestTimeoutMs) / 4));
}

/**
 * Counts open connections per source address and closes a new one at once beyond `max` (0: no cap), so one address
 * cannot hold every socket with slow or idle connections. Behind a proxy every connection comes from the proxy.
 */
function capConnectionsPerAddress(server: Server, max: number, logger: Logger): void {
  if (max === 0) return;
  const open = new Map<string, number>();
  const refusing = new Set<string>();
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? '';
    const count = open.get(address) ?? 0;
    if (count >= max) {
      socket.destroy();
      if (!refusing.has(address)) logger.warn({ address, max }, 'connections per address capped: refusing new ones');
      refusing.add(address);
      return;
    }
    open.set(address, count + 1);
    socket.once('close', () => {
      const left = open.get(address)! - 1;
      if (left === 0) open.delete(address);
      else open.set(address, left);
      refusing.delete(address);
    });
  });
}

/** The API's HTTP server with its connection limits, and its graceful drain for shutdown. */
export function createHttpServer(app: RequestListener, limits: PlatformConfig['http'], logger: Logger): HttpServer {
  // Once draining, every response closes its connection: keep-alive clients cannot hold the server open until the
  // shutdown deadline (which would cut requests in flight), and they learn from the response not to reuse it.
  let draining = false;
  const inFlight = new Set<ServerResponse>();
  const server = createServer(
    {
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      connectionsCheckingInterval: checkingIntervalMs(limits),
    },
    (req, res) => {
      if (draining) res.shouldKeepAlive = false;
      inFlight.add(res);
      res.once('close', () => inFlight.delete(res));
      app(req, res);
    },
  );
  server.keepAliveTimeout = limits.keepAliveTimeoutMs;
  capConnectionsPerAddress(server, limits.maxConnectionsPerAddress, logger);

  return {
    server,
    listen: (port, host) =>
      new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => {
          server.off('error', reject);
          resolve(server.address() as AddressInfo);
        });
      }),
    async drain(timeoutMs) {
      draining = true;
      for (const res of inFlight) if (!res.headersSent) res.shouldKeepAlive = false;
      // The signal may be handled before connections already in the kernel's accept queue are taken, and closing the
      // listening socket would reset them: stop accepting only once the events already polled are handled.
      await new Promise((resolve) => setImmediate(resolve));
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      const deadline = setTimeout(() => server.closeAllConnections(), timeoutMs);
      await closed;
      clearTimeout(deadline);
    },
  };
}
