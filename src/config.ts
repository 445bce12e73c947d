import Joi from 'joi';

export interface Config {
  env: 'development' | 'test' | 'production';
  port: number;
  host: string;
  logLevel: string;
  databaseUrl: string;
  databasePoolMax: number;
  temporal: { address: string; namespace: string; taskQueue: string };
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
  rateLimit: { windowSeconds: number; maxPerAccount: number; maxPerIp: number };
}

const schema = Joi.object({
  NODE_ENV: Joi.string().valid('development', 'test', 'production').default('development'),
  PORT: Joi.number().port().default(3000),
  HOST: Joi.string().default('0.0.0.0'),
  LOG_LEVEL: Joi.string().valid('fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent').default('info'),
  DATABASE_URL: Joi.string()
    .uri({ scheme: ['postgres', 'postgresql'] })
    .required(),
  DATABASE_POOL_MAX: Joi.number().integer().min(1).max(200).default(10),
  TEMPORAL_ADDRESS: Joi.string()
    .pattern(/^[\w.-]+:\d+$/)
    .default('localhost:7233'),
  TEMPORAL_NAMESPACE: Joi.string().default('default'),
  TEMPORAL_TASK_QUEUE: Joi.string().default('hotel'),
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
  RATE_LIMIT_WINDOW_SECONDS: Joi.number().integer().min(1).default(900),
  RATE_LIMIT_MAX_PER_ACCOUNT: Joi.number().integer().min(1).default(10),
  RATE_LIMIT_MAX_PER_IP: Joi.number().integer().min(1).default(100),
}).unknown(true);

export class ConfigError extends Error {}

/** Reads the environment once; a wrong or missing value stops start-up with a message naming the variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const { value, error } = schema.validate(env, { abortEarly: false, convert: true });
  if (error) {
    const problems = error.details.map((detail) => `  ${detail.path.join('.')}: ${detail.message}`).join('\n');
    throw new ConfigError(`Invalid configuration:\n${problems}`);
  }
  const port: number = value.PORT;
  return {
    env: value.NODE_ENV,
    port,
    host: value.HOST,
    logLevel: value.LOG_LEVEL,
    databaseUrl: value.DATABASE_URL,
    databasePoolMax: value.DATABASE_POOL_MAX,
    temporal: {
      address: value.TEMPORAL_ADDRESS,
      namespace: value.TEMPORAL_NAMESPACE,
      taskQueue: value.TEMPORAL_TASK_QUEUE,
    },
    jwtSecret: value.JWT_SECRET,
    accessTokenTtlSeconds: value.ACCESS_TOKEN_TTL_SECONDS,
    refreshTokenTtlDays: value.REFRESH_TOKEN_TTL_DAYS,
    invitationTtlSeconds: value.INVITATION_TTL_SECONDS,
    baseUrl: (value.BASE_URL ?? `http://localhost:${port}`).replace(/\/$/, ''),
    appUrl: value.APP_URL.replace(/\/$/, ''),
    smtpUrl: value.SMTP_URL,
    mailFrom: value.MAIL_FROM,
    trustProxy: value.TRUST_PROXY,
    bodyLimit: value.BODY_LIMIT,
    shutdownTimeoutMs: value.SHUTDOWN_TIMEOUT_MS,
    rateLimit: {
      windowSeconds: value.RATE_LIMIT_WINDOW_SECONDS,
      maxPerAccount: value.RATE_LIMIT_MAX_PER_ACCOUNT,
      maxPerIp: value.RATE_LIMIT_MAX_PER_IP,
    },
  };
}
