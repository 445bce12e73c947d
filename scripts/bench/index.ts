import os from 'node:os';
import { createDb, migrateToLatest } from '../../src/platform/db/knex';
import { spawnEntryPoint, waitForApi } from '../stack/app-processes';
import { freePort } from '../stack/ports';
import { startEphemeralStack } from '../stack/stack';
import { bcryptCeiling } from './bcrypt-ceiling';
import { formatLoad, runLoad } from './stats';

const CLIENTS = 20;
const DURATION_MS = Number(process.env.BENCH_DURATION_MS ?? 10_000);

async function main(): Promise<void> {
  const stack = await startEphemeralStack('bench');
  const db = createDb(stack.env.DATABASE_URL, 4);
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const api = spawnEntryPoint(
    'src/main.ts',
    {
      ...process.env,
      ...stack.env,
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      PORT: String(port),
      JWT_SECRET: 'bench-secret-bench-secret-bench-secret',
      ENCRYPTION_KEYS: `bench:${Buffer.alloc(32, 3).toString('base64')}`,
      RATE_LIMIT_MAX_PER_ACCOUNT: '100000000',
      RATE_LIMIT_MAX_PER_IP: '100000000',
    },
    'ignore',
  );
  try {
    await migrateToLatest(db);
    await waitForApi(baseUrl, api);
    console.log(`Node ${process.version}, ${os.cpus().length} cores, bcrypt cost 12, ${CLIENTS} concurrent clients\n`);

    const ceiling = await bcryptCeiling(CLIENTS, DURATION_MS);
    console.log(`bcrypt ceiling (compare in one process, no HTTP):  ${formatLoad(ceiling)}`);

    const users = await Promise.all(
      Array.from({ length: CLIENTS }, async (_, i) => {
        const email = `bench-${i}-${Date.now()}@example.test`;
        const response = await fetch(`${baseUrl}/api/auth/register`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            hotel_name: `Bench ${i}`,
            address: 'Bench street 1',
            contact: 'Bench',
            email,
            phone: '+70000000000',
            password: 'benchpass1',
          }),
        });
        if (response.status !== 201) throw new Error(`register: ${response.status}`);
        return email;
      }),
    );
    await db('users').whereIn('email', users).update({ email_confirmed: true, confirmation_token: null });

    const login = (email: string, password: string) =>
      fetch(`${baseUrl}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email, password }),
      }).then(async (response) => {
        await response.arrayBuffer();
        return response.status;
      });

    const logins = await runLoad(
      CLIENTS,
      DURATION_MS,
      async (client) => (await login(users[client], 'benchpass1')) === 200,
    );
    console.log(`POST /api/auth/login (successful):                 ${formatLoad(logins)}`);
    console.log(`  = ${((100 * logins.perSecond) / ceiling.perSecond).toFixed(0)}% of the bcrypt ceiling`);

    const timing = Math.min(DURATION_MS, 5000);
    const wrong = await runLoad(4, timing, async (client) => (await login(users[client], 'wrong-password-1')) === 401);
    const unknown = await runLoad(
      4,
      timing,
      async (client) => (await login(`nobody-${client}@example.test`, 'x1')) === 401,
    );
    console.log(`login, wrong password (4 clients):                 ${formatLoad(wrong)}`);
    console.log(`login, unknown e-mail (4 clients):                 ${formatLoad(unknown)}`);
  } finally {
    await db.destroy();
    await api.stop();
    await stack.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
