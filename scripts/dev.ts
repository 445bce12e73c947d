import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { generateVAPIDKeys } from 'web-push';
import { createDb, migrateToLatest } from '../src/platform/db/knex';
import { spawnEntryPoint, waitForApi, waitForWorker } from './stack/app-processes';
import { DEV_PORTS } from './stack/ports';
import { startStack } from './stack/stack';

const root = path.resolve(__dirname, '..');
const dataDir = path.join(root, '.data');

/** A development secret made once and kept with the dev data, so sessions and encrypted values survive restarts. */
function devSecret(name: string, make: () => string): string {
  const file = path.join(dataDir, name);
  if (!existsSync(file)) writeFileSync(file, make(), { mode: 0o600 });
  return readFileSync(file, 'utf8').trim();
}

/** The installation's Web Push (VAPID) pair: from the environment, or generated once into `.data/vapid-keys.json`. */
function devVapidKeys(): Record<string, string> {
  if (process.env.VAPID_PUBLIC_KEY && process.env.VAPID_PRIVATE_KEY) return {};
  const keys = JSON.parse(devSecret('vapid-keys.json', () => JSON.stringify(generateVAPIDKeys()))) as {
    publicKey: string;
    privateKey: string;
  };
  return { VAPID_PUBLIC_KEY: keys.publicKey, VAPID_PRIVATE_KEY: keys.privateKey };
}

async function main(): Promise<void> {
  const startedAt = Date.now();
  mkdirSync(dataDir, { recursive: true });
  const port = Number(process.env.PORT ?? 3000);
  const baseUrl = process.env.BASE_URL ?? `http://localhost:${port}`;
  const stack = await startStack({
    dataDir,
    durable: true,
    ports: { postgres: 54329, temporal: 7233, temporalUi: 8233, s3: 4569, smtp: 1025, mailWeb: 1080 },
    temporalBinary: process.env.TEMPORAL_CLI ?? path.join(root, '.tools/bin/temporal'),
    env: process.env,
    yookassaWebhookUrl: `${baseUrl}/api/payments/yookassa/notifications`,
    // Fixed, so `npm run seed` finds the sandbox and the push service's subscriptions outlive a restart.
    yookassaPort: DEV_PORTS.yookassa,
    channexPort: DEV_PORTS.channex,
    pushService: {
      port: DEV_PORTS.push,
      inboxPort: DEV_PORTS.pushInbox,
      stateFile: path.join(dataDir, 'push-subscriptions.json'),
    },
  });
  const db = createDb(stack.env.DATABASE_URL, { role: 'migrations', poolMax: 2 });
  await migrateToLatest(db).finally(() => db.destroy());

  const env = {
    ...process.env,
    NODE_ENV: process.env.NODE_ENV ?? 'development',
    // Lines for a person at the terminal (pino-pretty); JSON elsewhere.
    LOG_FORMAT: process.env.LOG_FORMAT ?? 'pretty',
    // A hotel may point its SMTP settings at the local mail catcher while developing.
    ALLOW_PRIVATE_OUTBOUND: process.env.ALLOW_PRIVATE_OUTBOUND ?? 'true',
    PORT: String(port),
    BASE_URL: baseUrl,
    JWT_SECRET: process.env.JWT_SECRET ?? devSecret('jwt-secret', () => randomBytes(32).toString('hex')),
    ENCRYPTION_KEYS:
      process.env.ENCRYPTION_KEYS ?? devSecret('encryption-keys', () => `dev1:${randomBytes(32).toString('base64')}`),
    ...devVapidKeys(),
    ...stack.env,
  };
  const api = spawnEntryPoint('src/main.ts', env);
  const worker = spawnEntryPoint('workers/main.ts', env);
  let stopping = false;
  let deskAgent: ChildProcess | undefined;
  const stopAll = async (code: number) => {
    if (stopping) return;
    stopping = true;
    deskAgent?.kill('SIGTERM');
    await Promise.all([api.stop(), worker.stop()]);
    await stack.stop();
    process.exit(code);
  };
  process.on('SIGINT', () => void stopAll(0));
  process.on('SIGTERM', () => void stopAll(0));
  for (const child of [api.child, worker.child]) {
    child.once('exit', (code) => {
      if (!stopping) {
        console.error(`a process exited unexpectedly (code ${code}); stopping everything`);
        void stopAll(1);
      }
    });
  }
  await Promise.all([
    waitForApi(baseUrl, api),
    waitForWorker(stack.env.TEMPORAL_ADDRESS, process.env.TEMPORAL_TASK_QUEUE ?? 'hotel', worker),
  ]);
  const lines: [string, string][] = [['API', baseUrl], ['API docs', `${baseUrl}/api/docs`], ...stack.addresses];
  const agentsUrl = `${baseUrl.replace(/^http/, 'ws')}/agents/ws`;
  lines.push(['Agent channel', agentsUrl]);
  const pairCode = agentPairCode();
  if (pairCode) {
    deskAgent = startDeskAgent(agentsUrl, baseUrl, pairCode);
    lines.push(['Desk agent', 'reference agent pairing (its lines follow, prefixed "agent")']);
  }
  const width = Math.max(...lines.map(([name]) => name.length));
  console.log(`\nReady in ${((Date.now() - startedAt) / 1000).toFixed(1)} s`);
  for (const [name, address] of lines) console.log(`  ${name.padEnd(width)}  ${address}`);
  console.log('Press Ctrl-C to stop.\n');
}

/** `npm run dev -- --agent <pair code>`: the pair code staff got for a workstation (POST …/workstations/{id}/pair-code). */
function agentPairCode(): string | undefined {
  const index = process.argv.indexOf('--agent');
  return index >= 0 ? process.argv[index + 1] : undefined;
}

/** The reference agent (test/fakes/agent) playing a desk: it pairs with the code and comes online for staff to see. */
function startDeskAgent(agentsUrl: string, apiUrl: string, pairCode: string): ChildProcess {
  const cli = path.join(root, 'test/fakes/agent/cli.ts');
  return spawn(
    process.execPath,
    ['--import', 'tsx', cli, '--url', agentsUrl, '--api', apiUrl, '--pair-code', pairCode],
    {
      cwd: root,
      stdio: ['ignore', 'inherit', 'inherit'],
    },
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
