import type { IncomingMessage, Server } from 'node:http';
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import jwt from 'jsonwebtoken';
import type { Notification, PoolClient } from 'pg';
import { WebSocket, WebSocketServer, type RawData } from 'ws';
import type { Db } from '../db/knex';
import { verifyAccessToken, type AccessTokenPayload } from '../http/access-token';
import type { HotelRef } from '../http/route';
import type { Logger } from '../logger';
import { HOTEL_EVENTS_CHANNEL } from './events';

/* ------------------------------------------------------------------------------------------------------------
 * Upgrade routing: one 'upgrade' listener per HTTP server dispatches by path, so each WebSocket endpoint
 * (`/ws` here, `/agents/ws` later) registers itself and every other path is answered 404.
 * ---------------------------------------------------------------------------------------------------------- */

export type UpgradeHandler = (req: IncomingMessage, socket: Duplex, head: Buffer) => void;

export interface UpgradeRoutes {
  add(path: string, handler: UpgradeHandler): void;
  remove(path: string): void;
}

const upgradeRoutesByServer = new WeakMap<Server, UpgradeRoutes>();

/** Answers an upgrade request with a plain HTTP response (JSON `{ error }`) and closes the socket. */
export function refuseUpgrade(socket: Duplex, status: number, message: string, headers: Record<string, string> = {}) {
  if (socket.destroyed) return;
  const body = JSON.stringify({ error: message });
  const head = [
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}`,
    'Connection: close',
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
  ].join('\r\n');
  socket.once('finish', () => socket.destroy());
  socket.end(`${head}\r\n\r\n${body}`);
  // A peer that never reads must not keep the socket open.
  setTimeout(() => socket.destroy(), 5000).unref();
}

/** The upgrade router of `server`, installed on first use. */
export function upgradeRoutes(server: Server): UpgradeRoutes {
  const existing = upgradeRoutesByServer.get(server);
  if (existing) return existing;
  const handlers = new Map<string, UpgradeHandler>();
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    // Until a handler's WebSocket takes the socket over, a reset by the peer must not crash the process.
    socket.on('error', () => socket.destroy());
    const path = (req.url ?? '/').split('?')[0];
    const handler = handlers.get(path);
    if (!handler) {
      refuseUpgrade(socket, 404, 'Не найдено');
      return;
    }
    handler(req, socket, head);
  });
  const routes: UpgradeRoutes = {
    add(path, handler) {
      if (handlers.has(path)) throw new Error(`an upgrade handler for ${path} already exists`);
      handlers.set(path, handler);
    },
    remove(path) {
      handlers.delete(path);
    },
  };
  upgradeRoutesByServer.set(server, routes);
  return routes;
}

/* ------------------------------------------------------------------------------------------------------------
 * The staff realtime hub (`/ws`).
 * ---------------------------------------------------------------------------------------------------------- */

export const REALTIME_PATH = '/ws';
/** Close code sent when the access token used for the handshake expires: reconnect with a fresh one. */
export const CLOSE_TOKEN_EXPIRED = 4001;
/** Close code sent when the server shuts down. */
export const CLOSE_GOING_AWAY = 1001;
const MAX_INCOMING_BYTES = 4 * 1024;
/** A client that lets this much pile up unread is too slow to be useful: it is dropped (and will reconnect). */
const MAX_BUFFERED_BYTES = 1024 * 1024;
const MAX_TIMER_MS = 2 ** 31 - 1;
const CLOSE_GRACE_MS = 2000;

export interface RealtimeHubOptions {
  db: Db;
  jwtSecret: string;
  logger: Logger;
  /** Interval of server pings; a socket that did not answer the previous one is terminated. Default 30 s. */
  heartbeatMs?: number;
  /** How a `?hotel=<slug>` is resolved; defaults to a lookup in the `hotels` table. */
  findHotelBySlug?: (slug: string) => Promise<HotelRef | undefined>;
  /** Reconnect delays of the LISTEN connection: doubling from `min` up to `max` (ms). */
  listenRetryMs?: { min: number; max: number };
}

export interface RealtimeHub {
  attach(server: Server): void;
  close(): Promise<void>;
  connectionCount(): number;
  /** Settles once the LISTEN connection is first established (events published before may not be delivered). */
  ready(): Promise<void>;
}

interface Session {
  hotelId: string;
  userId: string;
  alive: boolean;
  expiryTimer?: NodeJS.Timeout;
}

interface Refusal {
  status: number;
  message: string;
}

function tokenOf(req: IncomingMessage, url: URL): { token?: string; viaProtocol: boolean } {
  const fromQuery = url.searchParams.get('token');
  if (fromQuery) return { token: fromQuery, viaProtocol: false };
  const header = req.headers['sec-websocket-protocol'];
  if (typeof header !== 'string') return { viaProtocol: false };
  const protocols = header.split(',').map((protocol) => protocol.trim());
  const index = protocols.indexOf('bearer');
  const token = index >= 0 ? protocols[index + 1] : undefined;
  return token ? { token, viaProtocol: true } : { viaProtocol: false };
}

function expiresAtMs(token: string): number | undefined {
  const decoded = jwt.decode(token);
  return decoded && typeof decoded === 'object' && typeof decoded.exp === 'number' ? decoded.exp * 1000 : undefined;
}

export function createRealtimeHub(options: RealtimeHubOptions): RealtimeHub {
  const { db, jwtSecret, logger } = options;
  const heartbeatMs = options.heartbeatMs ?? 30_000;
  const retry = options.listenRetryMs ?? { min: 250, max: 30_000 };
  const findHotelBySlug =
    options.findHotelBySlug ??
    (async (slug: string): Promise<HotelRef | undefined> => {
      const row: HotelRef | undefined = await db('hotels').where({ slug }).first('id', 'slug');
      return row;
    });

  const socketsByHotel = new Map<string, Set<WebSocket>>();
  const sessions = new WeakMap<WebSocket, Session>();
  const servers = new Set<Server>();
  let count = 0;
  let closing = false;

  const wss = new WebSocketServer({
    noServer: true,
    clientTracking: false,
    maxPayload: MAX_INCOMING_BYTES,
    perMessageDeflate: false,
    // The only subprotocol is the token carrier; choosing it tells the browser the handshake was understood.
    handleProtocols: (protocols) => (protocols.has('bearer') ? 'bearer' : false),
  });

  /* ---------------------------------------------- handshake ---------------------------------------------- */

  async function authorize(req: IncomingMessage): Promise<Refusal | { session: Session; expiresAt?: number }> {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const { token } = tokenOf(req, url);
    const auth: AccessTokenPayload | undefined = token ? verifyAccessToken(token, jwtSecret) : undefined;
    if (!token || !auth) return { status: 401, message: 'Требуется авторизация' };
    const slug = url.searchParams.get('hotel');
    let hotelId = auth.hotelId;
    if (slug) {
      const hotel = await findHotelBySlug(slug);
      // A hotel that does not exist and another hotel answer the same 403, as on the HTTP routes.
      if (!hotel || (auth.role !== 'super_admin' && hotel.id !== auth.hotelId)) {
        return { status: 403, message: 'Нет доступа к этому отелю' };
      }
      hotelId = hotel.id;
    }
    if (!hotelId) return { status: 400, message: 'Укажите отель: ?hotel=<slug>' };
    return { session: { hotelId, userId: auth.sub, alive: true }, expiresAt: expiresAtMs(token) };
  }

  function handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    if (closing) {
      refuseUpgrade(socket, 503, 'Сервер останавливается', { 'Retry-After': '1' });
      return;
    }
    authorize(req).then(
      (result) => {
        if ('status' in result) {
          logger.debug({ status: result.status }, 'realtime handshake refused');
          refuseUpgrade(socket, result.status, result.message);
          return;
        }
        if (closing) {
          refuseUpgrade(socket, 503, 'Сервер останавливается', { 'Retry-After': '1' });
          return;
        }
        if (socket.destroyed) return;
        wss.handleUpgrade(req, socket, head, (ws) => onConnection(ws, result.session, result.expiresAt));
      },
      (error: unknown) => {
        logger.warn({ err: error }, 'realtime handshake failed');
        refuseUpgrade(socket, 503, 'Сервис временно недоступен', { 'Retry-After': '1' });
      },
    );
  }

  /* ---------------------------------------------- sockets ------------------------------------------------ */

  function send(ws: WebSocket, data: string): void {
    if (ws.readyState !== WebSocket.OPEN) return;
    if (ws.bufferedAmount > MAX_BUFFERED_BYTES) {
      logger.warn({ hotelId: sessions.get(ws)?.hotelId }, 'realtime client too slow; dropped');
      ws.terminate();
      return;
    }
    ws.send(data);
  }

  function onConnection(ws: WebSocket, session: Session, expiresAt: number | undefined): void {
    sessions.set(ws, session);
    let sockets = socketsByHotel.get(session.hotelId);
    if (!sockets) socketsByHotel.set(session.hotelId, (sockets = new Set()));
    sockets.add(ws);
    count++;
    logger.debug({ hotelId: session.hotelId, userId: session.userId }, 'realtime connection opened');

    if (expiresAt !== undefined) {
      session.expiryTimer = setTimeout(
        () => ws.close(CLOSE_TOKEN_EXPIRED, 'token expired'),
        Math.min(MAX_TIMER_MS, Math.max(0, expiresAt - Date.now())),
      );
    }

    ws.on('pong', () => {
      session.alive = true;
    });
    ws.on('message', (data: RawData, isBinary: boolean) => {
      if (isBinary) return;
      let message: unknown;
      try {
        message = JSON.parse(data.toString());
      } catch {
        return;
      }
      if (message && typeof message === 'object' && (message as { type?: unknown }).type === 'ping') {
        send(ws, JSON.stringify({ type: 'pong' }));
      }
    });
    ws.on('error', (error) => logger.warn({ err: error, hotelId: session.hotelId }, 'realtime socket error'));
    ws.on('close', (code: number) => {
      clearTimeout(session.expiryTimer);
      const set = socketsByHotel.get(session.hotelId);
      if (set?.delete(ws)) {
        count--;
        if (set.size === 0) socketsByHotel.delete(session.hotelId);
      }
      logger.debug({ hotelId: session.hotelId, userId: session.userId, code }, 'realtime connection closed');
    });

    send(ws, JSON.stringify({ type: 'connected', payload: { hotel_id: session.hotelId, user_id: session.userId } }));
  }

  const heartbeat = setInterval(() => {
    for (const sockets of socketsByHotel.values()) {
      for (const ws of sockets) {
        const session = sessions.get(ws);
        if (!session || ws.readyState !== WebSocket.OPEN) continue;
        if (!session.alive) {
          logger.debug({ hotelId: session.hotelId, userId: session.userId }, 'realtime client missed a ping');
          ws.terminate();
          continue;
        }
        session.alive = false;
        ws.ping();
      }
    }
  }, heartbeatMs);
  heartbeat.unref();

  /* ------------------------------------------- fan-out (LISTEN) ------------------------------------------ */

  let listener: PoolClient | undefined;
  let retryTimer: NodeJS.Timeout | undefined;
  let retryDelay = retry.min;
  let listening: Promise<void> | undefined;
  let markReady: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => {
    markReady = resolve;
  });

  function deliver(notification: Notification): void {
    if (notification.channel !== HOTEL_EVENTS_CHANNEL || !notification.payload) return;
    let event: { hotelId?: unknown; type?: unknown; payload?: unknown };
    try {
      event = JSON.parse(notification.payload) as typeof event;
    } catch {
      logger.warn('realtime notification is not JSON; ignored');
      return;
    }
    if (typeof event.hotelId !== 'string' || typeof event.type !== 'string') return;
    const sockets = socketsByHotel.get(event.hotelId);
    if (!sockets) return;
    const data = JSON.stringify({ type: event.type, payload: event.payload ?? {} });
    for (const ws of sockets) send(ws, data);
  }

  function scheduleListen(): void {
    if (closing || retryTimer) return;
    const delay = retryDelay;
    retryDelay = Math.min(retry.max, retryDelay * 2);
    retryTimer = setTimeout(() => {
      retryTimer = undefined;
      listening = listen();
    }, delay);
    retryTimer.unref();
  }

  function dropListener(connection: PoolClient, reason: unknown): void {
    if (listener !== connection) return;
    listener = undefined;
    connection.removeListener('notification', deliver);
    // Knex marks a connection that errored as disposed, so the pool discards it instead of reusing it.
    void Promise.resolve(db.client.releaseConnection(connection)).catch(() => undefined);
    if (closing) return;
    logger.warn({ err: reason }, 'realtime LISTEN connection lost; reconnecting');
    scheduleListen();
  }

  async function listen(): Promise<void> {
    let connection: PoolClient | undefined;
    try {
      connection = (await db.client.acquireConnection()) as PoolClient;
      const acquired = connection;
      acquired.on('notification', deliver);
      acquired.once('error', (error: Error) => dropListener(acquired, error));
      acquired.once('end', () => dropListener(acquired, new Error('connection ended')));
      listener = acquired;
      await acquired.query(`LISTEN ${HOTEL_EVENTS_CHANNEL}`);
      if (retryDelay !== retry.min) logger.info('realtime LISTEN connection restored');
      retryDelay = retry.min;
      markReady();
      if (closing) await unlisten();
    } catch (error) {
      if (connection && listener === connection) {
        dropListener(connection, error);
      } else if (!connection) {
        if (!closing) logger.warn({ err: error }, 'realtime LISTEN unavailable; retrying');
        scheduleListen();
      }
    }
  }

  async function unlisten(): Promise<void> {
    const connection = listener;
    if (!connection) return;
    listener = undefined;
    connection.removeListener('notification', deliver);
    await connection.query(`UNLISTEN ${HOTEL_EVENTS_CHANNEL}`).catch(() => undefined);
    await Promise.resolve(db.client.releaseConnection(connection)).catch(() => undefined);
  }

  listening = listen();

  /* ------------------------------------------------ API -------------------------------------------------- */

  return {
    attach(server) {
      if (servers.has(server)) return;
      upgradeRoutes(server).add(REALTIME_PATH, handleUpgrade);
      servers.add(server);
    },

    connectionCount: () => count,

    ready: () => ready,

    async close() {
      if (closing) return;
      closing = true;
      clearInterval(heartbeat);
      clearTimeout(retryTimer);
      retryTimer = undefined;
      const open = [...socketsByHotel.values()].flatMap((sockets) => [...sockets]);
      const allClosed = Promise.all(
        open.map(
          (ws) =>
            new Promise<void>((resolve) => {
              if (ws.readyState === WebSocket.CLOSED) return resolve();
              ws.once('close', () => resolve());
              ws.close(CLOSE_GOING_AWAY, 'server going away');
            }),
        ),
      );
      // Clients normally answer the close frame at once; those that do not are cut off after a short grace.
      let grace: NodeJS.Timeout | undefined;
      await Promise.race([
        allClosed,
        new Promise<void>((resolve) => {
          grace = setTimeout(resolve, CLOSE_GRACE_MS);
        }),
      ]);
      clearTimeout(grace);
      for (const ws of open) if (ws.readyState !== WebSocket.CLOSED) ws.terminate();
      await listening?.catch(() => undefined);
      await unlisten();
      markReady();
      // The route stays registered: later upgrades to /ws are answered 503 while the HTTP server winds down.
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}
