import type { Express } from 'express';
import supertest from 'supertest';
import { buildApi, type Api } from '../../src/app';
import { loadConfig, type Config } from '../../src/config';
import { createProcessDb, type Db } from '../../src/platform/db/knex';
import { createPgListener, type PgListener, type PgListenerOptions } from '../../src/platform/db/pg-listener';
import { createLogger } from '../../src/platform/logger';
import { readStackInfo, TEST_APP_ENV } from './stack-env';

export interface TestApp extends Api {
  app: Express;
  http: ReturnType<typeof supertest>;
  db: Db;
  listener: PgListener;
  config: Config;
  close(): Promise<void>;
}

export function testConfig(overrides: Record<string, string> = {}): Config {
  return loadConfig({ ...TEST_APP_ENV, ...readStackInfo().env, ...overrides });
}

/**
 * The real application in this process, on the shared test database; `overrides` are environment variables,
 * `listenerRetryMs` the reconnection delays of its LISTEN connection.
 */
export function createTestApp(
  overrides: Record<string, string> = {},
  listenerRetryMs?: PgListenerOptions['retryMs'],
): TestApp {
  const config = testConfig(overrides);
  const logger = createLogger(process.env.TEST_LOG_LEVEL ?? 'silent', 'test');
  const db = createProcessDb(config, 'api', logger);
  const listener = createPgListener({ connectionString: config.databaseUrl, logger, retryMs: listenerRetryMs });
  const api = buildApi({ config, db, logger, listener });
  return {
    ...api,
    http: supertest(api.app),
    db,
    listener,
    config,
    async close() {
      api.accessGuard.close();
      await listener.close();
      await db.destroy();
    },
  };
}
