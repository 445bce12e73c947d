import { createECDH } from 'node:crypto';
import Joi from 'joi';
import { TTLOCK_API_HOSTS } from './integrations/ttlock';

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

export interface Config {
  env: 'development' | 'test' | 'production';
  port: number;
  host: string;
  logLevel: string;
  /** `pretty` for a person at a terminal (`npm run dev`; needs the pino-pretty dev dependency), `json` elsewhere. */
  logFormat: 'json' | 'pretty';
  databaseUrl: string;
  databasePoolMax: number;
  databaseLimits: { api: DbLimits; worker: DbLimits };
  /** At most `maxConcurrent` requests of one hotel in their handlers at once, per process (see hotel-bulkhead.ts). */
  hotelBulkhead: { maxConcurrent: number; queueTimeoutMs: number };
  /** Limits of the API's HTTP server (see platform/http/server.ts); `maxConnectionsPerAddress` 0 means no cap. */
  http: {
    headersTimeoutMs: number;
    requestTimeoutMs: number;
    keepAliveTimeoutMs: number;
    maxConnectionsPerAddress: number;
  };
  temporal: { address: string; namespace: string; taskQueue: string };
  /** `/ready` refuses once the oldest undelivered outbox message is older than this. */
  outboxMaxLagSeconds: number;
  jwtSecret: string;
  accessTokenTtlSeconds: number;
  refreshTokenTtlDays: number;
  invitationTtlSeconds: number;
  baseUrl: string;
  appUrl: string;
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
  rateLimit: { windowSeconds: number; maxPerAccount: number; maxPerIp: number };
  storage: { endpoint: string; region: string; bucket: string; accessKey: string; secretKey: string };
  cdnUrl: string;
  uploadMaxBytes: number;
  /** AES-256-GCM keys by id; `currentKeyId` encrypts, every key decrypts (so keys can rotate). */
  encryption: { keys: Record<string, Buffer>; currentKeyId: string };
  /** Development only: hotels may configure loopback/private/link-local outbound addresses (e.g. a local relay). */
  allowPrivateOutbound: boolean;
  /**
   * YooKassa: the API v3 base address (the sandbox fake in development and tests), and the source addresses (CIDR)
   * its notifications may come from (empty: any; a notification is never believed anyway, only re-read).
   */
  /**
   * YooKassa: notifications a minute per source address (per API process) and the window in which one payment's
   * notifications make one re-read.
   */
  yookassa: {
    apiUrl: string;
    notificationSources: string[];
    notificationsPerMinute: number;
    notificationCoalesceMs: number;
  };
  /**
   * The TTLock cloud's API root per server (`EU`, `China`): the documented hosts unless TTLOCK_API_URL is set (both,
   * e.g. the fake in development and tests); TTLOCK_CHINA_API_URL sets the Chinese one apart.
   */
  ttlock: { apiUrls: { EU: string; China: string } };
  /**
   * The agent release desks update to, when the deployment publishes one (AGENT_RELEASE_VERSION, _URL, _SHA256);
   * otherwise the one the API ships with (src/modules/agents/agents.release.ts).
   */
  agentRelease?: { version: string; url: string; sha256: string };
  /** Per client address: the widget's reads a minute (per API process), submissions per 10 minutes, lookups per 15. */
  widgetLimits: { reads: number; submissions: number; lookups: number };
  /** The money workflows' timers (see workflows/contracts/payments.ts); `onlinePaymentTtlMs` overrides the hotel's. */
  paymentTimers: {
    confirmationTimeoutMs: number;
    pollIntervalMs: number;
    holdSettleAfterMs: number;
    onlinePaymentTtlMs?: number;
  };
  /** Overrides every hotel's delay of the review invitation after check-out (tests: a few seconds instead of hours). */
  reviewInvitationDelayMs?: number;
  /**
   * Web Push: the installation's VAPID key pair (base64url, generated once and kept: from the environment in
   * production, `.data/vapid-keys.json` in development) and its contact; without keys (allowed outside production)
   * push is off. `caFile`: a PEM certificate also trusted for push services (the tests' fake service).
   */
  push: { vapid?: { publicKey: string; privateKey: string; subject: string }; caFile?: string };
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

const schema = Joi.object({
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
  OUTBOX_MAX_LAG_SECONDS: Joi.number().integer().min(1).default(300),
  JWT_SECRET: Joi.string().min(32).required(),
  ACCESS_TOKEN_TTL_SECONDS: Joi.number().integer().min(30).default(900),
  REFRESH_TOKEN_TTL_DAYS: Joi.number().integer().min(1).default(30),
  INVITATION_TTL_SECONDS: Joi.number()
    .integer()
    .min(1)
    .default(7 * 24 * 3600),
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
  UPLOAD_MAX_BYTES: Joi.number()
    .integer()
    .min(1024)
    .default(10 * 1024 * 1024),
  ENCRYPTION_KEYS: Joi.string()
    .pattern(/^[\w-]+:[A-Za-z0-9+/]{43}=(,[\w-]+:[A-Za-z0-9+/]{43}=)*$/, 'id:base64-of-32-bytes[,id:key...]')
    .required(),
  ENCRYPTION_KEY_ID: Joi.string(),
  ALLOW_PRIVATE_OUTBOUND: Joi.boolean().default(false),
  YOOKASSA_API_URL: Joi.string()
    .uri({ scheme: ['http', 'https'] })
    .default('https://api.yookassa.ru/v3'),
  TTLOCK_API_URL: Joi.string().uri({ scheme: ['http', 'https'] }),
  TTLOCK_CHINA_API_URL: Joi.string().uri({ scheme: ['http', 'https'] }),
  AGENT_RELEASE_VERSION: Joi.string().pattern(/^\d+\.\d+\.\d+([-+][\w.]+)?$/, 'semver'),
  AGENT_RELEASE_URL: Joi.string()
    .uri({ scheme: ['https'] })
    .when('AGENT_RELEASE_VERSION', { is: Joi.exist(), then: Joi.required() }),
  AGENT_RELEASE_SHA256: Joi.string()
    .hex()
    .length(64)
    .when('AGENT_RELEASE_VERSION', { is: Joi.exist(), then: Joi.required() }),
  YOOKASSA_NOTIFICATION_SOURCES: Joi.string().pattern(/^[\d.:a-fA-F/]+(,[\d.:a-fA-F/]+)*$/, 'cidr[,cidr...]'),
  YOOKASSA_NOTIFICATIONS_PER_MINUTE: Joi.number().integer().min(1).default(600),
  YOOKASSA_NOTIFICATION_COALESCE_MS: Joi.number().integer().min(0).max(60_000).default(1000),
  PAYMENT_CONFIRMATION_TIMEOUT_MS: Joi.number().integer().min(1000).default(3_600_000),
  PAYMENT_POLL_INTERVAL_MS: Joi.number().integer().min(500).default(60_000),
  // Half a day before the provider's 7 days run out.
  DEPOSIT_HOLD_SETTLE_AFTER_MS: Joi.number()
    .integer()
    .min(1000)
    .max(7 * 24 * 3_600_000 - 60_000)
    .default(6.5 * 24 * 3_600_000),
  ONLINE_PAYMENT_TTL_MS: Joi.number().integer().min(1000),
  REVIEW_INVITATION_DELAY_MS: Joi.number().integer().min(0),
  WIDGET_READS_PER_MINUTE: Joi.number().integer().min(1).default(600),
  WIDGET_SUBMISSIONS_PER_10_MINUTES: Joi.number().integer().min(1).default(20),
  WIDGET_LOOKUPS_PER_15_MINUTES: Joi.number().integer().min(1).default(10),
  // Empty counts as unset (as in a compose file listing the variables).
  VAPID_PUBLIC_KEY: Joi.string()
    .empty('')
    .pattern(/^[A-Za-z0-9_-]{87}$/, 'base64url of an uncompressed P-256 point (65 bytes)')
    .when('NODE_ENV', { is: 'production', then: Joi.required() }),
  VAPID_PRIVATE_KEY: Joi.string()
    .empty('')
    .pattern(/^[A-Za-z0-9_-]{43}$/, 'base64url of a P-256 private key (32 bytes)')
    .when('NODE_ENV', { is: 'production', then: Joi.required() }),
  VAPID_SUBJECT: Joi.string()
    .empty('')
    .max(500)
    .pattern(/^(mailto:[^\s@]+@[^\s@]+|https:\/\/[^\s/]+\S*)$/, 'mailto:<address> or https://<host>')
    .when('NODE_ENV', { is: 'production', then: Joi.required() }),
  PUSH_CA_FILE: Joi.string().max(1000),
})
  .and('VAPID_PUBLIC_KEY', 'VAPID_PRIVATE_KEY')
  .unknown(true);

/** The VAPID pair, checked to be one (a public key of another private key would make every push service refuse). */
function vapidKeys(value: Record<string, string | undefined>): Config['push']['vapid'] {
  const { VAPID_PUBLIC_KEY: publicKey, VAPID_PRIVATE_KEY: privateKey } = value;
  if (!publicKey || !privateKey) return undefined;
  const ecdh = createECDH('prime256v1');
  let derived: string;
  try {
    ecdh.setPrivateKey(Buffer.from(privateKey, 'base64url'));
    derived = ecdh.getPublicKey().toString('base64url');
  } catch {
    derived = '';
  }
  if (derived !== publicKey)
    throw new ConfigError('Invalid configuration:\n  VAPID_PUBLIC_KEY: is not the public key of VAPID_PRIVATE_KEY');
  return { publicKey, privateKey, subject: value.VAPID_SUBJECT ?? 'mailto:push@hotel-pms.invalid' };
}

function parseKeys(value: string): Record<string, Buffer> {
  return Object.fromEntries(
    value.split(',').map((entry) => {
      const [id, key] = entry.split(':');
      return [id, Buffer.from(key, 'base64')];
    }),
  );
}

export class ConfigError extends Error {}

/** Reads the environment once; a wrong or missing value stops start-up with a message naming the variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const { value, error } = schema.validate(env, { abortEarly: false, convert: true });
  if (error) {
    const problems = error.details.map((detail) => `  ${detail.path.join('.')}: ${detail.message}`).join('\n');
    throw new ConfigError(`Invalid configuration:\n${problems}`);
  }
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
    hotelBulkhead: {
      // About half the pool: a hotel whose requests all wait on a lock leaves the other half to the other hotels.
      maxConcurrent: value.HOTEL_MAX_CONCURRENT_REQUESTS ?? Math.max(1, Math.floor(value.DATABASE_POOL_MAX / 2)),
      queueTimeoutMs: value.HOTEL_QUEUE_TIMEOUT_MS,
    },
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
    outboxMaxLagSeconds: value.OUTBOX_MAX_LAG_SECONDS,
    jwtSecret: value.JWT_SECRET,
    accessTokenTtlSeconds: value.ACCESS_TOKEN_TTL_SECONDS,
    refreshTokenTtlDays: value.REFRESH_TOKEN_TTL_DAYS,
    invitationTtlSeconds: value.INVITATION_TTL_SECONDS,
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
    uploadMaxBytes: value.UPLOAD_MAX_BYTES,
    encryption: { keys, currentKeyId },
    allowPrivateOutbound: value.ALLOW_PRIVATE_OUTBOUND,
    yookassa: {
      apiUrl: value.YOOKASSA_API_URL.replace(/\/$/, ''),
      notificationSources: value.YOOKASSA_NOTIFICATION_SOURCES?.split(',') ?? [],
      notificationsPerMinute: value.YOOKASSA_NOTIFICATIONS_PER_MINUTE,
      notificationCoalesceMs: value.YOOKASSA_NOTIFICATION_COALESCE_MS,
    },
    ...(value.AGENT_RELEASE_VERSION && {
      agentRelease: {
        version: value.AGENT_RELEASE_VERSION,
        url: value.AGENT_RELEASE_URL,
        sha256: value.AGENT_RELEASE_SHA256.toLowerCase(),
      },
    }),
    ttlock: {
      apiUrls: {
        EU: (value.TTLOCK_API_URL ?? TTLOCK_API_HOSTS.EU).replace(/\/$/, ''),
        China: (value.TTLOCK_CHINA_API_URL ?? value.TTLOCK_API_URL ?? TTLOCK_API_HOSTS.China).replace(/\/$/, ''),
      },
    },
    widgetLimits: {
      reads: value.WIDGET_READS_PER_MINUTE,
      submissions: value.WIDGET_SUBMISSIONS_PER_10_MINUTES,
      lookups: value.WIDGET_LOOKUPS_PER_15_MINUTES,
    },
    paymentTimers: {
      confirmationTimeoutMs: value.PAYMENT_CONFIRMATION_TIMEOUT_MS,
      pollIntervalMs: value.PAYMENT_POLL_INTERVAL_MS,
      holdSettleAfterMs: value.DEPOSIT_HOLD_SETTLE_AFTER_MS,
      onlinePaymentTtlMs: value.ONLINE_PAYMENT_TTL_MS,
    },
    reviewInvitationDelayMs: value.REVIEW_INVITATION_DELAY_MS,
    push: { vapid: vapidKeys(value), caFile: value.PUSH_CA_FILE },
  };
}
