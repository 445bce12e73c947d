import { randomUUID } from 'node:crypto';
import { spawnEntryPoint, waitForApi } from '../../scripts/stack/app-processes';
import { freePort } from '../../scripts/stack/ports';
import { createProcessDb } from '../../src/platform/db/knex';
import { signAccessToken } from '../../src/platform/http/access-token';
import { publishHotelEvent } from '../../src/platform/realtime/events';
import { registerHotel, superAdminToken, type RegisteredHotel } from '../helpers/accounts';
import {
  connectStaff,
  handshakeStatus,
  startTestServer,
  type RealtimeMessage,
  type StaffClient,
  type TestServer,
} from '../helpers/realtime';
import { readStackInfo, TEST_APP_ENV } from '../helpers/stack-env';
import { until } from '../helpers/wait';

let t: TestServer;
let hotelA: RegisteredHotel;
let hotelB: RegisteredHotel;
const clients: StaffClient[] = [];

async function connect(...args: Parameters<typeof connectStaff>): Promise<StaffClient> {
  const client = await connectStaff(...args);
  clients.push(client);
  return client;
}

const ofType = (type: string) => (message: RealtimeMessage) => message.type === type;

/** Publishes in its own committed transaction, as a service does with the change it belongs to. */
const publish = (hotelId: string, type: string, payload: Record<string, unknown>) =>
  t.db.transaction((trx) => publishHotelEvent(trx, hotelId, { type, payload }));

beforeAll(async () => {
  t = await startTestServer();
  [hotelA, hotelB] = await Promise.all([registerHotel(t), registerHotel(t)]);
});

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});

afterAll(() => t.close());

describe('staff realtime channel: handshake', () => {
  it('accepts the access token as ?token= and says who is connected to which hotel', async () => {
    const client = await connect(t.wsUrl, hotelA.accessToken);
    expect(await client.next()).toEqual({
      id: expect.any(Number),
      type: 'connected',
      payload: { hotel_id: hotelA.hotelId, user_id: hotelA.userId },
    });
    expect(t.hub.connectionCount()).toBeGreaterThanOrEqual(1);
  });

  it('accepts the token as the subprotocol pair ["bearer", token] and selects "bearer"', async () => {
    const client = await connect(t.wsUrl, hotelA.accessToken, { via: 'protocol' });
    expect(client.ws.protocol).toBe('bearer');
    expect(await client.next()).toEqual({
      id: expect.any(Number),
      type: 'connected',
      payload: { hotel_id: hotelA.hotelId, user_id: hotelA.userId },
    });
  });

  it('refuses the upgrade with 401 without a token or with a bad one', async () => {
    expect(await handshakeStatus(t.wsUrl, undefined)).toBe(401);
    expect(await handshakeStatus(t.wsUrl, 'not-a-jwt')).toBe(401);
    expect(await handshakeStatus(t.wsUrl, 'not-a-jwt', { via: 'protocol' })).toBe(401);
    const forged = signAccessToken(
      {
        sub: hotelA.userId,
        email: hotelA.email,
        name: 'x',
        role: 'hotel_admin',
        hotelId: hotelA.hotelId,
        hotelSlug: hotelA.slug,
        sv: 0,
      },
      'another-secret-that-is-long-enough-0123456789',
      60,
    );
    expect(await handshakeStatus(t.wsUrl, forged)).toBe(401);
  });

  it('answers 404 to an upgrade on any other path', async () => {
    expect(await handshakeStatus(`${t.baseUrl.replace('http', 'ws')}/nope`, hotelA.accessToken)).toBe(404);
  });

  it("refuses 403 a staff token naming another hotel (or an unknown one), accepts its own hotel's slug", async () => {
    expect(await handshakeStatus(t.wsUrl, hotelA.accessToken, { hotel: hotelB.slug })).toBe(403);
    expect(await handshakeStatus(t.wsUrl, hotelA.accessToken, { hotel: `no-such-${randomUUID()}` })).toBe(403);
    expect(await handshakeStatus(t.wsUrl, hotelA.accessToken, { hotel: hotelA.slug })).toBe(101);
  });

  it('lets a super_admin choose the hotel with ?hotel=<slug>, and asks for one otherwise (400)', async () => {
    const superAdmin = await superAdminToken(t, 60);
    expect(await handshakeStatus(t.wsUrl, superAdmin)).toBe(400);
    const client = await connect(t.wsUrl, superAdmin, { hotel: hotelB.slug });
    expect((await client.next(ofType('connected'))).payload).toMatchObject({ hotel_id: hotelB.hotelId });
    await publish(hotelB.hotelId, 'test_room_updated', { room_id: 'r-admin' });
    expect(await client.next(ofType('test_room_updated'))).toEqual({
      id: expect.any(Number),
      type: 'test_room_updated',
      payload: { room_id: 'r-admin' },
    });
  });

  it('closes the connection with 4001 when the access token expires', async () => {
    const shortLived = signAccessToken(
      {
        sub: hotelA.userId,
        email: hotelA.email,
        name: 'x',
        role: 'hotel_admin',
        hotelId: hotelA.hotelId,
        hotelSlug: hotelA.slug,
        sv: 0,
      },
      t.config.jwtSecret,
      2,
    );
    const client = await connect(t.wsUrl, shortLived);
    await client.next(ofType('connected'));
    const closed = await Promise.race([
      client.closed,
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error('not closed after 5 s')), 5000)),
    ]);
    expect(closed).toEqual({ code: 4001, reason: 'token expired' });
  });
});

describe('staff realtime channel: events', () => {
  it("delivers a committed event to the hotel's client as exactly { type, payload }", async () => {
    const client = await connect(t.wsUrl, hotelA.accessToken);
    await client.next(ofType('connected'));
    const payload = { task_id: randomUUID(), room_id: randomUUID(), category: 'housekeeping', priority: 'urgent' };
    await publish(hotelA.hotelId, 'test_housekeeping_task_created', payload);
    expect(await client.next(ofType('test_housekeeping_task_created'))).toEqual({
      id: expect.any(Number),
      type: 'test_housekeeping_task_created',
      payload,
    });
  });

  it('never delivers the event of a rolled-back transaction', async () => {
    const client = await connect(t.wsUrl, hotelA.accessToken);
    await client.next(ofType('connected'));
    // Only the rollback itself may end the transaction: a failed publish would prove nothing.
    let published = false;
    await expect(
      t.db.transaction(async (trx) => {
        await publishHotelEvent(trx, hotelA.hotelId, {
          type: 'test_room_updated',
          payload: { room_id: 'rolled-back' },
        });
        published = true;
        throw new Error('rollback');
      }),
    ).rejects.toThrow('rollback');
    expect(published).toBe(true);
    // A later committed event arrives; had the rolled-back one been sent, it would have come first.
    await publish(hotelA.hotelId, 'test_room_updated', { room_id: 'committed' });
    await client.next((m) => m.payload?.room_id === 'committed');
    expect(client.collected.filter((m) => m.payload?.room_id === 'rolled-back')).toEqual([]);
  });

  it("never delivers one hotel's events to another hotel's client", async () => {
    const a = await connect(t.wsUrl, hotelA.accessToken);
    const b = await connect(t.wsUrl, hotelB.accessToken, { via: 'protocol' });
    await Promise.all([a.next(ofType('connected')), b.next(ofType('connected'))]);
    for (let i = 0; i < 5; i++) await publish(hotelA.hotelId, 'test_housekeeping_updated', { seq: i, hotel: 'A' });
    await publish(hotelB.hotelId, 'test_housekeeping_updated', { seq: 0, hotel: 'B' });
    await publish(hotelA.hotelId, 'test_housekeeping_updated', { seq: 5, hotel: 'A' });
    // Events go out in commit order: by the time B's arrives, any leaked A event before it would have arrived too;
    // by the time A's last one (committed after B's) arrives, so would a leaked B event.
    await b.next((m) => m.payload?.hotel === 'B');
    for (let i = 0; i < 6; i++) await a.next((m) => m.payload?.seq === i);
    expect(b.collected).toEqual([
      { type: 'connected', id: expect.any(Number), payload: { hotel_id: hotelB.hotelId, user_id: hotelB.userId } },
      { type: 'test_housekeeping_updated', id: expect.any(Number), payload: { seq: 0, hotel: 'B' } },
    ]);
    expect(a.collected.some((m) => m.payload?.hotel === 'B')).toBe(false);
  });

  it('delivers an event committed from another process (a second, independent pool)', async () => {
    const client = await connect(t.wsUrl, hotelA.accessToken);
    await client.next(ofType('connected'));
    const worker = createProcessDb(t.config, 'worker');
    try {
      await worker.transaction((trx) =>
        publishHotelEvent(trx, hotelA.hotelId, { type: 'test_housekeeping_done', payload: { task_id: 'from-worker' } }),
      );
    } finally {
      await worker.destroy();
    }
    expect(await client.next(ofType('test_housekeeping_done'))).toEqual({
      id: expect.any(Number),
      type: 'test_housekeeping_done',
      payload: { task_id: 'from-worker' },
    });
  });

  it('answers {"type":"ping"} with {"type":"pong"} and ignores other messages', async () => {
    const client = await connect(t.wsUrl, hotelA.accessToken);
    await client.next(ofType('connected'));
    client.send('not json');
    client.send({ type: 'something-else' });
    client.send({ type: 'ping' });
    expect(await client.next(ofType('pong'))).toEqual({ type: 'pong', id: expect.any(Number) });
    expect(client.collected.map((m) => m.type)).toEqual(['connected', 'pong']);
  });

  it('closes a connection that sends a message above 4 KiB (1009)', async () => {
    const client = await connect(t.wsUrl, hotelA.accessToken);
    await client.next(ofType('connected'));
    client.send({ type: 'ping', padding: 'x'.repeat(5000) });
    expect((await client.closed).code).toBe(1009);
  });
});

describe('staff realtime channel: liveness and shutdown', () => {
  it('terminates a client that stops answering pings, keeps one that answers', async () => {
    const s = await startTestServer({}, { heartbeatMs: 200 });
    try {
      const dead = await connectStaff(s.wsUrl, hotelA.accessToken, { autoPong: false });
      const alive = await connectStaff(s.wsUrl, hotelA.accessToken);
      let pings = 0;
      alive.ws.on('ping', () => pings++);
      await Promise.all([dead.next(ofType('connected')), alive.next(ofType('connected'))]);
      // Terminated without a close frame: the client sees an abnormal closure.
      expect((await dead.closed).code).toBe(1006);
      // Each ping after the first means the server found the previous one answered: two more after the dead client
      // was dropped, and the live one has passed a round of checks that came after it.
      const pingsAtTermination = pings;
      await until(() => pings >= pingsAtTermination + 2, { what: 'two more heartbeats for the answering client' });
      expect(alive.ws.readyState).toBe(alive.ws.OPEN);
      expect(s.hub.connectionCount()).toBe(1);
      await alive.close();
    } finally {
      await s.close();
    }
  });

  it('on close() says 1001 to every client and stops accepting upgrades', async () => {
    const s = await startTestServer();
    try {
      const client = await connectStaff(s.wsUrl, hotelA.accessToken);
      await client.next(ofType('connected'));
      const closing = s.hub.close();
      expect(await client.closed).toEqual({ code: 1001, reason: 'server going away' });
      await closing;
      expect(s.hub.connectionCount()).toBe(0);
      expect(await handshakeStatus(s.wsUrl, hotelA.accessToken)).toBe(503);
    } finally {
      await s.close();
    }
  });

  it('the API process on SIGTERM closes its sockets with 1001 and exits 0 (open sockets do not hold it)', async () => {
    const port = await freePort();
    const api = spawnEntryPoint(
      'src/main.ts',
      { ...process.env, ...TEST_APP_ENV, ...readStackInfo().env, PORT: String(port), LOG_LEVEL: 'silent' },
      'ignore',
    );
    try {
      await waitForApi(`http://127.0.0.1:${port}`, api);
      const wsUrl = `ws://127.0.0.1:${port}/ws`;
      const sockets = await Promise.all([
        connectStaff(wsUrl, hotelA.accessToken),
        connectStaff(wsUrl, hotelB.accessToken, { via: 'protocol' }),
      ]);
      await Promise.all(sockets.map((client) => client.next(ofType('connected'))));
      const exited = new Promise<number | null>((resolve) => api.child.once('exit', resolve));
      const startedAt = Date.now();
      api.child.kill('SIGTERM');
      expect((await Promise.all(sockets.map((client) => client.closed))).map((closed) => closed.code)).toEqual([
        1001, 1001,
      ]);
      expect(await exited).toBe(0);
      expect(Date.now() - startedAt).toBeLessThan(5000);
    } finally {
      await api.stop();
    }
  });

  it('re-establishes its LISTEN connection after PostgreSQL drops it', async () => {
    const applicationName = `realtime-test-${randomUUID().slice(0, 8)}`;
    const url = new URL(t.config.databaseUrl);
    url.searchParams.set('application_name', applicationName);
    const s = await startTestServer({ DATABASE_URL: url.toString() }, { listenRetryMs: { min: 50, max: 500 } });
    try {
      const client = await connectStaff(s.wsUrl, hotelA.accessToken);
      await client.next(ofType('connected'));
      const terminated = await t.db.raw(
        `SELECT pg_terminate_backend(pid) AS ok FROM pg_stat_activity WHERE application_name = ? AND query LIKE 'LISTEN%'`,
        [applicationName],
      );
      expect(terminated.rows).toEqual([{ ok: true }]);
      // Events published while it reconnects may be lost; publish until one arrives (bounded).
      let received: RealtimeMessage | undefined;
      for (let attempt = 0; attempt < 50 && !received; attempt++) {
        await publish(hotelA.hotelId, 'test_room_updated', { room_id: 'after-reconnect', attempt });
        received = await client.next(ofType('test_room_updated'), 200).catch(() => undefined);
      }
      expect(received).toMatchObject({ type: 'test_room_updated', payload: { room_id: 'after-reconnect' } });
      await client.close();
    } finally {
      await s.close();
    }
  });
});
