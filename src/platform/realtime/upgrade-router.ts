import type { IncomingMessage, Server } from 'node:http';
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { NotFoundError, ServiceUnavailableError, type AppError } from '../errors';

/**
 * One 'upgrade' listener per HTTP server dispatches by path, so each WebSocket endpoint (`/ws`, `/agents/ws`)
 * registers itself and every other path is answered 404.
 */
export type UpgradeHandler = (req: IncomingMessage, socket: Duplex, head: Buffer) => void;

export interface UpgradeRoutes {
  add(path: string, handler: UpgradeHandler): void;
  remove(path: string): void;
}

const upgradeRoutesByServer = new WeakMap<Server, UpgradeRoutes>();

/** Answers an upgrade request with a plain HTTP response (the API's problem body) and closes the socket. */
export function refuseUpgrade(socket: Duplex, refusal: AppError) {
  if (socket.destroyed) return;
  const body = JSON.stringify(refusal.toBody());
  const retryAfter = refusal instanceof ServiceUnavailableError ? [`Retry-After: ${refusal.retryAfterSeconds}`] : [];
  const head = [
    `HTTP/1.1 ${refusal.status} ${STATUS_CODES[refusal.status] ?? ''}`,
    'Connection: close',
    'Content-Type: application/problem+json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    ...retryAfter,
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
      refuseUpgrade(socket, new NotFoundError());
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
