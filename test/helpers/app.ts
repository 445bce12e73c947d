import type { Express } from 'express';
import supertest from 'supertest';
import { buildApi, type Api } from '../../src/app';
import { loadConfig, type Config } from '../../src/config';
import { createProcessDb, type Db } from '../../src/platform/db/knex';
import { createPgListener, type PgListener, type PgListenerOptions } from '../../src/platform/db/pg-listener';
import { createLogger, type Logger } from '../../src/platform/logger';
import type { AnyModule } from '../../src/platform/modules';
import { readStackInfo, TEST_APP_ENV } from './stack-env';

export interface TestApp extends Api {
  app: Express;
  http: ReturnType<typeof supertest>;
  db: Db;
  listener: PgListener;
  config: Config;
  close(): Promise<void>;
}

export function testConfig(overrides: Record<string, string> = {}, modules?: readonly AnyModule[]): Config {
  return loadConfig({ ...TEST_APP_ENV, ...readStackInfo().env, ...overrides }, modules);
}

export interface TestAppOptions {
  /** Reconnection delays of its LISTEN connection. */
  listenerRetryMs?: PgListenerOptions['retryMs'];
  /** The business modules, as the registry would list them (default: the registry's). */
  modules?: readonly AnyModule[];
  /** Its logger (default: silent, or at TEST_LOG_LEVEL); a test reads the lines of its own. */
  logger?: Logger;
}

/** The real application in this process, on the shared test database; `overrides` are environment variables. */
export function createTestApp(overrides: Record<string, string> = {}, options: TestAppOptions = {}): TestApp {
  const { listenerRetryMs, modules } = options;
  const config = testConfig(overrides, modules);
  const logger = options.logger ?? createLogger(process.env.TEST_LOG_LEVEL ?? 'silent', 'test');
  const db = createProcessDb(config, 'api', logger);
  const listener = createPgListener({ connectionString: config.databaseUrl, logger, retryMs: listenerRetryMs });
  const api = buildApi({ config, db, logger, listener, modules });
  return {
    ...api,
    http: supertest(api.app),
    db,
    listener,
    config,
    async close() {
      api.accessGuard.close();
      await api.close();
      await listener.close();
      await db.destroy();
    },
  };
}
