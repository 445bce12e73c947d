import type { Express } from 'express';
import supertest from 'supertest';
import { buildApp } from '../../src/app';
import { loadConfig, type Config } from '../../src/config';
import { createDb, type Db } from '../../src/platform/db/knex';
import { createLogger } from '../../src/platform/logger';
import { readStackInfo, TEST_APP_ENV } from './stack-env';

export interface TestApp {
  app: Express;
  http: ReturnType<typeof supertest>;
  db: Db;
  config: Config;
  close(): Promise<void>;
}

export function testConfig(overrides: Record<string, string> = {}): Config {
  return loadConfig({ ...TEST_APP_ENV, ...readStackInfo().env, ...overrides });
}

/** The real application in this process, on the shared test database; `overrides` are environment variables. */
export function createTestApp(overrides: Record<string, string> = {}): TestApp {
  const config = testConfig(overrides);
  const db = createDb(config.databaseUrl, 5);
  const app = buildApp({ config, db, logger: createLogger(process.env.TEST_LOG_LEVEL ?? 'silent', 'test') });
  return { app, http: supertest(app), db, config, close: () => db.destroy() };
}
