import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocket, WebSocketServer, type ServerOptions } from 'ws';
import { AppError, ServiceUnavailableError } from '../errors';
import type { Logger } from '../logger';
import { closeSockets } from './close-sockets';
import { refuseUpgrade, upgradeRoutes } from './upgrade-router';

const CLOSE_GRACE_MS = 2000;
const MAX_TIMER_MS = 2 ** 31 - 1;

/** A WebSocket endpoint as the API process serves it: mounted on its HTTP server, closed at shutdown. */
export interface SocketEndpoint {
  attach(server: Server): void;
  close(): Promise<void>;
  /** Its open connections (those that count as online for it). */
  connectionCount(): number;
  /** Settles once what it listens to is established (events published before may not be delivered). */
  ready(): Promise<void>;
}

export interface SocketEndpointOptions<Accepted> {
  path: string;
  /** Starts its log lines and names the 503 answered when `authorize` fails (`<name>_unavailable`). */
  name: string;
  logger: Logger;
  /** A larger incoming message closes the socket (1009). */
  maxPayload: number;
  handleProtocols?: ServerOptions['handleProtocols'];
  /** What the connection is opened with, or the refusal answered instead of the upgrade. */
  authorize(req: IncomingMessage): Promise<Accepted | AppError>;
  onConnection(ws: WebSocket, accepted: Accepted): void;
  /** The code its sockets are closed with at shutdown (default 1001, going away). */
  goingAway?: number;
  /** Protocol pings at this interval; a socket that did not answer the previous one is terminated. */
  pingEveryMs?: number;
  /** A client that lets this much pile up unread is dropped by `send` (it will reconnect). */
  maxBufferedBytes?: number;
  /** What its log lines about one socket carry. */
  describe?(ws: WebSocket): object;
  /** Settles once everything was listening (`ready`). */
  ready(): Promise<void>;
}

/**
 * One WebSocket endpoint's plumbing, shared by the staff hub (`/ws`) and the agent channel (`/agents/ws`): the
 * upgrade route and its authentication hook (refusals as problem bodies, 503 while stopping), the set of open
 * sockets, protocol pings, per-connection deadlines, sends that drop a client too slow to read, and the graceful
 * shutdown (what it owns stopped, sockets closed with `goingAway`, `drained` awaited). The hub adds its protocol.
 */
export interface SocketFoundation extends SocketEndpoint {
  /** The open sockets. */
  readonly sockets: ReadonlySet<WebSocket>;
  /** Sends a text frame to an open socket; one with too much unread is terminated instead. */
  send(ws: WebSocket, data: string): void;
  /** Closes `ws` after `ms` unless the returned function is called first (or it closes before). */
  closeAfter(ws: WebSocket, ms: number, code: number, reason: string): () => void;
  /** Runs `act` every `ms` until the endpoint closes. */
  every(ms: number, act: () => void): void;
  /** `stop` (an unsubscription) is called when the endpoint closes. */
  own(stop: () => void): void;
  /** Closes it: `drained` is awaited once its sockets are closed. */
  close(drained?: () => Promise<unknown>): Promise<void>;
}

export function createSocketEndpoint<Accepted>(options: SocketEndpointOptions<Accepted>): SocketFoundation {
  const { path, name, logger, authorize, onConnection, goingAway = 1001, describe = () => ({}) } = options;
  const sockets = new Set<WebSocket>();
  /** Sockets that did not answer the last ping yet. */
  const silent = new WeakSet<WebSocket>();
  const stops: (() => void)[] = [];
  const servers = new Set<Server>();
  let closing = false;

  const wss = new WebSocketServer({
    noServer: true,
    clientTracking: false,
    maxPayload: options.maxPayload,
    perMessageDeflate: false,
    handleProtocols: options.handleProtocols,
  });

  const shuttingDown = () => new ServiceUnavailableError('shutting_down', 'Сервер останавливается');

  function accept(ws: WebSocket, accepted: Accepted): void {
    sockets.add(ws);
    ws.once('close', () => sockets.delete(ws));
    ws.on('pong', () => silent.delete(ws));
    onConnection(ws, accepted);
  }

  function handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    if (closing) return refuseUpgrade(socket, shuttingDown());
    authorize(req).then(
      (result) => {
        if (result instanceof AppError) {
          logger.debug({ status: result.status }, `${name} handshake refused`);
          return refuseUpgrade(socket, result);
        }
        if (closing) return refuseUpgrade(socket, shuttingDown());
        if (socket.destroyed) return;
        wss.handleUpgrade(req, socket, head, (ws) => accept(ws, result));
      },
      (error: unknown) => {
        // The check itself failed (a database outage): the client tries again later.
        logger.warn({ err: error }, `${name} handshake failed`);
        refuseUpgrade(socket, new ServiceUnavailableError(`${name}_unavailable`, 'Сервис временно недоступен'));
      },
    );
  }

  const every = (ms: number, act: () => void) => {
    const timer = setInterval(act, ms);
    timer.unref();
    stops.push(() => clearInterval(timer));
  };

  if (options.pingEveryMs !== undefined) {
    every(options.pingEveryMs, () => {
      for (const ws of sockets) {
        if (ws.readyState !== WebSocket.OPEN) continue;
        if (silent.has(ws)) {
          logger.debug(describe(ws), `${name} client missed a ping`);
          ws.terminate();
          continue;
        }
        silent.add(ws);
        ws.ping();
      }
    });
  }

  return {
    sockets,

    send(ws, data) {
      if (ws.readyState !== WebSocket.OPEN) return;
      if (options.maxBufferedBytes !== undefined && ws.bufferedAmount > options.maxBufferedBytes) {
        logger.warn(describe(ws), `${name} client too slow; dropped`);
        ws.terminate();
        return;
      }
      ws.send(data);
    },

    closeAfter(ws, ms, code, reason) {
      const timer = setTimeout(() => ws.close(code, reason), Math.min(MAX_TIMER_MS, Math.max(0, ms)));
      const cancel = () => clearTimeout(timer);
      ws.once('close', cancel);
      return cancel;
    },

    every,

    own: (stop) => stops.push(stop),

    attach(server) {
      if (servers.has(server)) return;
      upgradeRoutes(server).add(path, handleUpgrade);
      servers.add(server);
    },

    connectionCount: () => sockets.size,

    ready: () => options.ready(),

    async close(drained) {
      if (closing) return;
      closing = true;
      for (const stop of stops) stop();
      await closeSockets([...sockets], goingAway, 'server going away', CLOSE_GRACE_MS);
      await drained?.();
      // The route stays registered: later upgrades are answered 503 while the HTTP server winds down.
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}
