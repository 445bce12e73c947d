import os from 'node:os';
import { generateVAPIDKeys } from 'web-push';
import { createDb, migrateToLatest } from '../../src/platform/db/knex';
import { spawnEntryPoint, waitForApi, waitForWorker } from '../stack/app-processes';
import { freePort } from '../stack/ports';
import { startEphemeralStack } from '../stack/stack';
import { bcryptCeiling } from './bcrypt-ceiling';
import { BENCH_PASSWORD, createQuoteFixture, registerConfirmedOwners } from './fixtures';
import { benchAgents } from './agents';
import { benchAudit } from './audit';
import { benchAuditLog } from './audit-log';
import { benchBlocksRace } from './blocks';
import { benchAvailability, bigHotel } from './bookings';
import { benchCreation } from './bookings-creation';
import { benchChannels } from './channels';
import { benchChat } from './chat';
import { benchConnections } from './connections';
import { benchDeposits } from './deposits';
import { benchGuestServices } from './guest-services';
import { benchHeldLock } from './held-lock';
import { benchIntake } from './intake';
import { benchReports } from './history';
import { benchInvoices } from './invoices';
import { benchLifecycleActions } from './lifecycle-actions';
import { benchOutbox } from './outbox';
import { benchPublicRefusals } from './public-refusals';
import { benchRealtime, formatRealtime } from './realtime';
import { benchRetention } from './retention';
import { benchSteady } from './steady';
import { benchTimeline } from './timeline';
import { benchWebhooks } from './webhooks';
import { benchWebhookFaults, benchWebhookOutage } from './webhooks-faults';
import { benchWidget } from './widget';
import { formatLoad, runLoad } from './stats';

const CLIENTS = 20;
const DURATION_MS = Number(process.env.BENCH_DURATION_MS ?? 10_000);
/**
 * `BENCH=outbox,deposits npm run bench` runs only those of logins, quotes, realtime, bookings, widget, agents, chat,
 * guest-services, public-refusals, held-lock, connections, lifecycle-actions, steady, outbox, deposits, blocks, reports,
 * audit, invoices, retention, webhooks, timeline, audit-log, channels, intake, webhook-faults, webhook-outage (an
 * hour: not run by default).
 */
const ONLY = process.env.BENCH?.split(',');
const runs = (part: string) => (!ONLY && part !== 'webhook-outage') || ONLY?.includes(part) === true;

async function main(): Promise<void> {
  const stack = await startEphemeralStack('bench');
  const db = createDb(stack.env.DATABASE_URL, { role: 'migrations', poolMax: 4 });
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const vapid = generateVAPIDKeys();
  const processEnv = {
    ...process.env,
    ...stack.env,
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    JWT_SECRET: 'bench-secret-bench-secret-bench-secret',
    ENCRYPTION_KEYS: `bench:${Buffer.alloc(32, 3).toString('base64')}`,
    RATE_LIMIT_MAX_PER_ACCOUNT: '100000000',
    RATE_LIMIT_MAX_PER_IP: '100000000',
    // The widget's reads are limited per address, and every bench client is one address.
    WIDGET_READS_PER_MINUTE: '100000000',
    // The block race's widget guests too: their bookings are what it is about, not the address's budget.
    WIDGET_SUBMISSIONS_PER_10_MINUTES: '100000000',
    // One hotel's 50 clients: its share of a process is half the pool by default (the per-hotel bulkhead).
    DATABASE_POOL_MAX: '20',
    HOTEL_MAX_CONCURRENT_REQUESTS: '20',
    // Every bench client comes from 127.0.0.1 (300 realtime sockets besides the HTTP ones).
    MAX_CONNECTIONS_PER_ADDRESS: '0',
    // Production requires the installation's Web Push pair: a fresh one per run (nothing is pushed here).
    VAPID_PUBLIC_KEY: vapid.publicKey,
    VAPID_PRIVATE_KEY: vapid.privateKey,
    VAPID_SUBJECT: 'mailto:bench@example.test',
    // The webhooks part delivers to a receiver of this process on 127.0.0.1.
    ...(runs('webhooks') && { ALLOW_PRIVATE_OUTBOUND: 'true' }),
  };
  const api = spawnEntryPoint('src/main.ts', { ...processEnv, PORT: String(port) }, 'ignore');
  try {
    await migrateToLatest(db);
    await waitForApi(baseUrl, api);
    console.log(`Node ${process.version}, ${os.cpus().length} cores, bcrypt cost 12, ${CLIENTS} concurrent clients\n`);

    const users = await registerConfirmedOwners(baseUrl, db, CLIENTS);
    if (runs('logins')) await benchLogins(baseUrl, users);
    if (runs('quotes') || runs('realtime')) {
      const fixture = await createQuoteFixture(baseUrl, users[0]);
      if (runs('quotes')) await benchQuotes(fixture);
      // Commit -> pg_notify -> the API's LISTEN -> fan-out to 300 sockets of one hotel.
      if (runs('realtime')) console.log(`\n${formatRealtime(await benchRealtime(baseUrl, db, fixture.token))}`);
    }
    if (runs('reports'))
      console.log(`\n${(await benchReports(baseUrl, db, await bigHotel(baseUrl, db, users[14]))).join('\n')}`);
    if (runs('bookings')) {
      const big = await bigHotel(baseUrl, db, users[1]);
      console.log(`\n${(await benchAvailability(baseUrl, big, DURATION_MS)).join('\n')}`);
      const rig = { env: processEnv, temporalAddress: stack.env.TEMPORAL_ADDRESS, db };
      console.log((await benchCreation(rig, big, users[12], DURATION_MS)).join('\n'));
    }
    // 1,000 requests at once for the last units of one category: staff and widget bookings and a block's pickups.
    if (runs('blocks')) console.log(`\n${(await benchBlocksRace(baseUrl, db, users[13])).join('\n')}`);
    // 50 invoices issued at once in one hotel: the time, and numbers 1…50 with no gap.
    if (runs('invoices')) console.log(`\n${(await benchInvoices(baseUrl, db, users[14])).join('\n')}`);
    // 10,000 guests past their hotel's retention period erased by the sweep's passes, then searched for.
    // The audit log's commit: bulk restrictions writes of about 8,000 and 16,000 rows, then commits of 8,000 to 32,000.
    if (runs('audit-log')) console.log(`\n${(await benchAuditLog(baseUrl, db, users[18])).join('\n')}`);
    if (runs('retention')) console.log(`\n${(await benchRetention(baseUrl, db, users[15], processEnv)).join('\n')}`);
    if (runs('widget'))
      console.log(`\n${(await benchWidget(baseUrl, db, users[2], processEnv, DURATION_MS)).join('\n')}`);
    // 200 reference agents in this process: quick commands' round trips, then an offline desk's queue draining.
    if (runs('agents')) console.log(`\n${(await benchAgents(baseUrl, db, users[3], DURATION_MS)).join('\n')}`);
    // 300 staff sockets in one chat room: send to receive; then history pages and search over 100,000 messages.
    if (runs('chat')) console.log(`\n${(await benchChat(baseUrl, db, users[4])).join('\n')}`);
    // Room service orders and deliveries, a long loyalty ledger, 20,000 reviews: each in its own hotel.
    if (runs('guest-services')) {
      const owners = [users[5], users[6], users[7]] as [string, string, string];
      console.log(`\n${(await benchGuestServices(baseUrl, db, owners, DURATION_MS)).join('\n')}`);
    }
    // Wrong room-service proofs, the captive portal's wrong guesses, an unknown TV token: timings by kind of refusal.
    if (runs('public-refusals')) console.log(`\n${(await benchPublicRefusals(baseUrl, db, users[8])).join('\n')}`);
    // One hotel's settings row held by a transaction: how fast another hotel's 50 clients are answered meanwhile.
    if (runs('held-lock'))
      console.log(`\n${(await benchHeldLock(processEnv, db, [users[9], users[10]], DURATION_MS)).join('\n')}`);
    // 500 slow connections from ten addresses: how fast a normal client is answered meanwhile.
    if (runs('connections')) console.log(`\n${(await benchConnections(processEnv, users[11])).join('\n')}`);
    // Temporal actions per booking lifecycle, by hotel configuration, from real histories (its own API and worker).
    if (runs('lifecycle-actions'))
      console.log(`\n${(await benchLifecycleActions(processEnv, db, stack.env.TEMPORAL_ADDRESS)).join('\n')}`);
    // One hotel at 100 bookings/s (BENCH_STEADY_RATE) for 120 s (BENCH_STEADY_SECONDS) through its own API and worker: the worker's
    // schedule-to-start and drain, and a neighbour hotel's notification, push and guest e-mail meanwhile.
    if (runs('steady')) console.log(`\n${(await benchSteady(processEnv, db, stack.env.TEMPORAL_ADDRESS)).join('\n')}`);
    // 10,000 webhook events through worker and API SIGKILLs, a Temporal restart and a receiver down (its own stack).
    if (runs('webhook-faults')) console.log(`\n${(await benchWebhookFaults(processEnv, db)).join('\n')}`);
    // A receiver down for an hour (BENCH_OUTAGE_SECONDS) while events commit, then back.
    if (runs('webhook-outage')) console.log(`\n${(await benchWebhookOutage(processEnv, db)).join('\n')}`);
    // 1,000 OTA revisions, duplicated and out of order, through worker and API SIGKILLs (its own stack).
    if (runs('intake')) console.log(`\n${(await benchIntake(processEnv, db)).join('\n')}`);
    // 1,000 requests at once for a category's last rooms: how many are sold, and whether any night is sold twice.
    const withWorker = ['outbox', 'deposits', 'audit', 'webhooks', 'timeline', 'channels'];
    if (!withWorker.some(runs)) return;
    // The worker (workflows and the outbox relay) runs from here, so the figures above are the API's alone (but
    // the second run of booking creation, which starts one of its own beside its API).
    let worker = spawnEntryPoint('workers/main.ts', processEnv, 'ignore');
    /** SIGKILL, then a new worker process (the webhooks part's faults). */
    const killWorker = async () => {
      await worker.stop(0);
      worker = spawnEntryPoint('workers/main.ts', processEnv, 'ignore');
      await waitForWorker(stack.env.TEMPORAL_ADDRESS, 'hotel', worker);
    };
    try {
      await waitForWorker(stack.env.TEMPORAL_ADDRESS, 'hotel', worker);
      if (runs('outbox'))
        console.log(`\n${(await benchOutbox(db, stack.env.TEMPORAL_ADDRESS, DURATION_MS)).join('\n')}`);
      // A 200-room hotel's night audit by hand, then the closed day audited again (its own hotel).
      if (runs('audit'))
        console.log(`\n${(await benchAudit(baseUrl, db, users[14], stack.env.TEMPORAL_ADDRESS)).join('\n')}`);
      if (runs('webhooks')) console.log(`\n${(await benchWebhooks(baseUrl, db, users[16], killWorker)).join('\n')}`);
      if (runs('channels'))
        console.log(`\n${(await benchChannels(baseUrl, users[19], stack.env.CHANNEX_FAKE_URL)).join('\n')}`);
      if (runs('timeline')) console.log(`\n${(await benchTimeline(baseUrl, db, users[17])).join('\n')}`);
      if (runs('deposits')) {
        const { YOOKASSA_FAKE_URL, TEMPORAL_ADDRESS } = stack.env;
        console.log(`\n${(await benchDeposits(baseUrl, db, YOOKASSA_FAKE_URL, TEMPORAL_ADDRESS)).join('\n')}`);
      }
    } finally {
      await worker.stop();
    }
  } finally {
    await db.destroy();
    await api.stop();
    await stack.stop();
  }
}

async function benchLogins(baseUrl: string, users: string[]): Promise<void> {
  const ceiling = await bcryptCeiling(CLIENTS, DURATION_MS);
  console.log(`bcrypt ceiling (compare in one process, no HTTP):  ${formatLoad(ceiling)}`);

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
    async (client) => (await login(users[client], BENCH_PASSWORD)) === 200,
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
}

async function benchQuotes(fixture: Awaited<ReturnType<typeof createQuoteFixture>>): Promise<void> {
  const quote = (url: string) =>
    fetch(url, { headers: { authorization: `Bearer ${fixture.token}` } }).then(async (response) => {
      await response.arrayBuffer();
      return response.status === 200;
    });
  const byCategory = await runLoad(CLIENTS, DURATION_MS, () => quote(fixture.categoryQuote));
  console.log(`\nGET /quote (30 nights, ${CLIENTS} clients):                ${formatLoad(byCategory)}`);
  const byRoom = await runLoad(CLIENTS, DURATION_MS, () => quote(fixture.roomQuote));
  console.log(`GET /quote (30 nights, room_id, ${CLIENTS} clients):       ${formatLoad(byRoom)}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
