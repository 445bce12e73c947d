import type { IncomingMessage } from 'node:http';
import { WebSocket, type RawData } from 'ws';
import type { Db } from '../db/knex';
import { AppError } from '../errors';
import type { PgListener } from '../db/pg-listener';
import type { Logger } from '../logger';
import {
  HOTEL_EVENTS_CHANNEL,
  REALTIME_REPLAY_MAX,
  reaches,
  type EphemeralHotelEventNotification,
  type HotelEventNotification,
  type StoredHotelEvent,
} from './events';
import { createBacklogReader, lastPosition, planReplay, type Backlog } from './replay';
import { createSocketEndpoint, type SocketEndpoint } from './socket-endpoint';
import { chooseBearer, staffHandshake, type StaffHandshake, type StaffHandshakeOptions } from './staff-handshake';

export const REALTIME_PATH = '/ws';
/** Close code sent when the access token used for the handshake expires: reconnect with a fresh one. */
export const CLOSE_TOKEN_EXPIRED = 4001;
/** Close code sent when the account was deactivated, deleted or signed out everywhere: sign in again. */
export const CLOSE_ACCESS_REVOKED = 4003;
/** Close code sent when the server shuts down. */
export const CLOSE_GOING_AWAY = 1001;
/** Close code sent when the server could not read the events a client missed: reconnect (with `since`) later. */
export const CLOSE_TRY_AGAIN_LATER = 1013;
const MAX_INCOMING_BYTES = 4 * 1024;
/** A client that lets this much pile up unread is too slow to be useful: it is dropped (and will reconnect). */
const MAX_BUFFERED_BYTES = 1024 * 1024;
/** Live events held for a socket while its replay is read; beyond this the client is told to reload. */
const MAX_PENDING_EVENTS = REALTIME_REPLAY_MAX;

export interface RealtimeHubOptions extends StaffHandshakeOptions {
  db: Db;
  listener: PgListener;
  logger: Logger;
  /** Interval of server pings; a socket that did not answer the previous one is terminated. Default 30 s. */
  heartbeatMs?: number;
}

/** `ready` settles once the LISTEN connection is first established. */
export type RealtimeHub = SocketEndpoint;

/** An accepted handshake, with the position the socket's stream starts from. */
interface Opening extends StaffHandshake {
  start: number;
}

interface Session extends Opening {
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

function eventMessage(event: StoredHotelEvent): string {
  return JSON.stringify({ id: event.id, type: event.type, payload: event.payload ?? {} });
}

/** The staff realtime channel (`/ws`): a hotel's committed events, in order, replayable after a reconnection. */
export function createRealtimeHub(options: RealtimeHubOptions): RealtimeHub {
  const { db, listener, accessGuard, logger } = options;
  const heartbeatMs = options.heartbeatMs ?? 30_000;
  const readBacklog = createBacklogReader(db);
  const checkHandshake = staffHandshake(options);

  const socketsByHotel = new Map<string, Set<WebSocket>>();
  const socketsByUser = new Map<string, Set<WebSocket>>();
  const sessions = new WeakMap<WebSocket, Session>();

  const endpoint = createSocketEndpoint({
    path: REALTIME_PATH,
    name: 'realtime',
    logger,
    maxPayload: MAX_INCOMING_BYTES,
    handleProtocols: chooseBearer,
    authorize: opening,
    onConnection,
    goingAway: CLOSE_GOING_AWAY,
    pingEveryMs: heartbeatMs,
    maxBufferedBytes: MAX_BUFFERED_BYTES,
    describe: (ws) => ({ hotelId: sessions.get(ws)?.hotelId, userId: sessions.get(ws)?.token.sub }),
    ready: () => listener.ready(),
  });
  const send = endpoint.send;

  /* ---------------------------------------------- sockets ------------------------------------------------ */

  function track<K>(index: Map<K, Set<WebSocket>>, key: K, ws: WebSocket): void {
    let set = index.get(key);
    if (!set) index.set(key, (set = new Set()));
    set.add(ws);
  }

  function untrack<K>(index: Map<K, Set<WebSocket>>, key: K, ws: WebSocket): void {
    const set = index.get(key);
    set?.delete(ws);
    if (set?.size === 0) index.delete(key);
  }

  /**
   * The handshake, and where the stream starts: at `since`, or for a new client at the hotel's last event, read before
   * the socket opens. Every event committed once the client sees its socket open comes after that position, so it is
   * sent, however late the catch-up reads; a client that loads its data after the socket opened misses nothing.
   */
  async function opening(req: IncomingMessage): Promise<AppError | Opening> {
    const handshake = await checkHandshake(req);
    if (handshake instanceof AppError) return handshake;
    const start = handshake.since ?? lastPosition(await readBacklog(handshake.hotelId, Number.MAX_SAFE_INTEGER));
    return { ...handshake, start };
  }

  function onConnection(ws: WebSocket, handshake: Opening): void {
    const { hotelId, token, expiresAt } = handshake;
    const session: Session = {
      ...handshake,
      cursor: handshake.start,
      replaying: true,
      pending: [],
      overflowedThrough: 0,
      catchUpAgain: false,
    };
    sessions.set(ws, session);
    track(socketsByHotel, hotelId, ws);
    track(socketsByUser, token.sub, ws);
    logger.debug({ hotelId, userId: token.sub }, 'realtime connection opened');

    if (expiresAt !== undefined) {
      endpoint.closeAfter(ws, expiresAt - Date.now(), CLOSE_TOKEN_EXPIRED, 'token expired');
    }

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
    ws.on('error', (error) => logger.warn({ err: error, hotelId }, 'realtime socket error'));
    ws.on('close', (code: number) => {
      untrack(socketsByUser, token.sub, ws);
      untrack(socketsByHotel, hotelId, ws);
      logger.debug({ hotelId, userId: token.sub, code }, 'realtime connection closed');
    });

    // `connected` follows once what was committed since the starting position is read (then those events, if any).
    void catchUp(ws, session, true);
  }

  /** The account's access changed: its sockets whose token no longer opens anything are closed. */
  async function recheckUser(userId: string): Promise<void> {
    for (const ws of socketsByUser.get(userId) ?? []) {
      const session = sessions.get(ws);
      if (!session || ws.readyState !== WebSocket.OPEN) continue;
      const verdict = await accessGuard.verdict(session.token).catch(() => 'ok' as const);
      if (verdict !== 'ok') ws.close(CLOSE_ACCESS_REVOKED, 'access revoked');
    }
  }

  endpoint.own(
    accessGuard.onChange((userId) => {
      if (!socketsByUser.has(userId)) return;
      recheckUser(userId).catch((error: unknown) =>
        logger.warn({ err: error, userId }, 'realtime access recheck failed'),
      );
    }),
  );

  /* ----------------------------------------- replay (`?since=`) ----------------------------------------- */

  /**
   * Brings a socket up to date from its cursor: at connection from where its stream starts (what was committed
   * since the handshake read it), and again after the LISTEN connection was lost. Live events arriving meanwhile are
   * held, then sent after the replayed ones, each id once and in order.
   */
  async function catchUp(ws: WebSocket, session: Session, first: boolean): Promise<void> {
    session.replaying = true;
    session.catchUpAgain = false;
    const from = session.cursor;
    let backlog: Backlog;
    try {
      backlog = await readBacklog(session.hotelId, from);
    } catch (error) {
      logger.warn({ err: error, hotelId: session.hotelId }, 'realtime replay unavailable; client asked to retry');
      session.replaying = false;
      session.pending = [];
      if (ws.readyState === WebSocket.OPEN) ws.close(CLOSE_TRY_AGAIN_LATER, 'try again later');
      return;
    }
    if (ws.readyState !== WebSocket.OPEN) return;
    const plan = planReplay(from, backlog);
    session.cursor = plan.cursor;
    if (first) {
      const payload = { hotel_id: session.hotelId, user_id: session.token.sub };
      send(ws, JSON.stringify({ type: 'connected', id: session.cursor, payload }));
    }
    if (plan.resync) {
      logger.debug({ hotelId: session.hotelId, from, reason: plan.resync }, 'realtime client must resync');
      send(ws, JSON.stringify({ type: 'resync', id: session.cursor, payload: { reason: plan.resync } }));
    }
    sendInOrder(ws, session, plan.events);
    flushPending(ws, session);
    if (session.catchUpAgain && ws.readyState === WebSocket.OPEN) await catchUp(ws, session, false);
  }

  /** Sends the events the socket has not had yet, advancing its cursor (past those meant for other users too). */
  function sendInOrder(ws: WebSocket, session: Session, events: StoredHotelEvent[]): void {
    for (const event of events) {
      if (event.id <= session.cursor) continue;
      session.cursor = event.id;
      if (reaches(event, session.token.sub)) send(ws, eventMessage(event));
    }
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
    sendInOrder(ws, session, pending);
  }

  /** After the LISTEN connection (re)starts: every socket is replayed what was committed while nobody listened. */
  function catchUpAll(): void {
    for (const ws of endpoint.sockets) {
      const session = sessions.get(ws);
      if (!session || ws.readyState !== WebSocket.OPEN) continue;
      if (session.replaying) session.catchUpAgain = true;
      else void catchUp(ws, session, false);
    }
  }

  /* ------------------------------------------- fan-out (LISTEN) ------------------------------------------ */

  /** Sends a live event to the hotel's sockets (held for those being replayed); an id already sent is skipped. */
  function dispatch(event: StoredHotelEvent): void {
    let data: string | undefined;
    for (const ws of socketsByHotel.get(event.hotelId) ?? []) {
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
      if (reaches(event, session.token.sub)) send(ws, (data ??= eventMessage(event)));
    }
  }

  /** An ephemeral event goes to the sockets it reaches now, at their position; those still replaying miss it. */
  function dispatchEphemeral(event: EphemeralHotelEventNotification): void {
    for (const ws of socketsByHotel.get(event.hotelId) ?? []) {
      const session = sessions.get(ws);
      if (!session || session.replaying || !reaches(event, session.token.sub)) continue;
      send(ws, JSON.stringify({ id: session.cursor, type: event.type, payload: event.payload ?? {} }));
    }
  }

  /** Notifications are handled one after the other, so a hotel's events keep their order even when one is read. */
  let deliveries: Promise<void> = Promise.resolve();

  function deliveryFailed(error: unknown): void {
    logger.error({ err: error }, 'realtime delivery failed');
  }

  function deliver(payload: string): void {
    let event: Partial<HotelEventNotification>;
    try {
      event = JSON.parse(payload) as typeof event;
    } catch {
      logger.warn('realtime notification is not JSON; ignored');
      return;
    }
    const { id, hotelId } = event;
    if (
      (event as { ephemeral?: unknown }).ephemeral === true &&
      typeof hotelId === 'string' &&
      typeof event.type === 'string'
    ) {
      const ephemeral = event as EphemeralHotelEventNotification;
      deliveries = deliveries.then(() => dispatchEphemeral(ephemeral)).catch(deliveryFailed);
      return;
    }
    if (typeof id !== 'number' || typeof hotelId !== 'string') return;
    if (typeof event.type === 'string') {
      const complete = { id, hotelId, type: event.type, payload: event.payload ?? {}, audience: event.audience };
      deliveries = deliveries.then(() => dispatch(complete)).catch(deliveryFailed);
      return;
    }
    // Too large for a notification: only its id came, the event itself is read from the table.
    if (!socketsByHotel.has(hotelId)) return;
    deliveries = deliveries
      .then(async () => {
        try {
          const row = (await db('realtime_events')
            .where({ id, hotel_id: hotelId })
            .first('type', 'payload', 'audience')) as
            { type: string; payload: Record<string, unknown>; audience: string[] | null } | undefined;
          if (row) dispatch({ id, hotelId, type: row.type, payload: row.payload, audience: row.audience ?? undefined });
        } catch (error) {
          // The event cannot be sent in its place: its sockets reconnect and are replayed from their cursors.
          logger.warn({ err: error, hotelId }, 'realtime event could not be read; clients asked to reconnect');
          for (const ws of socketsByHotel.get(hotelId) ?? []) ws.close(CLOSE_TRY_AGAIN_LATER, 'try again later');
        }
      })
      .catch(deliveryFailed);
  }

  // Whatever was committed while nobody listened (before the first LISTEN, or during an outage) is replayed.
  endpoint.own(listener.subscribe(HOTEL_EVENTS_CHANNEL, { onNotification: deliver, onListening: catchUpAll }));

  return endpoint;
}
