import { writeFileSync } from 'node:fs';
import { createDb, migrateToLatest } from '../../src/platform/db/knex';
import { spawnEntryPoint, waitForWorker, type AppProcess } from '../../scripts/stack/app-processes';
import { startEphemeralStack, type RunningStack } from '../../scripts/stack/stack';
import { stackFile, TEST_APP_ENV } from './stack-env';

declare global {
  var __TEST_STACK__: { stack: RunningStack; worker: AppProcess } | undefined;
}

/** Starts real PostgreSQL, Temporal, the object store and the mail catcher once for the whole run, plus the worker. */
export default async function globalSetup(): Promise<void> {
  const startedAt = Date.now();
  // Test workers start after this and inherit it: concurrent runs never share a stack file.
  process.env.HOTEL_PMS_TEST_RUN ??= String(process.pid);
  const stack = await startEphemeralStack('test');
  const db = createDb(stack.env.DATABASE_URL, { role: 'migrations', poolMax: 2 });
  await migrateToLatest(db).finally(() => db.destroy());
  const env = { ...TEST_APP_ENV, ...stack.env, LOG_LEVEL: 'warn' };
  const worker = spawnEntryPoint('workers/main.ts', { ...process.env, ...env });
  await waitForWorker(stack.env.TEMPORAL_ADDRESS, 'hotel', worker);
  writeFileSync(stackFile(), JSON.stringify({ env: stack.env }));
  globalThis.__TEST_STACK__ = { stack, worker };
  console.log(`\ntest stack ready in ${((Date.now() - startedAt) / 1000).toFixed(1)} s`);
}
