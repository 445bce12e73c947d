import { buildApi } from './app';
import { ConfigError, loadConfig, type Config } from './config';
import { createProcessDb } from './platform/db/knex';
import { createPgListener } from './platform/db/pg-listener';
import { outboxReadiness } from './platform/http/health';
import { createHttpServer } from './platform/http/server';
import { createLogger } from './platform/logger';
import { installTracing } from './platform/observability/tracing';
import { createRealtimeHub } from './platform/realtime/staff-hub';
import { onShutdownSignal } from './platform/shutdown';
import { lazyTemporalConnection } from './platform/temporal/client';

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
  const logger = createLogger(config.logLevel, 'api', { format: config.logFormat });
  const tracing = config.tracing.enabled ? installTracing(config.tracing.serviceName ?? 'hotel-pms-api') : undefined;
  const db = createProcessDb(config, 'api', logger);
  // Lazy: the API serves requests while Temporal is briefly unavailable; /ready reports it. One connection for the
  // process: the readiness check's and the modules' queries of running workflows (the timeline's upcoming part).
  const temporal = lazyTemporalConnection(config.temporal);
  const listener = createPgListener({ connectionString: config.databaseUrl, logger });
  let stopping = false;
  const api = buildApi({
    config,
    db,
    logger,
    listener,
    temporal,
    readinessChecks: {
      temporal: () => temporal.workflowService.getSystemInfo({}),
      outbox: outboxReadiness(db, config.outboxMaxLagSeconds),
    },
    stopping: () => stopping,
  });
  const { app, services, accessGuard, metrics, sockets } = api;
  const hub = createRealtimeHub({
    db,
    listener,
    accessGuard,
    jwtSecret: config.jwtSecret,
    logger,
    findHotelBySlug: (slug) => services.hotels.findBySlug(slug),
  });
  metrics.countRealtimeConnections(() => hub.connectionCount());
  // The staff channel is the platform's; every other WebSocket endpoint is a module's, declared in the registry.
  const endpoints = [hub, ...sockets()];
  const http = createHttpServer(app, config.http, logger);
  for (const endpoint of endpoints) endpoint.attach(http.server);
  await http.listen(config.port, config.host);
  logger.info({ port: config.port }, 'api listening');

  onShutdownSignal(logger, config.shutdownDelayMs + config.shutdownTimeoutMs, async () => {
    // Not ready from now on, while still serving: a load balancer that polls /ready sees it and stops sending here.
    stopping = true;
    await new Promise((resolve) => setTimeout(resolve, config.shutdownDelayMs));
    // Stop accepting and let in-flight requests finish (their connections close after the response). WebSockets are
    // upgraded connections the server waits for: the endpoints close them (1001) meanwhile.
    const drained = http.drain(config.shutdownTimeoutMs);
    await Promise.all(endpoints.map((endpoint) => endpoint.close()));
    await drained;
    accessGuard.close();
    await listener.close();
    // The API first: it waits for reads in flight (the timeline's) that use the Temporal connection, closed after.
    await api.close();
    await temporal.close();
    await db.destroy();
    await tracing?.shutdown();
    logger.info('api stopped');
  });
}

void main();
