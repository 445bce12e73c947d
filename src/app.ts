import { randomUUID } from 'node:crypto';
import cookieParser from 'cookie-parser';
import cors from 'cors';
import { corsPolicy } from './platform/http/cors-policy';
import type { Connection } from '@temporalio/client';
import express, { type Express } from 'express';
import helmet from 'helmet';
import { pinoHttp } from 'pino-http';
import type { PlatformConfig } from './platform/config';
import type { Db } from './platform/db/knex';
import type { PgListener } from './platform/db/pg-listener';
import { createAccessGuard, type AccessGuard } from './platform/http/access-guard';
import { errorHandler, NotFoundError } from './platform/errors';
import { docsRouter } from './platform/http/docs';
import { healthRouter, type ReadinessChecks } from './platform/http/health';
import { createHotelBulkhead } from './platform/http/hotel-bulkhead';
import { mountRoutes } from './platform/http/mount';
import { buildOpenApiDocument } from './platform/http/openapi';
import { buildAsyncApiDocument } from './platform/realtime/asyncapi';
import { createLocalRateLimiter, createRateLimiter } from './platform/http/rate-limit';
import type { RouteDefinition } from './platform/http/route';
import { loggedRequest, type Logger } from './platform/logger';
import { credentialHeaderNames } from './platform/http/credential-headers';
import { traceRequests } from './platform/observability/http-tracing';
import { createApiMetrics, type ApiMetrics } from './platform/observability/metrics';
import { metricsRouter } from './platform/observability/metrics-route';
import { runWithRequestBindings } from './platform/observability/request-context';
import { MODULES, type Services } from './modules/registry';
import { buildModules, type AnyModule, type SocketTimings } from './platform/modules';
import type { SocketEndpoint } from './platform/realtime/socket-endpoint';
import { lazyTemporalConnection } from './platform/temporal/client';
import { createWorkflowQueries } from './platform/temporal/workflow-queries';

export interface AppDependencies {
  config: PlatformConfig;
  db: Db;
  logger: Logger;
  /** The process's LISTEN connection (access revocations reach the access guard through it). */
  listener: PgListener;
  /**
   * The process's Temporal connection (main.ts's, its readiness check's), which the modules' queries of running
   * workflows share; when not given, one is made (lazy) from the configuration and closed with the API.
   */
  temporal?: Connection;
  readinessChecks?: ReadinessChecks;
  /** True once the process is shutting down: `/ready` answers 503. */
  stopping?: () => boolean;
  /** The business modules: the registry's list (a test may add one, as the registry would). */
  modules?: readonly AnyModule[];
}

/** The HTTP application and what the realtime hub (and the route-generated gates) share with it. */
export interface Api {
  app: Express;
  services: Services;
  routes: RouteDefinition[];
  accessGuard: AccessGuard;
  metrics: ApiMetrics;
  /** The WebSocket endpoints the modules declare (`sockets`), built: the listening process mounts them. */
  sockets(timings?: SocketTimings): SocketEndpoint[];
  /** Settles the workflows' queries in flight (and closes the Temporal connection it made): at shutdown. */
  close(): Promise<void>;
}

const REQUEST_ID = /^[\w-]{1,100}$/;
/** Probes and scrapes, every few seconds: their lines would drown the requests' own. */
const UNLOGGED_PATHS = new Set(['/health', '/ready', '/metrics']);

/** The Express application without a listening socket: main.ts listens, tests call it directly. */
export function buildApi(deps: AppDependencies): Api {
  const { config, db, logger, listener, readinessChecks = {} } = deps;
  const temporal = deps.temporal ?? lazyTemporalConnection(config.temporal);
  const workflows = createWorkflowQueries(temporal, config.temporal.namespace);
  const modules = buildModules(deps.modules ?? MODULES, { db, config, listener, workflows });
  const services = modules.services as Services;
  const accessGuard = createAccessGuard({ listener, load: (userId) => services.auth.accessOf(userId) });
  const routes = modules.routes();
  const credentialHeaders = credentialHeaderNames(routes);
  const metrics = createApiMetrics(db);
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', config.trustProxy);
  app.use(
    pinoHttp({
      logger,
      genReqId: (req, res) => {
        const incoming = req.headers['x-request-id'];
        const id = typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
        res.setHeader('X-Request-Id', id);
        return id;
      },
      serializers: { req: (req: Parameters<typeof loggedRequest>[0]) => loggedRequest(req, credentialHeaders) },
      customLogLevel: (_req, res, error) => (error || res.statusCode >= 500 ? 'error' : 'info'),
      autoLogging: { ignore: (req) => UNLOGGED_PATHS.has(req.url?.split('?')[0] ?? '') },
    }),
  );
  app.use((req, _res, next) => runWithRequestBindings({ reqId: String(req.id) }, next));
  if (config.tracing.enabled) app.use(traceRequests);
  app.use(metrics.timeRequests);
  app.use(helmet());
  app.use(cors(corsPolicy(config.appUrl, modules.hotelOrigins())));
  // A module's public routes may declare a smaller body limit than the platform's (413 above it).
  for (const { prefix, limit } of modules.bodyLimits()) app.use(prefix, express.json({ limit }));
  app.use(express.json({ limit: config.bodyLimit }));
  app.use(cookieParser());
  app.use(healthRouter({ database: () => db.raw('select 1'), ...readinessChecks }, deps.stopping));
  app.use(metricsRouter(metrics.registry, config.metrics.token));
  const title = 'Hotel PMS API';
  const version = '0.1.0';
  app.use(
    docsRouter({
      openApi: buildOpenApiDocument(
        routes,
        {
          title,
          version,
          description:
            'Multi-tenant hotel property-management backend. Hotel routes live under `/api/hotels/{slug}`; ' +
            'send the access token as `Authorization: Bearer <token>`. Every refusal is an RFC 9457 problem ' +
            '(`application/problem+json`, component `Problem`): a stable `code`, its `type` `/api/problems/<code>`, ' +
            'the message in `detail` and `error`, `details` on validation failures (400) and `errors` on refused ' +
            'business rules (422). The realtime channel `/ws` is described by `/api/asyncapi.json`.',
          license: { name: 'MIT' },
        },
        config.baseUrl,
      ),
      asyncApi: buildAsyncApiDocument(modules.events(), {
        title: `${title}: staff realtime`,
        version,
        serverUrl: config.baseUrl,
      }),
    }),
  );
  const api = express.Router();
  mountRoutes(api, routes, {
    jwtSecret: config.jwtSecret,
    accessGuard,
    rateLimiter: createRateLimiter(db, config.rateLimit),
    localRateLimiter: createLocalRateLimiter({
      quota: config.rateLimit.maxPerIp,
      windowSeconds: config.rateLimit.windowSeconds,
    }),
    hotelBulkhead: createHotelBulkhead(config.hotelBulkhead),
    publicBulkhead: createHotelBulkhead({
      ...config.hotelBulkhead,
      maxConcurrent: config.hotelBulkhead.publicMaxConcurrent,
    }),
    db,
    findHotelBySlug: (slug) => services.hotels.findBySlug(slug),
  });
  app.use(api);
  app.use(() => {
    throw new NotFoundError('Маршрут не найден');
  });
  app.use(errorHandler);
  const sockets = (timings: SocketTimings = {}) => modules.sockets({ logger, timings });
  async function close() {
    await workflows.settle();
    if (!deps.temporal) await temporal.close();
  }
  return { app, services, routes, accessGuard, metrics, sockets, close };
}
