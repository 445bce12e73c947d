import type { IncomingMessage, Server } from 'node:http';
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import jwt from 'jsonwebtoken';
import type { Notification, PoolClient } from 'pg';
import { WebSocket, WebSocketServer, type RawData } from 'ws';
import type { Db } from '../db/knex';
import { verifyAccessToken, type AccessTokenPayload } from '../http/access-token';
import { foreignHotelMessage, mayAccessHotel } from '../http/tenancy';
import type { HotelRef } from '../http/route';
import type { Logger } from '../logger';
import {
  HOTEL_EVENTS_CHANNEL,
  REALTIME_REPLAY_HOURS,
  REALTIME_REPLAY_MAX,
  type HotelEventNotification,
  type StoredHotelEvent,
} from './events';

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
/** Close code sent when the server could not read the events a client missed: reconnect (with `since`) later. */
export const CLOSE_TRY_AGAIN_LATER = 1013;
const MAX_INCOMING_BYTES = 4 * 1024;
/** A client that lets this much pile up unread is too slow to be useful: it is dropped (and will reconnect). */
const MAX_BUFFERED_BYTES = 1024 * 1024;
const MAX_TIMER_MS = 2 ** 31 - 1;
const CLOSE_GRACE_MS = 2000;
/** Live events held for a socket while its replay is read; beyond this the client is told to reload. */
const MAX_PENDING_EVENTS = REALTIME_REPLAY_MAX;
/** Replay queries running at once (at connection and after the LISTEN connection comes back). */
const CATCH_UP_CONCURRENCY = 4;

export interface RealtimeHubOptions {
  db: Db;
  jwtSecret: string;
  logger: Logger;
  /** Interval of server pings; a socket that did not answer the previous one is terminated. Default 30 s. */
  heartbeatMs?: number;
  /** How a `?hotel=<slug>` is resolved (the hotels module's look-up). */
  findHotelBySlug: (slug: string) => Promise<HotelRef | undefined>;
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
  /** `?since=`: the id of the last event the client has, when it reconnects. */
  since?: number;
  /** The id of the last event sent to this socket (or the position it started from): its replay cursor. */
  cursor: number;
  /** While the events it missed are being read, live events wait in `pending`. */
  replaying: boolean;
  pending: StoredHotelEvent[];
  /** More live events arrived during the replay than are held: the last id dropped (the client must reload). */
  overflowedThrough: number;
  /** The LISTEN connection came back during this socket's replay: read once more when it ends. */
  catchUpAgain: boolean;
}

/** What a client with cursor `since` missed, read in one statement (one snapshot). */
interface Backlog {
  /** The hotel's last event id (0 if none is kept). */
  head: number;
  /** The last id the purge removed for this hotel (0 if none). */
  horizon: number;
  events: (StoredHotelEvent & { fresh: boolean })[];
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
  const { findHotelBySlug } = options;

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
      if (!mayAccessHotel(auth, hotel)) return { status: 403, message: foreignHotelMessage };
      hotelId = hotel.id;
    }
    if (!hotelId) return { status: 400, message: 'Укажите отель: ?hotel=<slug>' };
    const sinceParam = url.searchParams.get('since');
    if (sinceParam !== null && !/^\d{1,15}$/.test(sinceParam)) {
      return { status: 400, message: 'since — номер последнего полученного события' };
    }
    return {
      session: {
        hotelId,
        userId: auth.sub,
        alive: true,
        since: sinceParam === null ? undefined : Number(sinceParam),
        cursor: sinceParam === null ? 0 : Number(sinceParam),
        replaying: true,
        pending: [],
        overflowedThrough: 0,
        catchUpAgain: false,
      },
      expiresAt: expiresAtMs(token),
    };
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
        send(ws, JSON.stringify({ type: 'pong', id: session.cursor }));
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

    // `connected` follows once the starting position is known (and the missed events, if any, right after it).
    void catchUp(ws, session, true);
  }

  /* ----------------------------------------- replay (`?since=`) ----------------------------------------- */

  let catchUpsRunning = 0;
  const catchUpQueue: (() => void)[] = [];

  async function limited<T>(work: () => Promise<T>): Promise<T> {
    // A finished query hands its slot straight to the next one waiting.
    if (catchUpsRunning >= CATCH_UP_CONCURRENCY) await new Promise<void>((resolve) => catchUpQueue.push(resolve));
    else catchUpsRunning++;
    try {
      return await work();
    } finally {
      const next = catchUpQueue.shift();
      if (next) next();
      else catchUpsRunning--;
    }
  }

  async function readBacklog(hotelId: string, since: number): Promise<Backlog> {
    const result = await db.raw(
      `SELECT
         (SELECT coalesce(max(id), 0) FROM realtime_events WHERE hotel_id = :hotelId AND id > 0) AS head,
         (SELECT coalesce(max(purged_through), 0) FROM realtime_event_horizons WHERE hotel_id = :hotelId) AS horizon,
         (SELECT coalesce(json_agg(e ORDER BY e.id), CAST('[]' AS json)) FROM (
            SELECT id, type, payload, created_at > now() - make_interval(hours => :hours) AS fresh
              FROM realtime_events
             WHERE hotel_id = :hotelId AND id > :since
             ORDER BY id
             LIMIT :limit
          ) e) AS events`,
      { hotelId, since, hours: REALTIME_REPLAY_HOURS, limit: REALTIME_REPLAY_MAX + 1 },
    );
    const row = (result as { rows: { head: string; horizon: string; events: Backlog['events'] }[] }).rows[0];
    return {
      head: Number(row.head),
      horizon: Number(row.horizon),
      events: row.events.map((event) => ({ ...event, hotelId })),
    };
  }

  function eventMessage(event: StoredHotelEvent): string {
    return JSON.stringify({ id: event.id, type: event.type, payload: event.payload ?? {} });
  }

  /**
   * Brings a socket up to date: at connection from `?since=` (or from the hotel's last event), and again from its
   * cursor after the LISTEN connection was lost. Live events arriving meanwhile are held, then sent after the
   * replayed ones, each id once and in order. More than REALTIME_REPLAY_MAX missed events, or missed events older
   * than the replay window (still kept or already purged), and the client is told to reload (`resync`) instead.
   */
  async function catchUp(ws: WebSocket, session: Session, first: boolean): Promise<void> {
    session.replaying = true;
    session.catchUpAgain = false;
    const from = first ? session.since : session.cursor;
    let backlog: Backlog;
    try {
      backlog = await limited(() => readBacklog(session.hotelId, from ?? Number.MAX_SAFE_INTEGER));
    } catch (error) {
      logger.warn({ err: error, hotelId: session.hotelId }, 'realtime replay unavailable; client asked to retry');
      session.replaying = false;
      session.pending = [];
      if (ws.readyState === WebSocket.OPEN) ws.close(CLOSE_TRY_AGAIN_LATER, 'try again later');
      return;
    }
    if (ws.readyState !== WebSocket.OPEN) return;
    const known = Math.max(backlog.head, backlog.horizon);
    let resync: string | undefined;
    if (from === undefined) {
      session.cursor = backlog.head;
    } else if (from > known) {
      resync = 'unknown_position';
    } else if (from < backlog.horizon || backlog.events.some((event) => !event.fresh)) {
      resync = 'too_old';
    } else if (backlog.events.length > REALTIME_REPLAY_MAX) {
      resync = 'too_far_behind';
    } else {
      session.cursor = from;
    }
    if (resync) session.cursor = known;
    if (first) {
      send(
        ws,
        JSON.stringify({
          type: 'connected',
          id: session.cursor,
          payload: { hotel_id: session.hotelId, user_id: session.userId },
        }),
      );
    }
    if (resync) {
      logger.debug({ hotelId: session.hotelId, from, reason: resync }, 'realtime client must resync');
      send(ws, JSON.stringify({ type: 'resync', id: session.cursor, payload: { reason: resync } }));
    } else if (from !== undefined) {
      for (const event of backlog.events) {
        if (event.id <= session.cursor) continue;
        session.cursor = event.id;
        send(ws, eventMessage(event));
      }
    }
    flushPending(ws, session);
    if (session.catchUpAgain && ws.readyState === WebSocket.OPEN) await catchUp(ws, session, false);
  }

  function flushPending(ws: WebSocket, session: Session): void {
    const pending = session.pending;
    session.pending = [];
    session.replaying = false;
    const overflowedThrough = session.overflowedThrough;
    session.overflowedThrough = 0;
    if (overflowedThrough > session.cursor) {
      session.cursor = overflowedThrough;
      send(ws, JSON.stringify({ type: 'resync', id: session.cursor, payload: { reason: 'too_far_behind' } }));
      return;
    }
    for (const event of pending) {
      if (event.id <= session.cursor) continue;
      session.cursor = event.id;
      send(ws, eventMessage(event));
    }
  }

  /** After the LISTEN connection (re)starts: every socket is replayed what was committed while nobody listened. */
  function catchUpAll(): void {
    for (const sockets of socketsByHotel.values()) {
      for (const ws of sockets) {
        const session = sessions.get(ws);
        if (!session || ws.readyState !== WebSocket.OPEN) continue;
        if (session.replaying) session.catchUpAgain = true;
        else void catchUp(ws, session, false);
      }
    }
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

  /** Sends a live event to the hotel's sockets (held for those being replayed); an id already sent is skipped. */
  function dispatch(event: StoredHotelEvent): void {
    const sockets = socketsByHotel.get(event.hotelId);
    if (!sockets) return;
    let data: string | undefined;
    for (const ws of sockets) {
      const session = sessions.get(ws);
      if (!session) continue;
      if (session.replaying) {
        if (session.overflowedThrough > 0 || session.pending.length >= MAX_PENDING_EVENTS) {
          session.overflowedThrough = event.id;
          session.pending = [];
        } else {
          session.pending.push(event);
        }
        continue;
      }
      if (event.id <= session.cursor) continue;
      session.cursor = event.id;
      send(ws, (data ??= eventMessage(event)));
    }
  }

  /** Notifications are handled one after the other, so a hotel's events keep their order even when one is read. */
  let deliveries: Promise<void> = Promise.resolve();

  function deliver(notification: Notification): void {
    if (notification.channel !== HOTEL_EVENTS_CHANNEL || !notification.payload) return;
    let event: Partial<HotelEventNotification>;
    try {
      event = JSON.parse(notification.payload) as typeof event;
    } catch {
      logger.warn('realtime notification is not JSON; ignored');
      return;
    }
    const { id, hotelId } = event;
    if (typeof id !== 'number' || typeof hotelId !== 'string') return;
    if (typeof event.type === 'string') {
      const complete = { id, hotelId, type: event.type, payload: event.payload ?? {} };
      deliveries = deliveries.then(() => dispatch(complete)).catch(deliveryFailed);
      return;
    }
    // Too large for a notification: only its id came, the event itself is read from the table.
    if (!socketsByHotel.has(hotelId)) return;
    deliveries = deliveries
      .then(async () => {
        try {
          const row = (await db('realtime_events').where({ id, hotel_id: hotelId }).first('type', 'payload')) as
            { type: string; payload: Record<string, unknown> } | undefined;
          if (row) dispatch({ id, hotelId, type: row.type, payload: row.payload });
        } catch (error) {
          // The event cannot be sent in its place: its sockets reconnect and are replayed from their cursors.
          logger.warn({ err: error, hotelId }, 'realtime event could not be read; clients asked to reconnect');
          for (const ws of socketsByHotel.get(hotelId) ?? []) ws.close(CLOSE_TRY_AGAIN_LATER, 'try again later');
        }
      })
      .catch(deliveryFailed);
  }

  function deliveryFailed(error: unknown): void {
    logger.error({ err: error }, 'realtime delivery failed');
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
      // Whatever was committed while nobody listened (before the first LISTEN, or during an outage) is replayed.
      catchUpAll();
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
