import Joi from 'joi';

/**
 * How long one role's work may wait, in milliseconds: a statement, a lock, a transaction left idle (PostgreSQL ends
 * the session), and a request for a free pool connection. A wait that ends this way fails and can be retried.
 */
export interface DbLimits {
  statementTimeoutMs: number;
  lockTimeoutMs: number;
  idleInTransactionTimeoutMs: number;
  acquireTimeoutMs: number;
}

/** What every module may read besides its own section: the environment, public addresses, keys and shared limits. */
export interface SharedSettings {
  env: 'development' | 'test' | 'production';
  jwtSecret: string;
  baseUrl: string;
  appUrl: string;
  /** The public address of uploaded files. */
  cdnUrl: string;
  rateLimit: { windowSeconds: number; maxPerAccount: number; maxPerIp: number };
  storage: { endpoint: string; region: string; bucket: string; accessKey: string; secretKey: string };
  /** AES-256-GCM keys by id; `currentKeyId` encrypts, every key decrypts (so keys can rotate). */
  encryption: { keys: Record<string, Buffer>; currentKeyId: string };
  /** Development only: hotels may configure loopback/private/link-local outbound addresses (e.g. a local relay). */
  allowPrivateOutbound: boolean;
}

/** The names of `SharedSettings`, which a module receives (a name left out fails the type check). */
export const SHARED_SETTINGS = [
  'env',
  'jwtSecret',
  'baseUrl',
  'appUrl',
  'cdnUrl',
  'rateLimit',
  'storage',
  'encryption',
  'allowPrivateOutbound',
] as const satisfies readonly (keyof SharedSettings)[];
type AllNamed<T extends never> = T;
export type SharedSettingsNamed = AllNamed<Exclude<keyof SharedSettings, (typeof SHARED_SETTINGS)[number]>>;

/**
 * What the platform owns and reads itself (database, Temporal, HTTP, logging, mail transport, storage, keys...).
 * Each business area declares its own section in its module (`config` of `defineModule`); src/config.ts assembles
 * them with this one, and a module receives its section and the `SharedSettings` below, nothing else.
 */
export interface PlatformConfig extends SharedSettings {
  port: number;
  host: string;
  logLevel: string;
  /** `pretty` for a person at a terminal (`npm run dev`; needs the pino-pretty dev dependency), `json` elsewhere. */
  logFormat: 'json' | 'pretty';
  databaseUrl: string;
  /**
   * Connections of this process's pool. The default 10 is sized for a 2-core database machine (about 5 per core; see
   * docs/operations.md, Timeouts and limits): past the cores, more transactions at once only queue inside PostgreSQL.
   */
  databasePoolMax: number;
  databaseLimits: { api: DbLimits; worker: DbLimits };
  /**
   * At most `maxConcurrent` staff requests of one hotel in their handlers at once, per process, and beside them at
   * most `publicMaxConcurrent` of its public routes (the widget): guests never take the desk's places (hotel-bulkhead.ts).
   */
  hotelBulkhead: { maxConcurrent: number; publicMaxConcurrent: number; queueTimeoutMs: number };
  /** Limits of the API's HTTP server (see platform/http/server.ts); `maxConnectionsPerAddress` 0 means no cap. */
  http: {
    headersTimeoutMs: number;
    requestTimeoutMs: number;
    keepAliveTimeoutMs: number;
    maxConnectionsPerAddress: number;
  };
  temporal: { address: string; namespace: string; taskQueue: string };
  /** The worker's share of Temporal's work: its task slots, pollers and workflow cache (see docs/operations.md). */
  worker: TemporalWorkerSizing;
  /** `/ready` refuses once the oldest undelivered outbox message is older than this. */
  outboxMaxLagSeconds: number;
  /** Calls to Temporal one worker's outbox relay keeps in flight. */
  outboxRelayConcurrency: number;
  smtpUrl: string;
  mailFrom: string;
  trustProxy: boolean;
  bodyLimit: string;
  shutdownTimeoutMs: number;
  /** After a shutdown signal, `/ready` answers 503 this long before the API stops accepting connections. */
  shutdownDelayMs: number;
  /** `token`: `/metrics` wants it as a bearer; `workerAddress`: where the worker serves its Prometheus metrics. */
  metrics: { token?: string; workerAddress?: string };
  /** On when an OTLP endpoint is configured (the exporter reads the standard `OTEL_EXPORTER_OTLP_*` variables). */
  tracing: { enabled: boolean; serviceName?: string };
}

/** How much Temporal work one worker process takes at once (the SDK's worker options of the same meaning). */
export interface TemporalWorkerSizing {
  /** Workflow tasks (activations) in progress at once; at most `cachedWorkflows`. */
  workflowTaskSlots: number;
  /** Activities running at once (mostly waiting on the database, SMTP and outside services). */
  activitySlots: number;
  /** Workflows kept in memory between their tasks (each costs memory; a miss replays the history); unset: the SDK's. */
  cachedWorkflows?: number;
  /** Long polls for workflow tasks at once, normal and sticky queue together. */
  workflowPollers: number;
  /** Long polls for activity tasks at once. */
  activityPollers: number;
  /** The share of the workflow pollers that poll the normal queue (new workflows, cache misses) rather than the sticky one. */
  nonStickyPollRatio: number;
  /** A task for a cached workflow waits this long on this worker's sticky queue before any worker may take it. */
  stickyTimeoutMs: number;
}

type DbRoleName = 'API' | 'WORKER';

/** `DATABASE_<ROLE>_..._MS` variables; 0 for a session timeout leaves the server's own setting. */
function databaseLimitsSchema(
  role: DbRoleName,
  defaults: { statement: number; lock: number; idleInTransaction: number; acquire: number },
) {
  const timeout = (defaultMs: number) => Joi.number().integer().min(0).default(defaultMs);
  return {
    [`DATABASE_${role}_STATEMENT_TIMEOUT_MS`]: timeout(defaults.statement),
    [`DATABASE_${role}_LOCK_TIMEOUT_MS`]: timeout(defaults.lock),
    [`DATABASE_${role}_IDLE_IN_TRANSACTION_TIMEOUT_MS`]: timeout(defaults.idleInTransaction),
    [`DATABASE_${role}_ACQUIRE_TIMEOUT_MS`]: Joi.number().integer().min(100).default(defaults.acquire),
  };
}

function databaseLimits(value: Record<string, number>, role: DbRoleName): DbLimits {
  return {
    statementTimeoutMs: value[`DATABASE_${role}_STATEMENT_TIMEOUT_MS`],
    lockTimeoutMs: value[`DATABASE_${role}_LOCK_TIMEOUT_MS`],
    idleInTransactionTimeoutMs: value[`DATABASE_${role}_IDLE_IN_TRANSACTION_TIMEOUT_MS`],
    acquireTimeoutMs: value[`DATABASE_${role}_ACQUIRE_TIMEOUT_MS`],
  };
}

function hotelBulkhead(value: EnvValues): PlatformConfig['hotelBulkhead'] {
  // About half the pool for a hotel's staff: a hotel whose requests all wait on a lock leaves the rest to the others.
  const maxConcurrent = value.HOTEL_MAX_CONCURRENT_REQUESTS ?? Math.max(1, Math.floor(value.DATABASE_POOL_MAX / 2));
  // Its guests get half of that again, so a hotel at its worst still leaves a quarter of the pool to the others.
  return {
    maxConcurrent,
    publicMaxConcurrent: Math.max(1, Math.floor(maxConcurrent / 2)),
    queueTimeoutMs: value.HOTEL_QUEUE_TIMEOUT_MS,
  };
}

/** The platform's environment variables; the modules' sections are added to it (src/config.ts). */
export const platformSchema = Joi.object({
  NODE_ENV: Joi.string().valid('development', 'test', 'production').default('development'),
  PORT: Joi.number().port().default(3000),
  HOST: Joi.string().default('0.0.0.0'),
  LOG_LEVEL: Joi.string().valid('fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent').default('info'),
  LOG_FORMAT: Joi.string().valid('json', 'pretty').default('json'),
  DATABASE_URL: Joi.string()
    .uri({ scheme: ['postgres', 'postgresql'] })
    .required(),
  DATABASE_POOL_MAX: Joi.number().integer().min(1).max(200).default(10),
  ...databaseLimitsSchema('API', { statement: 5000, lock: 2000, idleInTransaction: 10_000, acquire: 2000 }),
  ...databaseLimitsSchema('WORKER', { statement: 60_000, lock: 10_000, idleInTransaction: 60_000, acquire: 30_000 }),
  HOTEL_MAX_CONCURRENT_REQUESTS: Joi.number().integer().min(1),
  HOTEL_QUEUE_TIMEOUT_MS: Joi.number().integer().min(0).default(10000),
  HTTP_HEADERS_TIMEOUT_MS: Joi.number().integer().min(100).default(10_000),
  HTTP_REQUEST_TIMEOUT_MS: Joi.number().integer().min(Joi.ref('HTTP_HEADERS_TIMEOUT_MS')).default(60_000),
  HTTP_KEEP_ALIVE_TIMEOUT_MS: Joi.number().integer().min(100).default(65_000),
  MAX_CONNECTIONS_PER_ADDRESS: Joi.number().integer().min(0).default(1000),
  TEMPORAL_ADDRESS: Joi.string()
    .pattern(/^[\w.-]+:\d+$/)
    .default('localhost:7233'),
  TEMPORAL_NAMESPACE: Joi.string().default('default'),
  TEMPORAL_TASK_QUEUE: Joi.string().default('hotel'),
  // The SDK's defaults, measured by BENCH=steady on 2 cores (docs/operations.md, Worker sizing): more pollers on the
  // normal queue halved a flooding hotel's first-task waits but let its tasks crowd the server, and another hotel's.
  WORKER_WORKFLOW_TASK_SLOTS: Joi.number().integer().min(2).max(1000).default(40),
  WORKER_ACTIVITY_SLOTS: Joi.number().integer().min(1).max(1000).default(100),
  // Unset: the SDK sizes the cache from the worker's heap.
  WORKER_CACHED_WORKFLOWS: Joi.number().integer().min(2).max(100_000),
  WORKER_WORKFLOW_POLLERS: Joi.number().integer().min(2).max(100).default(10),
  WORKER_ACTIVITY_POLLERS: Joi.number().integer().min(1).max(100).default(10),
  WORKER_NON_STICKY_POLL_RATIO: Joi.number().greater(0).max(1).default(0.2),
  WORKER_STICKY_TIMEOUT_MS: Joi.number().integer().min(100).max(60_000).default(10_000),
  OUTBOX_RELAY_CONCURRENCY: Joi.number().integer().min(1).max(500).default(50),
  OUTBOX_MAX_LAG_SECONDS: Joi.number().integer().min(1).default(300),
  JWT_SECRET: Joi.string().min(32).required(),
  BASE_URL: Joi.string().uri({ scheme: ['http', 'https'] }),
  APP_URL: Joi.string()
    .uri({ scheme: ['http', 'https'] })
    .default('http://localhost:5173'),
  SMTP_URL: Joi.string()
    .uri({ scheme: ['smtp', 'smtps'] })
    .required(),
  MAIL_FROM: Joi.string().default('Hotel PMS <no-reply@hotel-pms.local>'),
  TRUST_PROXY: Joi.boolean().default(false),
  BODY_LIMIT: Joi.string()
    .pattern(/^\d+(b|kb|mb)$/)
    .default('100kb'),
  SHUTDOWN_TIMEOUT_MS: Joi.number().integer().min(0).default(10000),
  SHUTDOWN_DELAY_MS: Joi.number().integer().min(0).default(0),
  METRICS_TOKEN: Joi.string().min(16),
  WORKER_METRICS_ADDRESS: Joi.string().pattern(/^[\w.-]+:\d+$/, 'host:port'),
  OTEL_EXPORTER_OTLP_ENDPOINT: Joi.string().uri({ scheme: ['http', 'https'] }),
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: Joi.string().uri({ scheme: ['http', 'https'] }),
  OTEL_SERVICE_NAME: Joi.string(),
  RATE_LIMIT_WINDOW_SECONDS: Joi.number().integer().min(1).default(900),
  RATE_LIMIT_MAX_PER_ACCOUNT: Joi.number().integer().min(1).default(10),
  RATE_LIMIT_MAX_PER_IP: Joi.number().integer().min(1).default(100),
  S3_ENDPOINT: Joi.string()
    .uri({ scheme: ['http', 'https'] })
    .required(),
  S3_REGION: Joi.string().default('us-east-1'),
  S3_BUCKET: Joi.string().default('hotel-media'),
  S3_ACCESS_KEY: Joi.string().required(),
  S3_SECRET_KEY: Joi.string().required(),
  CDN_URL: Joi.string().uri({ scheme: ['http', 'https'] }),
  ENCRYPTION_KEYS: Joi.string()
    .pattern(/^[\w-]+:[A-Za-z0-9+/]{43}=(,[\w-]+:[A-Za-z0-9+/]{43}=)*$/, 'id:base64-of-32-bytes[,id:key...]')
    .required(),
  ENCRYPTION_KEY_ID: Joi.string(),
  ALLOW_PRIVATE_OUTBOUND: Joi.boolean().default(false),
}).unknown(true);

function parseKeys(value: string): Record<string, Buffer> {
  return Object.fromEntries(
    value.split(',').map((entry) => {
      const [id, key] = entry.split(':');
      return [id, Buffer.from(key, 'base64')];
    }),
  );
}

export class ConfigError extends Error {}

/** The validated environment, by variable name (joi's output: converted values and defaults). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type EnvValues = Record<string, any>;

/** Validates the environment once; a wrong or missing value stops start-up with a message naming the variable. */
export function validateEnvironment(schema: Joi.ObjectSchema, env: NodeJS.ProcessEnv): EnvValues {
  const { value, error } = schema.validate(env, { abortEarly: false, convert: true });
  if (error) {
    const problems = error.details.map((detail) => `  ${detail.path.join('.')}: ${detail.message}`).join('\n');
    throw new ConfigError(`Invalid configuration:\n${problems}`);
  }
  return value;
}

/** The platform's configuration from the validated environment. */
export function readPlatformConfig(value: EnvValues): PlatformConfig {
  const port: number = value.PORT;
  const keys = parseKeys(value.ENCRYPTION_KEYS);
  const currentKeyId: string = value.ENCRYPTION_KEY_ID ?? Object.keys(keys)[0];
  if (!keys[currentKeyId])
    throw new ConfigError(`Invalid configuration:\n  ENCRYPTION_KEY_ID: "${currentKeyId}" is not in ENCRYPTION_KEYS`);
  const baseUrl: string = (value.BASE_URL ?? `http://localhost:${port}`).replace(/\/$/, '');
  return {
    env: value.NODE_ENV,
    port,
    host: value.HOST,
    logLevel: value.LOG_LEVEL,
    logFormat: value.LOG_FORMAT,
    databaseUrl: value.DATABASE_URL,
    databasePoolMax: value.DATABASE_POOL_MAX,
    databaseLimits: { api: databaseLimits(value, 'API'), worker: databaseLimits(value, 'WORKER') },
    hotelBulkhead: hotelBulkhead(value),
    http: {
      headersTimeoutMs: value.HTTP_HEADERS_TIMEOUT_MS,
      requestTimeoutMs: value.HTTP_REQUEST_TIMEOUT_MS,
      keepAliveTimeoutMs: value.HTTP_KEEP_ALIVE_TIMEOUT_MS,
      maxConnectionsPerAddress: value.MAX_CONNECTIONS_PER_ADDRESS,
    },
    temporal: {
      address: value.TEMPORAL_ADDRESS,
      namespace: value.TEMPORAL_NAMESPACE,
      taskQueue: value.TEMPORAL_TASK_QUEUE,
    },
    worker: {
      workflowTaskSlots: Math.min(value.WORKER_WORKFLOW_TASK_SLOTS, value.WORKER_CACHED_WORKFLOWS ?? Infinity),
      activitySlots: value.WORKER_ACTIVITY_SLOTS,
      cachedWorkflows: value.WORKER_CACHED_WORKFLOWS,
      workflowPollers: value.WORKER_WORKFLOW_POLLERS,
      activityPollers: value.WORKER_ACTIVITY_POLLERS,
      nonStickyPollRatio: value.WORKER_NON_STICKY_POLL_RATIO,
      stickyTimeoutMs: value.WORKER_STICKY_TIMEOUT_MS,
    },
    outboxMaxLagSeconds: value.OUTBOX_MAX_LAG_SECONDS,
    outboxRelayConcurrency: value.OUTBOX_RELAY_CONCURRENCY,
    jwtSecret: value.JWT_SECRET,
    baseUrl,
    appUrl: value.APP_URL.replace(/\/$/, ''),
    smtpUrl: value.SMTP_URL,
    mailFrom: value.MAIL_FROM,
    trustProxy: value.TRUST_PROXY,
    bodyLimit: value.BODY_LIMIT,
    shutdownTimeoutMs: value.SHUTDOWN_TIMEOUT_MS,
    shutdownDelayMs: value.SHUTDOWN_DELAY_MS,
    metrics: { token: value.METRICS_TOKEN, workerAddress: value.WORKER_METRICS_ADDRESS },
    tracing: {
      enabled: Boolean(value.OTEL_EXPORTER_OTLP_ENDPOINT ?? value.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT),
      serviceName: value.OTEL_SERVICE_NAME,
    },
    rateLimit: {
      windowSeconds: value.RATE_LIMIT_WINDOW_SECONDS,
      maxPerAccount: value.RATE_LIMIT_MAX_PER_ACCOUNT,
      maxPerIp: value.RATE_LIMIT_MAX_PER_IP,
    },
    storage: {
      endpoint: value.S3_ENDPOINT.replace(/\/$/, ''),
      region: value.S3_REGION,
      bucket: value.S3_BUCKET,
      accessKey: value.S3_ACCESS_KEY,
      secretKey: value.S3_SECRET_KEY,
    },
    // Served by the API (`GET /api/files/…`, with nosniff) unless a CDN in front of it is named.
    cdnUrl: (value.CDN_URL ?? `${baseUrl}/api/files`).replace(/\/$/, ''),
    encryption: { keys, currentKeyId },
    allowPrivateOutbound: value.ALLOW_PRIVATE_OUTBOUND,
  };
}

/**
 * One setting of a module's configuration section: the environment variables it reads (a joi object: their types,
 * defaults and messages, validated at start with the platform's) and its value from their validated values.
 */
export interface EnvSetting<Value> {
  variables: Joi.ObjectSchema;
  read(values: EnvValues): Value;
}

export function envSetting<Value>(variables: Joi.ObjectSchema, read: (values: EnvValues) => Value): EnvSetting<Value> {
  return { variables, read };
}

/** A module's configuration section: its settings by name (each name appears once in the whole configuration). */
export type ConfigSection<Settings> = { [Name in keyof Settings]: EnvSetting<Settings[Name]> };

/** The settings a section declares, by name. */
export type SectionSettings<Section> = {
  [Name in keyof Section]: Section[Name] extends EnvSetting<infer Value> ? Value : never;
};
