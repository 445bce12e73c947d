import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import supertest from 'supertest';
import { WebSocket, type ClientOptions, type RawData } from 'ws';
import type { PgListenerOptions } from '../../src/platform/db/pg-listener';
import { createLogger } from '../../src/platform/logger';
import { createRealtimeHub, type RealtimeHub, type RealtimeHubOptions } from '../../src/platform/realtime/staff-hub';
import type { AnyModule, SocketTimings } from '../../src/platform/modules';
import { MODULES } from '../../src/modules/registry';
import { realtimeMessageSchemas } from '../../src/platform/realtime/asyncapi';
import { createTestApp, type TestApp } from './app';

export interface TestServer extends TestApp {
  server: Server;
  hub: RealtimeHub;
  /** `ws://127.0.0.1:<port>/agents/ws` */
  agentsUrl: string;
  /** `http://127.0.0.1:<port>` */
  baseUrl: string;
  /** `ws://127.0.0.1:<port>/ws` */
  wsUrl: string;
}

/**
 * The real application listening on 127.0.0.1 with the realtime hub attached, on the shared test database.
 * `overrides` are environment variables (as for createTestApp); `hubOptions` e.g. a short `heartbeatMs`, or the
 * hub's own pool as `db` (a test holds it to keep the hub's reads waiting).
 * The result is also a TestApp (its `http` speaks to the listening server), so registerHotel/addStaff work with it.
 */
export async function startTestServer(
  overrides: Record<string, string> = {},
  hubOptions: Partial<Pick<RealtimeHubOptions, 'heartbeatMs' | 'db'>> & {
    listenRetryMs?: PgListenerOptions['retryMs'];
    /** The timings of the modules' sockets (the agent channel's). */
    agentHub?: SocketTimings;
    /** The business modules, as the registry would list them (default: the registry's). */
    modules?: readonly AnyModule[];
  } = {},
): Promise<TestServer> {
  const { listenRetryMs, agentHub: timings, modules, ...hubSettings } = hubOptions;
  const t = createTestApp(overrides, { listenerRetryMs: listenRetryMs, modules });
  const hub = createRealtimeHub({
    db: t.db,
    listener: t.listener,
    accessGuard: t.accessGuard,
    jwtSecret: t.config.jwtSecret,
    logger: createLogger(process.env.TEST_LOG_LEVEL ?? 'silent', 'test-realtime'),
    findHotelBySlug: (slug) => t.services.hotels.findBySlug(slug),
    ...hubSettings,
  });
  // The staff channel and every WebSocket endpoint the modules declare (the agent channel...), as main.ts mounts them.
  const endpoints = [hub, ...t.sockets(timings)];
  const server = createServer(t.app);
  for (const endpoint of endpoints) endpoint.attach(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  await hub.ready();
  const { port } = server.address() as AddressInfo;
  const baseUrl = `http://127.0.0.1:${port}`;
  let closed: Promise<void> | undefined;
  return {
    ...t,
    http: supertest(baseUrl),
    server,
    hub,
    baseUrl,
    wsUrl: `ws://127.0.0.1:${port}/ws`,
    agentsUrl: `ws://127.0.0.1:${port}/agents/ws`,
    close() {
      closed ??= (async () => {
        const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeAllConnections();
        await Promise.all(endpoints.map((endpoint) => endpoint.close()));
        await stopped;
        await t.close();
      })();
      return closed;
    },
  };
}

export interface RealtimeMessage {
  type: string;
  payload?: Record<string, unknown>;
}

export interface StaffClient {
  ws: WebSocket;
  /** Every message received so far, in order (JSON-parsed). */
  collected: RealtimeMessage[];
  /** The next message (after those already returned by `next`) matching `predicate`; rejects after `timeoutMs`. */
  next(predicate?: (message: RealtimeMessage) => boolean, timeoutMs?: number): Promise<RealtimeMessage>;
  /** Settles when the socket is closed, with the close code and reason. */
  closed: Promise<{ code: number; reason: string }>;
  send(message: unknown): void;
  close(): Promise<void>;
}

export interface ConnectOptions {
  /** How the token travels: `?token=` (default) or the `['bearer', token]` subprotocol pair. */
  via?: 'query' | 'protocol';
  /** `?hotel=<slug>` */
  hotel?: string;
  /** false: the client does not answer server pings (a dead client, for heartbeat tests). */
  autoPong?: boolean;
}

/** The `/ws` URL and subprotocols for a token, as a browser client would build them. */
export function realtimeAddress(wsUrl: string, token: string | undefined, options: ConnectOptions = {}) {
  const url = new URL(wsUrl);
  if (token && options.via !== 'protocol') url.searchParams.set('token', token);
  if (options.hotel) url.searchParams.set('hotel', options.hotel);
  const protocols = token && options.via === 'protocol' ? ['bearer', token] : undefined;
  return { url: url.toString(), protocols };
}

/**
 * The HTTP status with which the server refuses a handshake (e.g. 401, 403), or 101 if it accepts it
 * (the socket is then closed at once).
 */
export function handshakeStatus(wsUrl: string, token: string | undefined, options: ConnectOptions = {}) {
  const { url, protocols } = realtimeAddress(wsUrl, token, options);
  return upgradeStatus(url, protocols);
}

/** The HTTP status with which a WebSocket endpoint answers an upgrade (101 when it accepts; the socket is then closed). */
export function upgradeStatus(url: string, protocols?: string[], options: ClientOptions = {}) {
  return new Promise<number>((resolve, reject) => {
    const ws = new WebSocket(url, protocols, options);
    ws.on('unexpected-response', (req, res) => {
      resolve(res.statusCode ?? 0);
      res.resume();
      req.destroy();
    });
    ws.on('open', () => {
      resolve(101);
      ws.terminate();
    });
    ws.on('error', (error) => reject(error));
  });
}

const documented = realtimeMessageSchemas(MODULES.flatMap((module) => module.events ?? []));

/**
 * Why a received message is not what `/api/asyncapi.json` documents, or undefined. Tests publish their own
 * `test_*` events directly, outside the catalogue.
 */
function undocumented(message: RealtimeMessage): string | undefined {
  if (message.type.startsWith('test_')) return undefined;
  const schema = documented.get(message.type);
  if (!schema) return `undocumented realtime message type ${message.type}`;
  // JSON carries instants as ISO strings: they are read as the dates the document names.
  const { error } = schema.validate(message, { presence: 'required' });
  return (
    error && `realtime ${message.type} does not match its documentation: ${error.message} in ${JSON.stringify(message)}`
  );
}

/** Opens a staff realtime connection; resolves once the socket is open (the `connected` message follows). */
export async function connectStaff(wsUrl: string, token: string, options: ConnectOptions = {}): Promise<StaffClient> {
  const { url, protocols } = realtimeAddress(wsUrl, token, options);
  const clientOptions: ClientOptions = { autoPong: options.autoPong ?? true };
  const ws = new WebSocket(url, protocols, clientOptions);
  const collected: RealtimeMessage[] = [];
  /** Messages that do not match the AsyncAPI document (the modules' event declarations): each fails the test. */
  const violations: string[] = [];
  const waiters = new Set<() => void>();
  let cursor = 0;

  ws.on('message', (data: RawData) => {
    const message = JSON.parse(data.toString()) as RealtimeMessage;
    collected.push(message);
    const problem = undocumented(message);
    if (problem) violations.push(problem);
    for (const wake of waiters) wake();
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) => {
    ws.on('close', (code, reason) => {
      resolve({ code, reason: reason.toString() });
      for (const wake of waiters) wake();
    });
  });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('unexpected-response', (_req, res) => reject(new Error(`handshake refused: ${res.statusCode}`)));
    ws.once('error', reject);
  });
  ws.on('error', () => undefined);

  const next: StaffClient['next'] = (predicate = () => true, timeoutMs = 5000) =>
    new Promise((resolve, reject) => {
      const check = () => {
        for (let i = cursor; i < collected.length; i++) {
          if (predicate(collected[i])) {
            cursor = i + 1;
            done();
            if (violations.length > 0) reject(new Error(violations.join('\n')));
            else resolve(collected[i]);
            return;
          }
        }
        if (ws.readyState === WebSocket.CLOSED) {
          done();
          reject(new Error(`socket closed while waiting; received ${JSON.stringify(collected)}`));
        }
      };
      const timer = setTimeout(() => {
        done();
        reject(new Error(`no matching message in ${timeoutMs} ms; received ${JSON.stringify(collected)}`));
      }, timeoutMs);
      const done = () => {
        clearTimeout(timer);
        waiters.delete(check);
      };
      waiters.add(check);
      check();
    });

  return {
    ws,
    collected,
    next,
    closed,
    send: (message) => ws.send(typeof message === 'string' ? message : JSON.stringify(message)),
    async close() {
      if (ws.readyState !== WebSocket.CLOSED) {
        ws.close();
        const timer = setTimeout(() => ws.terminate(), 1000);
        await closed;
        clearTimeout(timer);
      }
      if (violations.length > 0) throw new Error(violations.join('\n'));
    },
  };
}
