import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { waitForApi, waitForWorker, type AppProcess } from '../../scripts/stack/app-processes';
import { freePort } from '../../scripts/stack/ports';
import { startTemporal, type RunningTemporal } from '../../scripts/stack/temporal';
import { createDb, migrateToLatest } from '../../src/platform/db/knex';
import { readStackInfo, TEST_APP_ENV } from './stack-env';

const TEMPORAL_BINARY = process.env.TEMPORAL_CLI ?? path.resolve(__dirname, '../../.tools/bin/temporal');
const root = path.resolve(__dirname, '../..');

/** One of our child processes, with the tail of its output for diagnosis (a pipe nobody reads would block it). */
export interface ManagedProcess {
  process: AppProcess;
  /** The last lines it wrote (its log lines from `warn` up, and anything on stderr). */
  output(): string;
  exited: Promise<void>;
  /** SIGKILL: the crash a supervisor restarts from. */
  kill(): Promise<void>;
  /** SIGTERM, waiting for the exit code (SIGKILL after the grace period). */
  stop(graceMs?: number): Promise<number | null>;
}

/**
 * Runs an entry point (`src/main.ts`, `workers/main.ts`) as its own Node process, as spawnEntryPoint does, but keeps
 * what it logs (stdout, where pino writes) as well as stderr, so a failing test can say what the process saw.
 */
export function spawnManaged(entry: string, env: NodeJS.ProcessEnv): ManagedProcess {
  const spawned = spawn(process.execPath, ['--import', 'tsx', path.join(root, entry)], {
    cwd: root,
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let tail = '';
  const keep = (chunk: Buffer) => {
    tail = (tail + chunk.toString()).slice(-16_000);
  };
  spawned.stdout.on('data', keep);
  spawned.stderr.on('data', keep);
  const exited = new Promise<void>((resolve) => spawned.once('exit', () => resolve()));
  const child: AppProcess = {
    child: spawned,
    async stop(graceMs = 15_000) {
      if (spawned.exitCode !== null || spawned.signalCode !== null) return spawned.exitCode;
      spawned.kill('SIGTERM');
      const timer = setTimeout(() => spawned.kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
      return spawned.exitCode;
    },
  };
  return {
    process: child,
    output: () => tail,
    exited,
    async kill() {
      if (spawned.exitCode === null && spawned.signalCode === null) spawned.kill('SIGKILL');
      await exited;
    },
    stop: (graceMs) => child.stop(graceMs),
  };
}

/**
 * A private stack for fault injection: its own PostgreSQL database on the shared server (so only its own worker
 * relays its outbox), its own Temporal dev server with a persistent SQLite file (so it can be restarted), its own
 * worker and API processes. The mail catcher and object store are the shared ones.
 */
export interface FaultStack {
  env: Record<string, string>;
  databaseUrl: string;
  temporalAddress: string;
  apiUrl: string;
  worker?: ManagedProcess;
  api?: ManagedProcess;
  startWorker(): Promise<ManagedProcess>;
  killWorker(): Promise<void>;
  startApi(): Promise<ManagedProcess>;
  restartTemporal(): Promise<void>;
  stop(): Promise<void>;
}

export async function startFaultStack(label: string): Promise<FaultStack> {
  const shared = readStackInfo().env;
  const database = `${label}_${process.pid}_${Date.now().toString(36)}`.toLowerCase().replace(/[^a-z0-9_]/g, '_');
  const adminUrl = shared.DATABASE_URL;
  const databaseUrl = (() => {
    const url = new URL(adminUrl);
    url.pathname = `/${database}`;
    return url.toString();
  })();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), `hotel-pms-${label}-`));
  const dbFile = path.join(dataDir, 'temporal.db');
  const temporalPort = await freePort();
  const apiPort = await freePort();
  const cleanups: (() => Promise<void>)[] = [];
  let temporal: RunningTemporal | undefined;

  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };

  const stack: FaultStack = {
    env: {},
    databaseUrl,
    temporalAddress: `127.0.0.1:${temporalPort}`,
    apiUrl: `http://127.0.0.1:${apiPort}`,

    async startWorker() {
      const worker = spawnManaged('workers/main.ts', { ...process.env, ...stack.env });
      stack.worker = worker;
      await waitForWorker(stack.temporalAddress, 'hotel', worker.process, 90_000).catch((error: Error) => {
        throw new Error(`${error.message}\n${worker.output()}`);
      });
      return worker;
    },

    async killWorker() {
      await stack.worker?.kill();
    },

    async startApi() {
      const api = spawnManaged('src/main.ts', { ...process.env, ...stack.env });
      stack.api = api;
      await waitForApi(stack.apiUrl, api.process, 60_000).catch((error: Error) => {
        throw new Error(`${error.message}\n${api.output()}`);
      });
      return api;
    },

    async restartTemporal() {
      await temporal?.stop();
      temporal = undefined;
      temporal = await startTemporal({ binary: TEMPORAL_BINARY, port: temporalPort, dbFile, timeoutMs: 60_000 });
    },

    async stop() {
      await Promise.allSettled([stack.api?.kill(), stack.worker?.kill()]);
      for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
    },
  };

  try {
    await admin(`CREATE DATABASE "${database}"`);
    cleanups.push(() => admin(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`));
    cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }));
    const db = createDb(databaseUrl, { role: 'migrations', poolMax: 2 });
    await migrateToLatest(db).finally(() => db.destroy());
    temporal = await startTemporal({ binary: TEMPORAL_BINARY, port: temporalPort, dbFile, timeoutMs: 60_000 });
    cleanups.push(async () => {
      await temporal?.stop();
    });
    stack.env = {
      ...TEST_APP_ENV,
      ...shared,
      DATABASE_URL: databaseUrl,
      TEMPORAL_ADDRESS: stack.temporalAddress,
      PORT: String(apiPort),
      HOST: '127.0.0.1',
      LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'warn',
      SHUTDOWN_TIMEOUT_MS: '10000',
    };
    return stack;
  } catch (error) {
    await stack.stop();
    throw error;
  }
}
