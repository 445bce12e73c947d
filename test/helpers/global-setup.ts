import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createDb, migrateToLatest } from '../../src/platform/db/knex';
import { spawnEntryPoint, waitForWorker, type AppProcess } from '../../scripts/stack/app-processes';
import { freePort } from '../../scripts/stack/ports';
import { startStack, type RunningStack } from '../../scripts/stack/stack';
import { STACK_FILE, TEST_APP_ENV } from './stack-env';

declare global {
  var __TEST_STACK__: { stack: RunningStack; worker: AppProcess } | undefined;
}

/** Starts real PostgreSQL, Temporal, the object store and the mail catcher once for the whole run, plus the worker. */
export default async function globalSetup(): Promise<void> {
  const startedAt = Date.now();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'hotel-pms-test-'));
  chmodSync(dataDir, 0o755); // PostgreSQL runs as its own user and must reach its data directory.
  const root = path.resolve(__dirname, '../..');
  const stack = await startStack({
    dataDir,
    durable: false,
    ports: {
      postgres: await freePort(),
      temporal: await freePort(),
      s3: await freePort(),
      smtp: await freePort(),
      mailWeb: await freePort(),
    },
    temporalBinary: process.env.TEMPORAL_CLI ?? path.join(root, '.tools/bin/temporal'),
    env: {},
  });
  const db = createDb(stack.env.DATABASE_URL, 2);
  await migrateToLatest(db).finally(() => db.destroy());
  const env = { ...TEST_APP_ENV, ...stack.env, LOG_LEVEL: 'warn' };
  const worker = spawnEntryPoint('workers/main.ts', { ...process.env, ...env });
  await waitForWorker(stack.env.TEMPORAL_ADDRESS, 'hotel', worker);
  writeFileSync(STACK_FILE, JSON.stringify({ env: stack.env, dataDir }));
  globalThis.__TEST_STACK__ = { stack, worker };
  console.log(`\ntest stack ready in ${((Date.now() - startedAt) / 1000).toFixed(1)} s`);
}
