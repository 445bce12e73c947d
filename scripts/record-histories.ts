/**
 * `npm run record-histories [-- <workflowType | history>...]`: records the Temporal histories that
 * test/workflows/replay.test.ts replays against the current workflow code.
 *
 * Everything runs for real on a private stack (PostgreSQL, Temporal dev server, object store, mail catcher, fake
 * YooKassa): the worker is the project's own process (`workers/main.ts`), and the flows are driven through the HTTP
 * API of the app (built in this process and listening on a free port), exactly as clients drive them. Each finished
 * workflow's history is written to test/fixtures/histories/<workflowType>-<case>.json in the JSON form of Temporal's
 * tools.
 *
 * Re-record after an intended change to a workflow's commands (guarded by `patched()`). Files of the same name are
 * overwritten: rename the previous version's first (`booking-checked-out-v1.json`) to keep replaying them while
 * workflows started by that version may still be running. `-- booking` records only the cases of that type,
 * `-- booking-online-cancelled` only the case that writes that history (and the others it writes).
 */
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Client, Connection, WorkflowNotFoundError } from '@temporalio/client';
import { historyToJSON } from '@temporalio/common/lib/proto-utils';
import { buildApi } from '../src/app';
import type { SocketEndpoint } from '../src/platform/realtime/socket-endpoint';
import { fixtureRequisites } from '../src/modules/invoices/invoices.fixtures';
import { createNotificationsService } from '../src/modules/notifications/notifications.service';
import { pushChannel } from '../src/modules/push/push.channel';
import { loadConfig } from '../src/config';
import { createPgListener, type PgListener } from '../src/platform/db/pg-listener';
import { createDb, createProcessDb, migrateToLatest, type Db } from '../src/platform/db/knex';
import { createLogger } from '../src/platform/logger';
import { pairAgent, startReferenceAgent } from '../test/fakes/agent';
import { startFakePushService } from '../test/fakes/push';
import { fakeChannexControl } from '../test/fakes/channex';
import { fakeTTLockControl } from '../test/fakes/ttlock';
import { startFakeTv } from '../test/fakes/tv';
import { fakeYooKassaControl } from '../test/fakes/yookassa';
import { fiscalWorkflowIds } from '../workflows/contracts/fiscal';
import { bookingPaymentWorkflowId } from '../workflows/contracts/booking-payments';
import { channelWorkflowIds } from '../workflows/contracts/channels';
import { channelIntakeWorkflowIds } from '../workflows/contracts/channel-intake';
import { depositWorkflowId } from '../workflows/contracts/deposits';
import { invoiceWorkflowIds } from '../workflows/contracts/invoices';
import { pushWorkflowIds } from '../workflows/contracts/push';
import { webhookWorkflowIds } from '../workflows/contracts/webhooks';
import { spawnEntryPoint, waitForWorker, type AppProcess } from './stack/app-processes';
import { startEphemeralStack, type RunningStack } from './stack/stack';

const ROOT = path.resolve(__dirname, '..');
const HISTORIES_DIR = path.join(ROOT, 'test/fixtures/histories');
const TASK_QUEUE = 'hotel';

/** Shared by the worker process and the in-process API, so e-mailed links match. Obviously fake values only. */
const APP_ENV = {
  NODE_ENV: 'test',
  LOG_LEVEL: 'silent',
  JWT_SECRET: 'record-histories-secret-long-enough-0123456789',
  BASE_URL: 'http://api.test',
  APP_URL: 'http://app.test',
  RATE_LIMIT_MAX_PER_IP: '1000000',
  RATE_LIMIT_MAX_PER_ACCOUNT: '1000000',
  ENCRYPTION_KEYS: `record:${Buffer.alloc(32, 7).toString('base64')}`,
  VAPID_PUBLIC_KEY: 'BHQZq8r8VKyNt2Fyb3tFADVImRn8psYqSyye3-gDqyOyB7AX8VhP3UAt_K_ROwwZ5GTbzZW1H8mm40f3rX-L6rc',
  VAPID_PRIVATE_KEY: 'e8NXpqKsuVzg-UgnH6VUyCs6vVK_gt05SCjLHXCUOKU',
  VAPID_SUBJECT: 'mailto:push@hotel.test',
  // The review invitation a second after the check-out, not the hotel's hours later.
  REVIEW_INVITATION_DELAY_MS: '1000',
  // A webhook receiver that never answers pauses its subscription after 3 seconds of retries, not 3 days.
  WEBHOOK_RETRY_HORIZON_SECONDS: '3',
  // A move planned for tomorrow carried out a second after it is planned.
  PLANNED_MOVE_DELAY_MS: '1000',
};

const CONFIRM_PREFIX = 'http://api.test/api/auth/confirm-email?token=';
const RESET_PREFIX = 'http://app.test/reset-password?token=';
const INVITE_PREFIX = 'http://app.test/accept-invite?token=';

/** Every name, e-mail and phone the recorder sends: none of them may reach a history. */
const FAKE = {
  password: 'replay-pass-1',
  contact: 'Replay Contact',
  phone: '+70000000001',
  guestLastName: 'Replayguest',
  guestFirstName: 'Fixture',
  guestPhone: '+70000000002',
  shopSecret: 'replay-shop-secret',
  email: (label: string) => `replay-${label}@example.test`,
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not after ${timeoutMs} ms`);
    await sleep(150);
  }
}

/** The app of src/app.ts in this process, listening on a free port; `overrides` are environment variables. */
class Api {
  private constructor(
    readonly baseUrl: string,
    readonly db: Db,
    private readonly server: Server,
    private readonly listener: PgListener,
    private readonly sockets: SocketEndpoint[],
    private readonly built: { close(): Promise<void> },
  ) {}

  /** The agent channel of this API (`ws://…/agents/ws`). */
  get agentsUrl(): string {
    return `${this.baseUrl.replace(/^http/, 'ws')}/agents/ws`;
  }

  static async start(stackEnv: Record<string, string>, overrides: Record<string, string> = {}): Promise<Api> {
    const config = loadConfig({ ...APP_ENV, ...stackEnv, ...overrides });
    const db = createProcessDb(config, 'api');
    const logger = createLogger('silent', 'record-histories');
    const listener = createPgListener({ connectionString: config.databaseUrl, logger });
    const built = buildApi({ config, db, logger, listener });
    const { app, sockets } = built;
    const server = createServer(app);
    // The agent channel and any other WebSocket endpoint the modules declare.
    const endpoints = sockets();
    for (const endpoint of endpoints) endpoint.attach(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return new Api(
      `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      db,
      server,
      listener,
      endpoints,
      built,
    );
  }

  /** One JSON call; any other status than `expected` throws with the answer. */
  async call<T = Record<string, unknown>>(
    method: string,
    route: string,
    { token, body, expected = 200 }: { token?: string; body?: unknown; expected?: number } = {},
  ): Promise<T> {
    const response = await fetch(`${this.baseUrl}${route}`, {
      method,
      redirect: 'manual',
      headers: {
        ...(body !== undefined && { 'content-type': 'application/json' }),
        ...(token && { authorization: `Bearer ${token}` }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (response.status !== expected) throw new Error(`${method} ${route}: ${response.status} ${text}`);
    const json = response.headers.get('content-type')?.includes('application/json');
    return (json && text ? JSON.parse(text) : {}) as T;
  }

  async close(): Promise<void> {
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    this.server.closeAllConnections();
    await Promise.all(this.sockets.map((endpoint) => endpoint.close()));
    await closed;
    // The Temporal connection the API made (lazy), after the queries in flight it settles.
    await this.built.close();
    await this.listener.close();
    await this.db.destroy();
  }
}

interface Hotel {
  slug: string;
  hotelId: string;
  userId: string;
  email: string;
  token: string;
}

interface Recorder {
  stackEnv: Record<string, string>;
  api: Api;
  client: Client;
}

async function mailTo(env: Record<string, string>, address: string, count = 1): Promise<string[]> {
  return until(`${count} e-mail(s) to ${address}`, async () => {
    const response = await fetch(`${env.MAIL_CATCHER_URL}/api/messages?to=${encodeURIComponent(address)}`);
    const messages = (await response.json()) as { text: string }[];
    return messages.length >= count ? messages.map((m) => m.text) : undefined;
  });
}

function tokenIn(text: string, prefix: string): string {
  const link = text.split(/\s+/).find((word) => word.startsWith(prefix));
  if (!link) throw new Error(`no link starting with ${prefix}`);
  return new URL(link).searchParams.get('token') ?? '';
}

/** The id of the workflow the outbox relay started (or will start) for this message. */
function outboxWorkflowId(db: Db, workflowType: string, idPrefix: string): Promise<string> {
  return until(`outbox message ${workflowType} ${idPrefix}`, async () => {
    const row = await db('outbox')
      .whereRaw("message->>'workflowType' = ?", [workflowType])
      .andWhereRaw("message->>'workflowId' LIKE ?", [`${idPrefix}%`])
      .orderBy('id', 'desc')
      .select(db.raw("message->>'workflowId' AS workflow_id"))
      .first();
    return row?.workflow_id as string | undefined;
  });
}

/**
 * The first run of each workflow id the recorder saw: the one it drives, awaits and saves. A provider notification
 * arriving after a money workflow finished starts a new run under the same id (`reviveFinished`): not the case's.
 */
const firstRuns = new Map<string, string>();

/** Waits for the workflow to exist (the outbox relay starts it once the request's transaction has committed). */
async function started(client: Client, workflowId: string): Promise<string> {
  const known = firstRuns.get(workflowId);
  if (known) return known;
  const runId = await until(`workflow ${workflowId} started`, () =>
    client.workflow
      .getHandle(workflowId)
      .describe()
      .then(
        (description) => description.runId,
        (error: unknown) => {
          if (error instanceof WorkflowNotFoundError) return undefined;
          throw error;
        },
      ),
  );
  firstRuns.set(workflowId, runId);
  return runId;
}

/** Waits for the workflow's first run to start and finish; returns its result. */
async function finished(client: Client, workflowId: string, timeoutMs = 60_000): Promise<unknown> {
  const runId = await started(client, workflowId);
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`workflow ${workflowId} did not finish in ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    return await Promise.race([client.workflow.getHandle(workflowId, runId).result(), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

let hotelCount = 0;

/** Registers a hotel through the API, confirms it by the e-mailed link and signs its owner in. */
async function registerHotel({ api, stackEnv }: Recorder, label: string): Promise<Hotel> {
  hotelCount += 1;
  const email = FAKE.email(`owner-${label}`);
  await api.call('POST', '/api/auth/register', {
    expected: 201,
    body: {
      hotel_name: `Replay Hotel ${hotelCount}`,
      address: 'Fixture street 1',
      contact: FAKE.contact,
      email,
      phone: FAKE.phone,
      password: FAKE.password,
    },
  });
  const [message] = await mailTo(stackEnv, email);
  await api.call('GET', `/api/auth/confirm-email?token=${tokenIn(message, CONFIRM_PREFIX)}`, { expected: 302 });
  const login = await api.call<{ access_token: string; user: { id: string; hotelId: string; hotelSlug: string } }>(
    'POST',
    '/api/auth/login',
    { body: { email, password: FAKE.password } },
  );
  return {
    slug: login.user.hotelSlug,
    hotelId: login.user.hotelId,
    userId: login.user.id,
    email,
    token: login.access_token,
  };
}

const localDay = (offsetDays: number, timeZone = 'Europe/Moscow') =>
  new Intl.DateTimeFormat('en-CA', { timeZone }).format(new Date(Date.now() + offsetDays * 86_400_000));

async function hotelWithRoom(r: Recorder, label: string, settings: Record<string, unknown> = {}) {
  const hotel = await registerHotel(r, label);
  const api = (route: string) => `/api/hotels/${hotel.slug}${route}`;
  if (Object.keys(settings).length > 0)
    await r.api.call('PATCH', api('/settings'), { token: hotel.token, body: settings });
  const category = await r.api.call<{ id: string }>('POST', api('/room-categories'), {
    token: hotel.token,
    expected: 201,
    body: { name: 'Fixture category', base_price: 4000 },
  });
  const room = await r.api.call<{ id: string }>('POST', api('/rooms'), {
    token: hotel.token,
    expected: 201,
    body: { number: '101', category_id: category.id },
  });
  const book = (checkIn: number, checkOut: number, guest: Record<string, string> = {}) =>
    r.api.call<{ id: string; price: string; category_id: string }>('POST', api('/bookings'), {
      token: hotel.token,
      expected: 201,
      body: {
        room_id: room.id,
        check_in: localDay(checkIn),
        check_out: localDay(checkOut),
        guest_last_name: FAKE.guestLastName,
        guest_first_name: FAKE.guestFirstName,
        guest_phone: FAKE.guestPhone,
        ...guest,
      },
    });
  const setStatus = (bookingId: string, status: string) =>
    r.api.call('PATCH', api(`/bookings/${bookingId}`), { token: hotel.token, body: { status } });
  return { hotel, api, room, book, setStatus };
}

/** A second room (102) and the TV system on a desk's agent knowing both rooms, for `use`; then stopped. */
async function withTvDesk<T>(
  r: Recorder,
  stay: Awaited<ReturnType<typeof hotelWithRoom>>,
  use: (next: { id: string }) => Promise<T>,
): Promise<T> {
  const { hotel, api } = stay;
  const next = await r.api.call<{ id: string }>('POST', api('/rooms'), {
    token: hotel.token,
    expected: 201,
    body: { number: '102', category_id: (await stay.book(30, 31)).category_id },
  });
  const tv = await startFakeTv();
  const { workstation, agent } = await pairedDesk(r, stay, { name: 'Fixture TV desk' });
  try {
    await r.api.call('PATCH', api('/tv-integration/settings'), {
      token: hotel.token,
      body: {
        enabled: true,
        connection_type: 'agent',
        agent_workstation_id: workstation.id,
        server_url: tv.url,
        default_language: 'ru',
        netup_room_number: { [stay.room.id]: '101', [next.id]: '102' },
      },
    });
    return await use(next);
  } finally {
    await agent.stop();
    await tv.close();
  }
}

/** A hotel with a room and a tariff, connected to a property of its own at the stack's fake Channex. */
async function connectedToChannex(r: Recorder, label: string) {
  const stay = await hotelWithRoom(r, label);
  const { hotel, api, room } = stay;
  const tariff = await r.api.call<{ id: string }>('POST', api('/tariffs'), {
    token: hotel.token,
    expected: 201,
    body: { name: 'Fixture tariff' },
  });
  const channex = fakeChannexControl(r.stackEnv.CHANNEX_FAKE_URL);
  const property = await channex.openProperty(`replay-${hotel.slug}`, {
    api_key: `replay-key-${hotel.slug}`,
    room_types: [{ title: 'Fixture room type', rate_plans: [{ title: 'Fixture plan' }] }],
  });
  const [roomType] = property.room_types;
  await r.api.call('POST', api('/channel-connection'), {
    token: hotel.token,
    expected: 201,
    body: {
      provider: 'channex',
      api_key: `replay-key-${hotel.slug}`,
      property_id: property.id,
      room_types: [{ room_type_id: roomType.id, category_id: (room as { category_id?: string }).category_id }],
      rate_plans: [{ rate_plan_id: roomType.rate_plans[0].id, tariff_id: tariff.id }],
    },
  });
  return { ...stay, channex, property, roomType };
}

let shopCount = 0;

/** A hotel with a room and a YooKassa shop at the stack's fake, which notifies this recorder's API. */
async function hotelWithShop(r: Recorder, label: string) {
  const stay = await hotelWithRoom(r, label);
  const { hotel, api } = stay;
  shopCount += 1;
  const shopId = String(900_000 + shopCount);
  const fake = fakeYooKassaControl(r.stackEnv.YOOKASSA_FAKE_URL);
  await fake.openShop(shopId, FAKE.shopSecret, `${r.api.baseUrl}/api/payments/yookassa/notifications`);
  await r.api.call('POST', api('/payment-gateways'), {
    token: hotel.token,
    expected: 201,
    body: { provider: 'yookassa', shop_id: shopId, secret_key: FAKE.shopSecret },
  });
  const depositCall = (method: string, bookingId: string, route = '', body?: unknown, expected = 200) =>
    r.api.call<Deposit>(method, api(`/bookings/${bookingId}/deposit${route}`), { token: hotel.token, body, expected });
  const depositWhen = (bookingId: string, what: string, done: (deposit: Deposit) => boolean) =>
    until(`deposit ${what}`, async () => {
      const deposit = await depositCall('GET', bookingId);
      return done(deposit) ? deposit : undefined;
    });
  return {
    ...stay,
    fake,
    depositCall,
    depositWhen,
    /** Takes a deposit and returns the id of its workflow, whose first run is the one to save. */
    async openDeposit(bookingId: string, body: Record<string, unknown>): Promise<string> {
      const created = await depositCall('POST', bookingId, '', body, 201);
      const workflowId = depositWorkflowId(created.id);
      await started(r.client, workflowId);
      return workflowId;
    },
    /** The guest pays on the deposit's provider page with the test card that succeeds. */
    async payDeposit(bookingId: string): Promise<void> {
      const { confirmation_url } = await depositWhen(bookingId, 'payment page', (d) => Boolean(d.confirmation_url));
      await fake.pay(confirmation_url!, 'success');
    },
  };
}

/** A workstation of the hotel (with `devices`), paired with the reference agent, online. */
async function pairedDesk(
  r: Recorder,
  { hotel, api }: Awaited<ReturnType<typeof hotelWithRoom>>,
  body: Record<string, unknown>,
  devices: Record<string, unknown>[] = [],
) {
  const workstation = await r.api.call<{ id: string }>('POST', api('/workstations'), {
    token: hotel.token,
    expected: 201,
    body,
  });
  for (const device of devices) {
    await r.api.call('POST', api(`/workstations/${workstation.id}/devices`), {
      token: hotel.token,
      expected: 201,
      body: device,
    });
  }
  const code = await r.api.call<{ pair_code: string }>('POST', api(`/workstations/${workstation.id}/pair-code`), {
    token: hotel.token,
    expected: 201,
  });
  const pairing = await pairAgent(r.api.baseUrl, code.pair_code);
  const agent = startReferenceAgent({ url: r.api.agentsUrl, credential: pairing.credential });
  await agent.waitForWelcome();
  return { workstation, agent };
}

/** A hotel with a room whose door has a lock, the stack's fake lock cloud, and a desk whose reference agent is online. */
async function hotelWithEncoder(r: Recorder, label: string) {
  const stay = await hotelWithRoom(r, label);
  const { hotel, api } = stay;
  const account = {
    clientId: `replay-client-${label}`,
    clientSecret: FAKE.shopSecret,
    username: `replay-${label}`,
    password: FAKE.password,
  };
  await fakeTTLockControl(r.stackEnv.TTLOCK_API_URL).registerAccount(account);
  await r.api.call('PATCH', api('/lockvendor/config'), {
    token: hotel.token,
    body: {
      client_id: account.clientId,
      client_secret: account.clientSecret,
      username: account.username,
      password: account.password,
      enabled: true,
    },
  });
  await r.api.call('POST', api('/lockvendor/room-locks'), {
    token: hotel.token,
    expected: 201,
    body: { lock_mac: 'AA:BB:CC:DD:EE:01', room_id: stay.room.id, build_no: 1, floor_no: 1 },
  });
  const { workstation, agent } = await pairedDesk(r, stay, { name: 'Fixture desk', ttlock_com_port: 'COM3' });
  return {
    ...stay,
    agent,
    /** Asks for a card at the desk; the id of its workflow. */
    async issueCard(bookingId: string): Promise<string> {
      const issued = await r.api.call<{ id: string }>('POST', api('/lockvendor/issue-card'), {
        token: hotel.token,
        expected: 202,
        body: { booking_id: bookingId, workstation_id: workstation.id, sectors: [1, 2] },
      });
      return `card:${issued.id}`;
    },
  };
}

interface Deposit {
  id: string;
  status: string;
  confirmation_url: string | null;
  pending_operation: string | null;
}

async function invite(r: Recorder, api: Api, owner: Hotel, label: string) {
  const email = FAKE.email(`staff-${label}`);
  const member = await api.call<{ id: string }>('POST', `/api/hotels/${owner.slug}/users`, {
    token: owner.token,
    expected: 201,
    body: { name: `Replay Staff ${label}`, email, role: 'receptionist' },
  });
  const [message] = await mailTo(r.stackEnv, email);
  return { userId: member.id, token: tokenIn(message, INVITE_PREFIX) };
}

/** Triggers a schedule, waits for the run it starts to finish, and returns that workflow's id. */
async function scheduledRun(r: Recorder, scheduleId: string): Promise<string> {
  const schedule = r.client.schedule.getHandle(scheduleId);
  const before = new Set((await schedule.describe()).info.recentActions.map((a) => a.action.workflow.workflowId));
  await schedule.trigger();
  const workflowId = await until(`${scheduleId} run`, async () => {
    const actions = (await schedule.describe()).info.recentActions;
    return actions.map((a) => a.action.workflow.workflowId).find((id) => !before.has(id));
  });
  await finished(r.client, workflowId);
  return workflowId;
}

interface Case {
  workflowType: string;
  name: string;
  /** The histories it writes (file names without `.json`), which a filter may name. */
  histories: string[];
  /** Drives the flow to its end and returns the ids of the finished workflows to save, by history name. */
  run(r: Recorder): Promise<Record<string, string>>;
}

const CASES: Case[] = [
  {
    workflowType: 'channelIntake',
    name: 'a hotel connected to the fake Channex: an OTA booking taken in, then the hotel disconnected',
    histories: ['channelIntake-disconnected', 'channelIntakeSweep-schedule'],
    async run(r) {
      const { hotel, api, room } = await hotelWithRoom(r, 'channel-intake');
      const channex = fakeChannexControl(r.stackEnv.CHANNEX_FAKE_URL);
      const property = await channex.openProperty(`replay-intake-${hotel.slug}`, {
        api_key: `replay-intake-key-${hotel.slug}`,
        room_types: [{ title: 'Fixture room type', rate_plans: [{ title: 'Fixture plan' }] }],
      });
      const [roomType] = property.room_types;
      await r.api.call('POST', api('/channel-connection'), {
        token: hotel.token,
        expected: 201,
        body: {
          provider: 'channex',
          api_key: `replay-intake-key-${hotel.slug}`,
          property_id: property.id,
          room_types: [{ room_type_id: roomType.id, category_id: (room as { category_id?: string }).category_id }],
          rate_plans: [],
        },
      });
      await r.api.call('PUT', api('/channel-intake/webhook'), { token: hotel.token });
      const revision = await channex.makeRevision(property.id, {
        arrival_date: localDay(5),
        departure_date: localDay(7),
        rooms: [{ room_type_id: roomType.id, rate_plan_id: roomType.rate_plans[0].id, adults: 1 }],
        customer: { name: FAKE.guestFirstName, surname: FAKE.guestLastName, phone: FAKE.guestPhone },
      });
      await until('the OTA booking acknowledged', async () =>
        (await channex.revisions(property.id)).some(
          (item) => item.id === revision.id && item.acknowledge_status === 'acknowledged',
        )
          ? true
          : undefined,
      );
      await r.api.call('DELETE', api('/channel-connection'), { token: hotel.token, expected: 204 });
      // The sweep wakes the hotel's intake, whose round finds it disconnected and ends.
      const sweep = await scheduledRun(r, 'channel-intake-sweep');
      const intake = channelIntakeWorkflowIds.intake(hotel.hotelId);
      await finished(r.client, intake);
      return { 'channelIntake-disconnected': intake, 'channelIntakeSweep-schedule': sweep };
    },
  },
  {
    workflowType: 'channelSync',
    name: 'a hotel connected to Channex: the full sync, a booking pushed, then disconnected',
    histories: ['channelSync-disconnected'],
    async run(r) {
      const { hotel, api, book, channex, property, roomType } = await connectedToChannex(r, 'channels');
      await book(3, 4);
      await until('the booking at the channel', async () => {
        const ari = await channex.ari(property.id);
        const pushed = ari.availability[roomType.id]?.[localDay(3)] === 0 && Object.keys(ari.restrictions).length > 0;
        return pushed || undefined;
      });
      await r.api.call('DELETE', api('/channel-connection'), { token: hotel.token, expected: 204 });
      const workflowId = channelWorkflowIds.sync(hotel.hotelId);
      await finished(r.client, workflowId);
      return { 'channelSync-disconnected': workflowId };
    },
  },
  {
    workflowType: 'channelSync',
    name: 'a value changed at the channel behind our back: reconciled on request and sent again, then disconnected',
    histories: ['channelSync-reconciled'],
    async run(r) {
      const { hotel, api, channex, property, roomType } = await connectedToChannex(r, 'channels-reconciled');
      const held = async () => (await channex.ari(property.id)).availability[roomType.id] ?? {};
      await until('the full sync at the channel', async () => Object.keys(await held()).length === 365 || undefined);
      await channex.editAtChannel(property.id, 'availability', [
        { room_type_id: roomType.id, date: localDay(3), availability: 0 },
      ]);
      await r.api.call('POST', api('/channel-connection/reconcile'), { token: hotel.token, expected: 202 });
      await until('ours again at the channel', async () => (await held())[localDay(3)] === 1 || undefined);
      await r.api.call('DELETE', api('/channel-connection'), { token: hotel.token, expected: 204 });
      const workflowId = channelWorkflowIds.sync(hotel.hotelId);
      await finished(r.client, workflowId);
      return { 'channelSync-reconciled': workflowId };
    },
  },
  {
    workflowType: 'webhookDelivery',
    name: 'a receiver that never answers: retried to the horizon, then paused',
    histories: ['webhookDelivery-paused'],
    async run(r) {
      const { hotel, book } = await hotelWithRoom(r, 'webhooks');
      // A name under .invalid never resolves: every attempt fails, as a receiver that is down.
      const subscription = await r.api.call<{ id: string }>('POST', `/api/hotels/${hotel.slug}/webhooks`, {
        token: hotel.token,
        expected: 201,
        body: { endpoint: 'https://receiver.webhooks.invalid/hook', event_types: ['booking_created'] },
      });
      await book(3, 4);
      const workflowId = webhookWorkflowIds.delivery(subscription.id);
      await finished(r.client, workflowId);
      return { 'webhookDelivery-paused': workflowId };
    },
  },
  {
    workflowType: 'accountEmail',
    name: 'confirmation + reset (and the account requests)',
    histories: ['accountEmail-confirmation', 'accountEmail-reset', 'accountRequest-reset', 'accountRequest-unknown'],
    async run(r) {
      // Registration sends the confirmation; the link confirms the account.
      const owner = await registerHotel(r, 'account-email');
      const confirmation = await outboxWorkflowId(r.api.db, 'accountEmail', `email:confirmation:${owner.userId}:`);
      await r.api.call('POST', '/api/auth/forgot-password', { body: { email: owner.email } });
      const reset = await outboxWorkflowId(r.api.db, 'accountEmail', `email:reset:${owner.userId}:`);
      const resetRequest = await outboxWorkflowId(r.api.db, 'accountRequest', 'account-request:');
      const messages = await mailTo(r.stackEnv, owner.email, 2);
      await r.api.call('POST', '/api/auth/reset-password', {
        body: { token: tokenIn(messages[1], RESET_PREFIX), password: 'replay-pass-2' },
      });
      // An address without an account: the request is handled and nothing is sent.
      await r.api.call('POST', '/api/auth/forgot-password', { body: { email: FAKE.email('nobody') } });
      const unknownRequest = await outboxWorkflowId(r.api.db, 'accountRequest', 'account-request:');
      for (const id of [confirmation, reset, resetRequest]) await finished(r.client, id);
      expectResult(await finished(r.client, unknownRequest), 'nothing_to_send');
      return {
        'accountEmail-confirmation': confirmation,
        'accountEmail-reset': reset,
        'accountRequest-reset': resetRequest,
        'accountRequest-unknown': unknownRequest,
      };
    },
  },
  {
    workflowType: 'staffInvitation',
    name: 'accepted + expired',
    histories: ['staffInvitation-accepted', 'staffInvitation-expired'],
    async run(r) {
      const owner = await registerHotel(r, 'invitations');
      const accepted = await invite(r, r.api, owner, 'accepting');
      await r.api.call('POST', '/api/auth/accept-invite', { body: { token: accepted.token, password: 'welcome-1' } });
      const acceptedId = `invitation:${accepted.userId}`;
      expectResult(await finished(r.client, acceptedId), 'accepted');

      // The invitation lifetime is configuration the API hands to the workflow: two seconds here.
      const shortLived = await Api.start(r.stackEnv, { INVITATION_TTL_SECONDS: '2' });
      try {
        const expired = await invite(r, shortLived, owner, 'expiring');
        const expiredId = `invitation:${expired.userId}`;
        expectResult(await finished(r.client, expiredId), 'expired');
        return { 'staffInvitation-accepted': acceptedId, 'staffInvitation-expired': expiredId };
      } finally {
        await shortLived.close();
      }
    },
  },
  {
    workflowType: 'bookingLife',
    name: 'checked_out + cancelled',
    // The first version's histories (`booking-*`, and `-v1`, `-v2` of its earlier patches) are kept: they replay the
    // `booking` workflows still running. Rename the current ones (`-v2`) before recording a new version of these.
    histories: ['bookingLife-checked-out', 'bookingLife-cancelled'],
    async run(r) {
      const { book, setStatus } = await hotelWithRoom(r, 'bookings');
      const stay = await book(-1, 2);
      await setStatus(stay.id, 'checked_in');
      await setStatus(stay.id, 'checked_out');
      const cancelled = await book(5, 6);
      await setStatus(cancelled.id, 'cancelled');
      const stayId = `booking:${stay.id}`;
      const cancelledId = `booking:${cancelled.id}`;
      expectResult(await finished(r.client, stayId), 'checked_out');
      expectResult(await finished(r.client, cancelledId), 'cancelled');
      return { 'bookingLife-checked-out': stayId, 'bookingLife-cancelled': cancelledId };
    },
  },
  {
    workflowType: 'bookingLife',
    name: 'moved tonight (the TV system told, through a desk) and checked out',
    histories: ['bookingLife-moved'],
    async run(r) {
      const stay = await hotelWithRoom(r, 'moves');
      return withTvDesk(r, stay, async (next) => {
        const moved = await stay.book(0, 2);
        await stay.setStatus(moved.id, 'checked_in');
        await r.api.call('POST', stay.api(`/bookings/${moved.id}/move`), {
          token: stay.hotel.token,
          body: { room_id: next.id, reason: 'Fixture move' },
        });
        await stay.setStatus(moved.id, 'checked_out');
        const movedId = `booking:${moved.id}`;
        expectResult(await finished(r.client, movedId), 'checked_out');
        return { 'bookingLife-moved': movedId };
      });
    },
  },
  {
    workflowType: 'bookingLife',
    name: 'a move planned for tomorrow, carried out by the workflow (PLANNED_MOVE_DELAY_MS), then checked out',
    histories: ['bookingLife-planned-move'],
    async run(r) {
      // Days turn at midnight: tomorrow's room is within a day of now, where the database lets the guest be.
      const stay = await hotelWithRoom(r, 'planned-moves', { check_in_time: '00:00', check_out_time: '00:00' });
      return withTvDesk(r, stay, async (next) => {
        const moved = await stay.book(0, 3);
        await stay.setStatus(moved.id, 'checked_in');
        await r.api.call('POST', stay.api(`/bookings/${moved.id}/move`), {
          token: stay.hotel.token,
          body: { room_id: next.id, reason: 'Fixture move', from: localDay(1) },
        });
        await until('the planned move carried out', async () => {
          const booking = await r.api.call<{ room_id: string }>('GET', stay.api(`/bookings/${moved.id}`), {
            token: stay.hotel.token,
          });
          return booking.room_id === next.id || undefined;
        });
        await stay.setStatus(moved.id, 'checked_out');
        const movedId = `booking:${moved.id}`;
        expectResult(await finished(r.client, movedId), 'checked_out');
        return { 'bookingLife-planned-move': movedId };
      });
    },
  },
  {
    workflowType: 'bookingLife',
    name: 'online: confirmed and checked out + cancelled, with the guest e-mails, loyalty and the review invitation',
    histories: ['bookingLife-online-confirmed', 'bookingLife-online-cancelled'],
    async run(r) {
      const { hotel, api, book, setStatus } = await hotelWithRoom(r, 'online-bookings');
      await r.api.call('PATCH', api('/review-settings'), { token: hotel.token, body: { invitations_enabled: true } });
      await r.api.call('PATCH', api('/loyalty/settings'), {
        token: hotel.token,
        body: { enabled: true, tiers: [{ name: 'Base', threshold: 0, earn_rate: 5 }] },
      });
      const online = (checkIn: number, checkOut: number, guestEmail: string) =>
        book(checkIn, checkOut, { source: 'online', status: 'inquiry', guest_email: guestEmail });
      const stayGuest = FAKE.email('online-stay');
      const stay = await online(-1, 2, stayGuest);
      await mailTo(r.stackEnv, stayGuest);
      await setStatus(stay.id, 'confirmed');
      await mailTo(r.stackEnv, stayGuest, 2);
      await setStatus(stay.id, 'checked_in');
      await setStatus(stay.id, 'checked_out');
      const cancelledGuest = FAKE.email('online-cancelled');
      const cancelled = await online(5, 6, cancelledGuest);
      await setStatus(cancelled.id, 'cancelled');
      const stayId = `booking:${stay.id}`;
      const cancelledId = `booking:${cancelled.id}`;
      expectResult(await finished(r.client, stayId), 'checked_out');
      expectResult(await finished(r.client, cancelledId), 'cancelled');
      // Received and cancelled: the workflow ends only once its e-mails are sent; the stay's also with its invitation.
      await mailTo(r.stackEnv, cancelledGuest, 2);
      await mailTo(r.stackEnv, stayGuest, 3);
      return { 'bookingLife-online-confirmed': stayId, 'bookingLife-online-cancelled': cancelledId };
    },
  },
  {
    workflowType: 'noShowSweep',
    name: 'one due booking',
    histories: ['noShowSweep-one-due', 'bookingLife-no-show'],
    async run(r) {
      const { book } = await hotelWithRoom(r, 'no-show', { no_show_auto_cancel: true, no_show_hours: 1 });
      const missed = await book(-2, 1);
      await started(r.client, `booking:${missed.id}`);
      const sweepId = 'record-no-show-sweep';
      const result = (await r.client.workflow.execute('noShowSweep', {
        taskQueue: TASK_QUEUE,
        workflowId: sweepId,
      })) as {
        cancelled: number;
      };
      if (result.cancelled < 1) throw new Error(`noShowSweep cancelled nothing: ${JSON.stringify(result)}`);
      // The sweep's cancellation reaches the booking's own workflow as a signal (reason no_show).
      expectResult(await finished(r.client, `booking:${missed.id}`), 'cancelled');
      return { 'noShowSweep-one-due': sweepId, 'bookingLife-no-show': `booking:${missed.id}` };
    },
  },
  {
    workflowType: 'autoCheckoutSweep',
    name: 'one overdue stay',
    histories: ['autoCheckoutSweep-one-due', 'bookingLife-auto-checkout'],
    async run(r) {
      const { book, setStatus } = await hotelWithRoom(r, 'auto-checkout', {
        auto_checkout: true,
        auto_checkout_hours: 0,
      });
      const overdue = await book(-3, -1);
      await setStatus(overdue.id, 'checked_in');
      await started(r.client, `booking:${overdue.id}`);
      const sweepId = 'record-auto-checkout-sweep';
      const result = (await r.client.workflow.execute('autoCheckoutSweep', {
        taskQueue: TASK_QUEUE,
        workflowId: sweepId,
      })) as { checkedOut: number };
      if (result.checkedOut < 1) throw new Error(`autoCheckoutSweep checked out nothing: ${JSON.stringify(result)}`);
      expectResult(await finished(r.client, `booking:${overdue.id}`), 'checked_out');
      return { 'autoCheckoutSweep-one-due': sweepId, 'bookingLife-auto-checkout': `booking:${overdue.id}` };
    },
  },
  {
    workflowType: 'maintenanceSweep',
    name: 'triggered by its schedule',
    histories: ['maintenanceSweep-schedule'],
    async run(r) {
      return { 'maintenanceSweep-schedule': await scheduledRun(r, 'maintenance-sweep') };
    },
  },
  {
    workflowType: 'unreadChatPush',
    name: 'triggered by its schedule',
    histories: ['unreadChatPush-schedule'],
    async run(r) {
      return { 'unreadChatPush-schedule': await scheduledRun(r, 'unread-chat-push') };
    },
  },
  {
    workflowType: 'loyaltyExpiry',
    name: 'triggered by its schedule',
    histories: ['loyaltyExpiry-schedule'],
    async run(r) {
      return { 'loyaltyExpiry-schedule': await scheduledRun(r, 'loyalty-expiry') };
    },
  },
  {
    workflowType: 'retentionSweep',
    name: 'triggered by its schedule',
    histories: ['retentionSweep-schedule'],
    async run(r) {
      return { 'retentionSweep-schedule': await scheduledRun(r, 'retention-sweep') };
    },
  },
  {
    workflowType: 'dailyReport',
    name: "the daily report e-mailed to the hotel's owner on request",
    histories: ['dailyReport-sent'],
    async run(r) {
      const hotel = await registerHotel(r, 'daily-report');
      const sent = await r.api.call<{ workflow_id: string }>('POST', `/api/hotels/${hotel.slug}/reports/daily/send`, {
        token: hotel.token,
        expected: 202,
        body: { date: localDay(-1) },
      });
      expectResult(await finished(r.client, sent.workflow_id), 1);
      return { 'dailyReport-sent': sent.workflow_id };
    },
  },
  {
    workflowType: 'nightAudit',
    name: 'schedule made, a day closed by hand, then a scheduled run with nothing to close',
    histories: ['nightAuditSchedule-enabled', 'nightAudit-by-hand', 'nightAudit-scheduled-nothing-due'],
    async run(r) {
      const { hotel, api, book, setStatus } = await hotelWithRoom(r, 'audit');
      await r.api.call('PUT', api('/night-audit/settings'), { token: hotel.token, body: { enabled: true, hour: 3 } });
      const sync = `night-audit-schedule:${hotel.hotelId}`;
      await finished(r.client, sync);
      const stay = await book(-1, 2);
      await setStatus(stay.id, 'checked_in');
      const run = await r.api.call<{ workflow_id: string }>('POST', api('/night-audit/runs'), {
        token: hotel.token,
        expected: 202,
      });
      await finished(r.client, run.workflow_id);
      return {
        'nightAuditSchedule-enabled': sync,
        'nightAudit-by-hand': run.workflow_id,
        'nightAudit-scheduled-nothing-due': await scheduledRun(r, `night-audit:${hotel.hotelId}`),
      };
    },
  },
  {
    workflowType: 'blockRelease',
    name: 'rolling: two nights released at once, the next awaited, then the block cancelled',
    histories: ['blockRelease-rolling-cancelled'],
    async run(r) {
      const { hotel, api, room } = await hotelWithRoom(r, 'blocks');
      const { category_id } = room as { id: string; category_id: string };
      const block = await r.api.call<{ id: string }>('POST', api('/blocks'), {
        token: hotel.token,
        expected: 201,
        body: {
          name: 'Fixture block',
          status: 'definite',
          release_kind: 'rolling',
          release_days: 2,
          allotment: [{ category_id, from: localDay(1), to: localDay(3), rooms: 1 }],
        },
      });
      await until('the first release', async () => {
        const read = await r.api.call<{ nights: { released: number }[] }>('GET', api(`/blocks/${block.id}`), {
          token: hotel.token,
        });
        return read.nights.filter((night) => night.released > 0).length === 2 ? true : undefined;
      });
      await r.api.call('PATCH', api(`/blocks/${block.id}`), { token: hotel.token, body: { status: 'cancelled' } });
      const workflowId = `block-release:${block.id}`;
      expectResult(await finished(r.client, workflowId), 'released');
      return { 'blockRelease-rolling-cancelled': workflowId };
    },
  },
  {
    workflowType: 'invoiceEmail',
    name: 'an invoice PDF e-mailed',
    histories: ['invoiceEmail-sent'],
    async run(r) {
      const { hotel, api, book } = await hotelWithRoom(r, 'invoices', fixtureRequisites('replay'));
      const stay = await book(0, 1);
      const folio = `/bookings/${stay.id}/folio`;
      await r.api.call('POST', api(`${folio}/lines`), {
        token: hotel.token,
        expected: 201,
        body: { kind: 'service', amount: '1000', description: 'Fixture service' },
      });
      const view = await r.api.call<{ folios: { id: string }[] }>('GET', api(folio), { token: hotel.token });
      const invoice = await r.api.call<{ id: string }>('POST', api('/invoices'), {
        token: hotel.token,
        expected: 201,
        body: { folio_id: view.folios[0].id },
      });
      const email = await r.api.call<{ id: string }>('POST', api(`/invoices/${invoice.id}/email`), {
        token: hotel.token,
        expected: 202,
        body: { to: FAKE.email('invoice') },
      });
      const workflowId = invoiceWorkflowIds.invoiceEmail(email.id);
      await finished(r.client, workflowId);
      await mailTo(r.stackEnv, FAKE.email('invoice'));
      return { 'invoiceEmail-sent': workflowId };
    },
  },
  {
    workflowType: 'deposit',
    name: 'hold released + charge refunded + cash cancelled',
    histories: ['deposit-hold-released', 'deposit-charge-refunded', 'deposit-cash-cancelled'],
    async run(r) {
      const shop = await hotelWithShop(r, 'deposits');
      const statusIs = (status: string) => (deposit: Deposit) =>
        deposit.status === status && !deposit.pending_operation;

      // A hold paid, the guest checked out, released with one deduction; the statement goes to the guest.
      const guestEmail = FAKE.email('deposit-guest');
      const heldStay = await shop.book(-1, 2, { guest_email: guestEmail });
      const hold = await shop.openDeposit(heldStay.id, { kind: 'hold', amount: '5000' });
      await shop.payDeposit(heldStay.id);
      await shop.depositWhen(heldStay.id, 'hold_confirmed', statusIs('hold_confirmed'));
      await shop.setStatus(heldStay.id, 'checked_in');
      await shop.setStatus(heldStay.id, 'checked_out');
      const deduction = { items: [{ name: 'Minibar', amount: '350' }] };
      await shop.depositCall('POST', heldStay.id, '/release', deduction, 202);
      await shop.depositWhen(heldStay.id, 'released', statusIs('released'));
      await mailTo(r.stackEnv, guestEmail);
      expectResult(await finished(r.client, hold), 'release');

      // A charge paid, refunded in part, then the rest.
      const chargedStay = await shop.book(3, 5);
      const charge = await shop.openDeposit(chargedStay.id, { kind: 'yookassa_charge', amount: '6000' });
      await shop.payDeposit(chargedStay.id);
      await shop.depositWhen(chargedStay.id, 'paid', statusIs('paid'));
      await shop.depositCall('POST', chargedStay.id, '/refund', { amount: '1000' }, 202);
      await shop.depositWhen(chargedStay.id, 'partially_refunded', statusIs('partially_refunded'));
      await shop.depositCall('POST', chargedStay.id, '/refund', {}, 202);
      await shop.depositWhen(chargedStay.id, 'refunded', statusIs('refunded'));
      expectResult(await finished(r.client, charge), 'refund');

      // Cash taken at the desk and handed back.
      const cashStay = await shop.book(6, 7);
      const cash = await shop.openDeposit(cashStay.id, { kind: 'cash', amount: '1500' });
      await shop.depositCall('DELETE', cashStay.id);
      expectResult(await finished(r.client, cash), 'cancel');
      return { 'deposit-hold-released': hold, 'deposit-charge-refunded': charge, 'deposit-cash-cancelled': cash };
    },
  },
  {
    workflowType: 'bookingPayment',
    name: 'paid',
    histories: ['bookingPayment-paid'],
    async run(r) {
      const shop = await hotelWithShop(r, 'online-payments');
      const stay = await shop.book(0, 2);
      const paymentsPath = shop.api(`/bookings/${stay.id}/online-payments`);
      const created = await r.api.call<{ id: string }>('POST', paymentsPath, {
        token: shop.hotel.token,
        expected: 201,
        body: {},
      });
      const paymentId = bookingPaymentWorkflowId(created.id);
      await started(r.client, paymentId);
      const confirmationUrl = await until('online payment page', async () => {
        const [payment] = await r.api.call<{ confirmation_url: string | null }[]>('GET', paymentsPath, {
          token: shop.hotel.token,
        });
        return payment.confirmation_url ?? undefined;
      });
      await shop.fake.pay(confirmationUrl, 'success');
      expectResult(await finished(r.client, paymentId), 'paid');
      const booking = await r.api.call<{ paid_amount: string }>('GET', shop.api(`/bookings/${stay.id}`), {
        token: shop.hotel.token,
      });
      expectResult(booking.paid_amount, stay.price);
      return { 'bookingPayment-paid': paymentId };
    },
  },
  {
    workflowType: 'cardIssuance',
    name: 'written + refused by the encoder',
    histories: ['cardIssuance-written', 'cardIssuance-refused'],
    async run(r) {
      const desk = await hotelWithEncoder(r, 'cards');
      const stay = await desk.book(0, 2);
      await desk.setStatus(stay.id, 'confirmed');
      try {
        const written = await desk.issueCard(stay.id);
        expectResult(await finished(r.client, written), 'written');
        desk.agent.setCardPresent(false);
        const refused = await desk.issueCard(stay.id);
        expectResult(await finished(r.client, refused), 'failed');
        return { 'cardIssuance-written': written, 'cardIssuance-refused': refused };
      } finally {
        await desk.agent.stop();
      }
    },
  },
  {
    workflowType: 'fiscalReceipt',
    name: 'printed + refused by the register',
    histories: ['fiscalReceipt-printed', 'fiscalReceipt-refused'],
    async run(r) {
      const stay = await hotelWithRoom(r, 'receipts');
      const register = { name: 'Fixture register', type: 'fiscal_register', connection: 'usb' };
      const { workstation, agent } = await pairedDesk(r, stay, { name: 'Fixture till' }, [register]);
      const booking = await stay.book(1, 2);
      const payAtDesk = async (amount: string) => {
        const paid = await r.api.call<{ fiscal_receipt: { id: string } }>(
          'POST',
          stay.api(`/bookings/${booking.id}/payments`),
          { token: stay.hotel.token, expected: 201, body: { amount, method: 'cash', workstation_id: workstation.id } },
        );
        return fiscalWorkflowIds.fiscalReceipt(paid.fiscal_receipt.id);
      };
      try {
        const printed = await payAtDesk('1000');
        expectResult(await finished(r.client, printed), 'printed');
        agent.setFiscalRefusal('Paper out');
        const refused = await payAtDesk('500');
        expectResult(await finished(r.client, refused), 'failed');
        return { 'fiscalReceipt-printed': printed, 'fiscalReceipt-refused': refused };
      } finally {
        await agent.stop();
      }
    },
  },
  {
    workflowType: 'pushDelivery',
    name: 'one device, refused as a private address by the worker',
    // `-v1` is kept: a delivery started before the subscriptions came in its input looks them up by an activity.
    histories: ['pushDelivery-refused'],
    async run(r) {
      // The device is the fake push service's (on 127.0.0.1): an API that may address it records the subscription,
      // and the worker, which may not, refuses the send for good: both activities run, the send fails once.
      const fake = await startFakePushService();
      const privateApi = await Api.start(r.stackEnv, { ALLOW_PRIVATE_OUTBOUND: 'true' });
      try {
        const hotel = await registerHotel(r, 'push');
        await privateApi.call('POST', `/api/hotels/${hotel.slug}/push/subscribe`, {
          token: hotel.token,
          body: fake.subscribe(),
        });
        const notifications = createNotificationsService(r.api.db);
        notifications.deliverAlso(pushChannel);
        const notification = await r.api.db.transaction((trx) =>
          notifications.notify(trx, hotel.hotelId, {
            type: 'widget_booking',
            title: 'Fixture booking',
            body: 'Fixture body',
          }),
        );
        const workflowId = pushWorkflowIds.pushDelivery(notification.id);
        const result = await finished(r.client, workflowId);
        if (JSON.stringify(result) !== JSON.stringify({ sent: 0, gone: 0, failed: 1 }))
          throw new Error(`pushDelivery: ${JSON.stringify(result)}`);
        return { 'pushDelivery-refused': workflowId };
      } finally {
        await privateApi.close();
        await fake.close();
      }
    },
  },
];

function expectResult(actual: unknown, expected: unknown): void {
  if (actual !== expected)
    throw new Error(`expected result ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
}

/**
 * Parts of a history the replayer never reads but that name the recording machine: the identity of the worker and
 * clients (`pid@host`) and the worker's sticky task queue (named after that identity).
 */
function scrub(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(scrub);
  if (!value || typeof value !== 'object') return value;
  const sticky = (value as { kind?: unknown }).kind === 'TASK_QUEUE_KIND_STICKY';
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => {
      if (key === 'identity' && typeof inner === 'string') return [key, 'history-recorder'];
      if (sticky && key === 'name' && typeof inner === 'string') return [key, 'history-recorder-sticky'];
      return [key, scrub(inner)];
    }),
  );
}

/** The history's text plus every payload decoded, to search for personal data. */
function readableText(history: unknown): string {
  const parts: string[] = [JSON.stringify(history)];
  const walk = (value: unknown) => {
    if (Array.isArray(value)) value.forEach(walk);
    else if (value && typeof value === 'object')
      for (const [key, inner] of Object.entries(value)) {
        if (key === 'data' && typeof inner === 'string') parts.push(Buffer.from(inner, 'base64').toString('utf8'));
        else walk(inner);
      }
  };
  walk(history);
  return parts.join('\n');
}

const FORBIDDEN = [
  '@example.test',
  FAKE.contact,
  FAKE.phone,
  FAKE.guestLastName,
  FAKE.guestFirstName,
  FAKE.guestPhone,
  FAKE.password,
  FAKE.shopSecret,
  'Replay Staff',
  `@${os.hostname()}`,
  os.homedir(),
];

async function save(client: Client, file: string, workflowId: string): Promise<{ events: number }> {
  const history = scrub(JSON.parse(historyToJSON(await client.workflow.getHandle(workflowId).fetchHistory()))) as {
    events: unknown[];
  };
  const text = readableText(history);
  const leaked = FORBIDDEN.filter((needle) => needle.length > 1 && text.includes(needle));
  if (leaked.length > 0) throw new Error(`${file}: personal or machine data in the history: ${leaked.join(', ')}`);
  writeFileSync(path.join(HISTORIES_DIR, `${file}.json`), `${JSON.stringify(history, null, 2)}\n`);
  return { events: history.events.length };
}

async function main(): Promise<void> {
  const filters = process.argv.slice(2);
  // A type or a history's name: `booking` (never `bookingPayment` for it) or `booking-online-cancelled`.
  const cases = CASES.filter(
    (c) => filters.length === 0 || filters.some((f) => f === c.workflowType || c.histories.includes(f)),
  );
  if (cases.length === 0) throw new Error(`no case matches ${filters.join(' ')}`);
  const startedAt = Date.now();
  let stack: RunningStack | undefined;
  let worker: AppProcess | undefined;
  let api: Api | undefined;
  let connection: Connection | undefined;
  const stop = async () => {
    await api?.close().catch(() => undefined);
    await connection?.close().catch(() => undefined);
    await worker?.stop().catch(() => undefined);
    await stack?.stop().catch(() => undefined);
  };
  process.once('SIGINT', () => void stop().finally(() => process.exit(130)));
  try {
    stack = await startEphemeralStack('record');
    const db = createDb(stack.env.DATABASE_URL, { role: 'migrations', poolMax: 2 });
    await migrateToLatest(db).finally(() => db.destroy());
    worker = spawnEntryPoint('workers/main.ts', { ...process.env, ...APP_ENV, ...stack.env, LOG_LEVEL: 'warn' });
    await waitForWorker(stack.env.TEMPORAL_ADDRESS, TASK_QUEUE, worker);
    connection = await Connection.connect({ address: stack.env.TEMPORAL_ADDRESS });
    const client = new Client({ connection });
    // The sweeps run only when this script says so: a scheduled run must not take the due bookings first.
    for (const id of ['no-show-sweep', 'auto-checkout-sweep'])
      await client.schedule.getHandle(id).pause('recording histories');
    api = await Api.start(stack.env);
    console.log(`stack ready in ${((Date.now() - startedAt) / 1000).toFixed(1)} s`);

    mkdirSync(HISTORIES_DIR, { recursive: true });
    const written = new Set<string>();
    for (const c of cases) {
      const caseStartedAt = Date.now();
      const ids = await c.run({ stackEnv: stack.env, api, client });
      const undeclared = Object.keys(ids).filter((file) => !c.histories.includes(file));
      if (undeclared.length > 0) throw new Error(`${c.name}: histories not declared: ${undeclared.join(', ')}`);
      for (const [file, workflowId] of Object.entries(ids)) {
        const { events } = await save(client, file, workflowId);
        written.add(`${file}.json`);
        console.log(`  ${file}.json  ${events} events`);
      }
      console.log(`${c.workflowType} (${c.name}) in ${((Date.now() - caseStartedAt) / 1000).toFixed(1)} s`);
    }
    const untouched = readdirSync(HISTORIES_DIR).filter((f) => f.endsWith('.json') && !written.has(f));
    if (untouched.length > 0) console.log(`kept as they were: ${untouched.join(', ')}`);
    console.log(
      `${written.size} histories written to ${path.relative(ROOT, HISTORIES_DIR)} in ${((Date.now() - startedAt) / 1000).toFixed(1)} s`,
    );
  } finally {
    await stop();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exitCode = 1;
});
