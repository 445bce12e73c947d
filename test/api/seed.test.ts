import { spawn } from 'node:child_process';
import path from 'node:path';
import { startFakePushService, startPushInbox, type FakePushService, type PushInbox } from '../fakes/push';
import { as } from '../helpers/accounts';
import { localDay } from '../helpers/dates';
import { startTestServer, type TestServer } from '../helpers/realtime';
import { readStackInfo, TEST_APP_ENV } from '../helpers/stack-env';

/**
 * `npm run seed` against a running API (this test's server, the test stack's worker, YooKassa sandbox and mail
 * catcher, and a dev push service): the demo hotel it makes shows every area, read back through the API as its staff.
 * Slow (the whole demo hotel, about a minute): the one test of the seed.
 */

let t: TestServer;
let push: FakePushService;
let inbox: PushInbox;
beforeAll(async () => {
  push = await startFakePushService();
  inbox = await startPushInbox(push);
  // The push service listens on 127.0.0.1, as in the dev stack.
  t = await startTestServer({ ALLOW_PRIVATE_OUTBOUND: 'true', PUSH_CA_FILE: push.caFile });
});
afterAll(async () => {
  await inbox.close();
  await push.close();
  await t.close();
});

function runSeed(): Promise<{ code: number | null; output: string }> {
  const stack = readStackInfo().env;
  const root = path.resolve(__dirname, '../..');
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'scripts/seed.ts')], {
    cwd: root,
    env: {
      ...process.env,
      API_URL: t.baseUrl,
      DATABASE_URL: stack.DATABASE_URL,
      YOOKASSA_SANDBOX_URL: stack.YOOKASSA_FAKE_URL,
      MAIL_CATCHER_URL: stack.MAIL_CATCHER_URL,
      PUSH_INBOX_URL: inbox.url,
      APP_URL: TEST_APP_ENV.APP_URL,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, output })));
}

const SLUG = 'demo-otel-severnoe-siyanie';

it('makes a demo hotel showing every area, as its staff and guests would', async () => {
  const { code, output } = await runSeed();
  expect({ code, output }).toEqual({ code: 0, output: expect.stringContaining('Demo hotel') });

  const login = await t.http
    .post('/api/auth/login')
    .send({ email: 'owner@siyanie.demo', password: 'demo-password-1' })
    .expect(200);
  const token = login.body.access_token as string;
  const get = async (route: string) =>
    (await t.http.get(`/api/hotels/${SLUG}${route}`).set(as(token)).expect(200)).body;

  // Money: methods, the sandbox gateway, a card deposit held, a widget booking paid online.
  expect((await get('/payment-methods')).length).toBeGreaterThanOrEqual(4);
  expect(await get('/payment-gateways')).toEqual([expect.objectContaining({ provider: 'yookassa', is_active: true })]);
  expect(await get('/deposits')).toEqual([expect.objectContaining({ kind: 'hold', status: 'hold_confirmed' })]);
  const bookings = (await get('/bookings?limit=500')) as { source: string; status: string; paid_amount: string }[];
  expect(bookings).toContainEqual(
    expect.objectContaining({ source: 'online', status: 'confirmed', guest_last_name: 'Белова' }),
  );
  const widget = bookings.find((booking) => booking.source === 'online' && booking.status === 'confirmed');
  expect(Number(widget?.paid_amount)).toBeGreaterThan(0);
  expect((await get('/widget-settings')).is_enabled).toBe(true);

  // Rentals, the paired desk, Wi-Fi and TV.
  const rentals = (await get('/rental-objects')) as { is_active: boolean }[];
  expect(rentals.filter((object) => object.is_active).length).toBe(3);
  expect((await get(`/rental-bookings?from=${localDay(-1)}&to=${localDay(7)}`)).length).toBeGreaterThanOrEqual(5);
  expect(await get('/workstations')).toEqual([expect.objectContaining({ paired: true })]);
  expect(await get('/wifi-settings')).toMatchObject({ enabled: true, portal_secret_set: true });
  expect(await get('/tv-integration/settings')).toMatchObject({ enabled: true, tl_token_set: true });

  // The chat with its history.
  const rooms = (await get('/chat/rooms')) as { id: string; type: string }[];
  const group = rooms.find((room) => room.type === 'group');
  expect((await get(`/chat/rooms/${group!.id}/messages`)).length).toBeGreaterThanOrEqual(5);

  // Room service delivered to a stay's bill.
  const orders = (await get('/room-service/orders')) as { status: string; booking_id: string; total: string }[];
  const delivered = orders.find((order) => order.status === 'delivered');
  expect(await get(`/bookings/${delivered!.booking_id}/charges`)).toContainEqual(
    expect.objectContaining({ amount: delivered!.total }),
  );

  // A published review with a reply; a guest holding points.
  expect(await get('/reviews')).toContainEqual(
    expect.objectContaining({ status: 'published', reply: expect.any(String) }),
  );
  const guests = (await get('/guests?limit=500')) as { id: string }[];
  const balances = await Promise.all(
    guests.map(async (guest) => ((await get(`/guests/${guest.id}/loyalty`)) as { balance: number }).balance),
  );
  expect(Math.max(...balances)).toBeGreaterThan(0);

  // Every demo account's device subscribed at the push service.
  expect(push.subscriptions().map((subscription) => subscription.label)).toEqual(
    expect.arrayContaining(['owner@siyanie.demo', 'manager@siyanie.demo', 'security@siyanie.demo']),
  );
}, 300_000);
