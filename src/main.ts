import { createServer, type ServerResponse } from 'node:http';
import { Connection } from '@temporalio/client';
import { buildApi } from './app';
import { ConfigError, loadConfig, type Config } from './config';
import { createDb } from './platform/db/knex';
import { createPgListener } from './platform/db/pg-listener';
import { createLogger } from './platform/logger';
import { createRealtimeHub } from './platform/realtime/staff-hub';
import { onShutdownSignal } from './platform/shutdown';

function readConfig(): Config {
  try {
    return loadConfig();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
}

async function main(): Promise<void> {
  const config = readConfig();
  const logger = createLogger(config.logLevel, 'api');
  const db = createDb(config.databaseUrl, config.databasePoolMax);
  // Lazy: the API serves requests while Temporal is briefly unavailable; only /ready reports it.
  const temporal = Connection.lazy({ address: config.temporal.address });
  const listener = createPgListener({ connectionString: config.databaseUrl, logger });
  const { app, services, accessGuard } = buildApi({
    config,
    db,
    logger,
    listener,
    readinessChecks: { temporal: () => temporal.workflowService.getSystemInfo({}) },
  });
  const hub = createRealtimeHub({
    db,
    listener,
    accessGuard,
    jwtSecret: config.jwtSecret,
    logger,
    findHotelBySlug: (slug) => services.hotels.findBySlug(slug),
  });
  // Once stopping, every response closes its connection: keep-alive clients cannot hold the server open until the
  // shutdown deadline (which would cut requests in flight), and they learn from the response not to reuse it.
  let draining = false;
  const inFlight = new Set<ServerResponse>();
  const server = createServer((req, res) => {
    if (draining) res.shouldKeepAlive = false;
    inFlight.add(res);
    res.once('close', () => inFlight.delete(res));
    app(req, res);
  });
  server.keepAliveTimeout = 65_000;
  hub.attach(server);
  await new Promise<void>((resolve) => server.listen(config.port, config.host, resolve));
  logger.info({ port: config.port }, 'api listening');

  onShutdownSignal(logger, config.shutdownTimeoutMs, async () => {
    // Stop accepting, let in-flight requests finish (their connections close after the response), then drop idle
    // keep-alive sockets.
    draining = true;
    for (const res of inFlight) if (!res.headersSent) res.shouldKeepAlive = false;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
    const deadline = setTimeout(() => server.closeAllConnections(), config.shutdownTimeoutMs);
    // WebSockets are upgraded connections the server waits for: the hub closes them (1001) and stops its LISTEN.
    await hub.close();
    await closed;
    clearTimeout(deadline);
    accessGuard.close();
    await listener.close();
    await temporal.close();
    await db.destroy();
    logger.info('api stopped');
  });
}

void main();
