import { randomUUID } from 'node:crypto';
import { createDb } from '../../src/platform/db/knex';
import {
  publishHotelEvent,
  purgeRealtimeEvents,
  REALTIME_REPLAY_MAX,
  type HotelEvent,
} from '../../src/platform/realtime/events';
import { registerHotel, type RegisteredHotel } from '../helpers/accounts';
import {
  connectStaff,
  handshakeStatus,
  startTestServer,
  type RealtimeMessage,
  type StaffClient,
  type TestServer,
} from '../helpers/realtime';
import { pace, until } from '../helpers/wait';

let t: TestServer;
let hotel: RegisteredHotel;
let other: RegisteredHotel;
const clients: StaffClient[] = [];

/** A staff connection; `since` is the id of the last message the client kept. */
async function connect(owner: RegisteredHotel, since?: number, server: TestServer = t): Promise<StaffClient> {
  const url = since === undefined ? server.wsUrl : `${server.wsUrl}?since=${since}`;
  const client = await connectStaff(url, owner.accessToken);
  clients.push(client);
  return client;
}

const ofType = (type: string) => (message: RealtimeMessage & { id?: number }) => message.type === type;
const idOf = (message: RealtimeMessage) => (message as RealtimeMessage & { id: number }).id;

/** Publishes in its own committed transaction, as a service does with the change it belongs to. */
const publish = (hotelId: string, event: HotelEvent) =>
  t.db.transaction((trx) => publishHotelEvent(trx, hotelId, event));

const tick = (seq: number, extra: Record<string, unknown> = {}): HotelEvent => ({
  type: 'test_tick',
  payload: { seq, ...extra },
});
const ticks = (client: StaffClient) => client.collected.filter((m) => m.type === 'test_tick');
const seqs = (messages: RealtimeMessage[]) => messages.map((m) => m.payload?.seq);

/** Waits until the client holds `count` ticks, and returns them. */
function untilTicks(client: StaffClient, count: number, timeoutMs = 10_000): Promise<RealtimeMessage[]> {
  return until(() => ticks(client).length >= count && ticks(client), {
    what: () => `${count} ticks (got ${JSON.stringify(seqs(ticks(client)))})`,
    timeoutMs,
    intervalMs: 20,
  });
}

/** The id a fresh connection starts from: the hotel's last event. */
async function currentPosition(owner: RegisteredHotel): Promise<number> {
  const probe = await connect(owner);
  const connected = await probe.next(ofType('connected'));
  await probe.close();
  return idOf(connected);
}

beforeAll(async () => {
  t = await startTestServer();
  [hotel, other] = await Promise.all([registerHotel(t), registerHotel(t)]);
});

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});

afterAll(() => t.close());

describe('realtime replay (?since=)', () => {
  it('every message carries an id: connected (the position), events, pong', async () => {
    const client = await connect(hotel);
    const connected = await client.next(ofType('connected'));
    expect(connected).toEqual({
      type: 'connected',
      id: expect.any(Number),
      payload: { hotel_id: hotel.hotelId, user_id: hotel.userId },
    });
    await publish(hotel.hotelId, tick(1));
    const event = await client.next(ofType('test_tick'));
    expect(event).toEqual({ type: 'test_tick', id: expect.any(Number), payload: { seq: 1 } });
    expect(idOf(event)).toBeGreaterThan(idOf(connected));
    client.send({ type: 'ping' });
    expect(await client.next(ofType('pong'))).toEqual({ type: 'pong', id: idOf(event) });
  });

  it('a client that reconnects with since=<last id> gets exactly the missed events, in order, then live ones', async () => {
    const first = await connect(hotel);
    await first.next(ofType('connected'));
    await publish(hotel.hotelId, tick(1));
    await publish(hotel.hotelId, tick(2));
    const seen = await untilTicks(first, 2);
    const lastId = idOf(seen[1]);
    await first.close();

    // Missed while away: five events of ours (two in one transaction) and one of another hotel.
    await publish(hotel.hotelId, tick(3));
    await t.db.transaction(async (trx) => {
      await publishHotelEvent(trx, hotel.hotelId, tick(4));
      await publishHotelEvent(trx, hotel.hotelId, tick(5));
    });
    await publish(other.hotelId, tick(99));
    await publish(hotel.hotelId, tick(6));
    await publish(hotel.hotelId, tick(7));

    const again = await connect(hotel, lastId);
    expect(await again.next()).toEqual({
      type: 'connected',
      id: lastId,
      payload: { hotel_id: hotel.hotelId, user_id: hotel.userId },
    });
    await untilTicks(again, 5);
    await publish(hotel.hotelId, tick(8));
    const all = await untilTicks(again, 6);
    expect(seqs(all)).toEqual([3, 4, 5, 6, 7, 8]);
    const ids = all.map(idOf);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(ids[0]).toBeGreaterThan(lastId);
    expect(again.collected.map((m) => m.type)).toEqual(['connected', ...Array(6).fill('test_tick')]);
  });

  it('no duplicate and no gap at the boundary: concurrent writers while the client keeps reconnecting', async () => {
    const total = 240;
    let since = await currentPosition(hotel);
    let next = 0;
    let writing = true;
    // Four writers; each transaction holds its event a little before committing (load pacing), so commits overtake
    // each other.
    const writers = Array.from({ length: 4 }, async () => {
      while (next < total) {
        const seq = next++;
        await t.db.transaction(async (trx) => {
          await publishHotelEvent(trx, hotel.hotelId, tick(seq));
          if (seq % 3 === 0) await publishHotelEvent(trx, other.hotelId, tick(seq));
          await pace(Math.random() * 8);
        });
      }
    });
    const done = Promise.all(writers).finally(() => {
      writing = false;
    });

    const streams: RealtimeMessage[][] = [];
    for (let round = 0; round < 60 && (writing || streams.length === 0); round++) {
      const client = await connect(hotel, since);
      await client.next(ofType('connected'));
      // Each connection lives a random moment among the writes (load pacing): the boundaries fall anywhere.
      await pace(10 + Math.random() * 40);
      await client.close();
      streams.push(ticks(client));
      since = idOf(client.collected.at(-1)!);
    }
    await done;
    const last = await connect(hotel, since);
    const rest = await untilTicks(last, total - streams.flat().length);
    streams.push(rest);

    const received = streams.flat();
    const ids = received.map(idOf);
    expect(seqs(received).sort((a, b) => Number(a) - Number(b))).toEqual(Array.from({ length: total }, (_, i) => i));
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(streams.length).toBeGreaterThan(3);
  });

  it('replays and delivers an event too large for one pg_notify (the hub reads the row)', async () => {
    const since = await currentPosition(hotel);
    const big = 'я'.repeat(5000); // 10 000 bytes
    const live = await connect(hotel);
    await live.next(ofType('connected'));
    await publish(hotel.hotelId, tick(1, { big }));
    expect((await live.next(ofType('test_tick'))).payload).toEqual({ seq: 1, big });
    const replayed = await connect(hotel, since);
    expect((await replayed.next(ofType('test_tick'))).payload).toEqual({ seq: 1, big });
  });

  it(`replays at most ${REALTIME_REPLAY_MAX} events; further behind, the client is told to resync`, async () => {
    const owner = await registerHotel(t);
    const since = await currentPosition(owner);
    await t.db.transaction(async (trx) => {
      for (let seq = 0; seq < REALTIME_REPLAY_MAX; seq++) await publishHotelEvent(trx, owner.hotelId, tick(seq));
    });
    const caughtUp = await connect(owner, since);
    const replayed = await untilTicks(caughtUp, REALTIME_REPLAY_MAX);
    expect(seqs(replayed)).toEqual(Array.from({ length: REALTIME_REPLAY_MAX }, (_, i) => i));
    expect(caughtUp.collected.some((m) => m.type === 'resync')).toBe(false);

    await publish(owner.hotelId, tick(REALTIME_REPLAY_MAX));
    const behind = await connect(owner, since);
    await behind.next(ofType('connected'));
    const resync = await behind.next(ofType('resync'));
    expect(resync).toEqual({ type: 'resync', id: expect.any(Number), payload: { reason: 'too_far_behind' } });
    // From the position it was given, it follows live.
    await publish(owner.hotelId, tick(-1));
    expect((await behind.next(ofType('test_tick'))).payload).toEqual({ seq: -1 });
    expect(ticks(behind)).toHaveLength(1);
    expect(idOf(ticks(behind)[0])).toBeGreaterThan(idOf(resync));
  });

  it('a since older than 24 h (kept or already purged) gets resync, not a partial replay', async () => {
    const owner = await registerHotel(t);
    const since = await currentPosition(owner);
    await publish(owner.hotelId, tick(1));
    await publish(owner.hotelId, tick(2));
    const rows = await t.db('realtime_events').where({ hotel_id: owner.hotelId }).orderBy('id').select('id');
    // The first missed event is 25 hours old: it is no longer replayable.
    await t
      .db('realtime_events')
      .where({ id: rows[0].id })
      .update({ created_at: t.db.raw("now() - interval '25 hours'") });

    const stale = await connect(owner, since);
    await stale.next(ofType('connected'));
    expect(await stale.next(ofType('resync'))).toMatchObject({ payload: { reason: 'too_old' } });
    expect(ticks(stale)).toEqual([]);

    // A client that had event 1 still gets event 2 (it is younger than 24 h).
    const fine = await connect(owner, Number(rows[0].id));
    expect(seqs(await untilTicks(fine, 1))).toEqual([2]);

    // Once purged, the gap is remembered per hotel. The purge's count is not this test's: on the shared stack the
    // maintenance sweep (another file runs it) may have purged the row first.
    await purgeRealtimeEvents(t.db);
    expect(await t.db('realtime_events').where({ id: rows[0].id }).first()).toBeUndefined();
    const purged = await connect(owner, since);
    await purged.next(ofType('connected'));
    expect(await purged.next(ofType('resync'))).toMatchObject({ payload: { reason: 'too_old' } });
    const afterPurge = await connect(owner, Number(rows[0].id));
    expect(seqs(await untilTicks(afterPurge, 1))).toEqual([2]);
  });

  it('a new client of a hotel whose every event was purged starts after them: reconnecting from there is no resync', async () => {
    const owner = await registerHotel(t);
    await publish(owner.hotelId, tick(1));
    const [{ id: last }] = await t
      .db('realtime_events')
      .where({ hotel_id: owner.hotelId })
      .update({ created_at: t.db.raw("now() - interval '25 hours'") })
      .returning('id');
    await purgeRealtimeEvents(t.db);
    expect(await t.db('realtime_events').where({ hotel_id: owner.hotelId }).first()).toBeUndefined();
    const fresh = await connect(owner);
    const start = idOf(await fresh.next(ofType('connected')));
    expect(start).toBe(Number(last));
    await fresh.close();
    const again = await connect(owner, start);
    await again.next(ofType('connected'));
    await publish(owner.hotelId, tick(2));
    expect((await again.next(ofType('test_tick'))).payload).toEqual({ seq: 2 });
    expect(again.collected.map((m) => m.type)).toEqual(['connected', 'test_tick']);
  });

  it('a since the hotel never reached gets resync; a malformed one is refused (400)', async () => {
    const position = await currentPosition(hotel);
    const ahead = await connect(hotel, position + 1_000_000);
    await ahead.next(ofType('connected'));
    expect(await ahead.next(ofType('resync'))).toEqual({
      type: 'resync',
      id: position,
      payload: { reason: 'unknown_position' },
    });
    expect(await handshakeStatus(`${t.wsUrl}?since=abc`, hotel.accessToken)).toBe(400);
    expect(await handshakeStatus(`${t.wsUrl}?since=-1`, hotel.accessToken)).toBe(400);
  });

  it("a commit finds its own pending events without reading every hotel's kept history", async () => {
    const busy = await registerHotel(t);
    // 5,000 committed events of another hotel's day, as the service keeps them for replay.
    await t.db.raw(
      `INSERT INTO realtime_events (hotel_id, id, type, payload)
       SELECT ?::uuid, n, 'test_tick', '{}' FROM generate_series(1, 5000) n`,
      [busy.hotelId],
    );
    await t.db('realtime_event_heads').insert({ hotel_id: busy.hotelId, last_id: 5000 }).onConflict('hotel_id').merge();
    const trx = await t.db.transaction();
    try {
      await publishHotelEvent(trx, hotel.hotelId, tick(1));
      const readsSoFar = () =>
        trx('pg_stat_xact_user_tables').where({ relname: 'realtime_events' }).first('seq_scan', 'idx_scan');
      const before = await readsSoFar();
      // The commit trigger, run now rather than at the commit, and what it alone read of the table.
      await trx.raw('SET CONSTRAINTS realtime_events_commit IMMEDIATE');
      const after = await readsSoFar();
      const scans = {
        seq_scan: Number(after.seq_scan) - Number(before.seq_scan),
        idx_scan: Number(after.idx_scan) - Number(before.idx_scan),
      };
      expect(await trx('realtime_events').where({ hotel_id: hotel.hotelId }).where('id', '<', 0).count()).toEqual([
        { count: '0' },
      ]);
      expect(Number(scans.seq_scan)).toBe(0);
      expect(Number(scans.idx_scan)).toBeGreaterThan(0);
    } finally {
      await trx.rollback();
    }
  });

  it("numbers each hotel's events on its own: another hotel's activity leaves no gaps in ours", async () => {
    const client = await connect(hotel);
    const start = idOf(await client.next(ofType('connected')));
    for (let seq = 0; seq < 4; seq++) {
      await publish(hotel.hotelId, tick(seq));
      await publish(other.hotelId, tick(seq));
    }
    const received = await untilTicks(client, 4);
    expect(received.map(idOf)).toEqual([start + 1, start + 2, start + 3, start + 4]);
  });

  it('a new client gets every event committed once its socket is open, however late the hub reads', async () => {
    // The hub's own pool, from which the test holds back what the hub reads once it counts the new socket open.
    const hubDb = createDb(t.config.databaseUrl, { role: 'api', poolMax: 2, limits: t.config.databaseLimits.api });
    const pool = hubDb.client as { acquireConnection(): Promise<unknown> };
    const acquire = pool.acquireConnection.bind(pool);
    let holding = false;
    let letGo!: () => void;
    const released = new Promise<void>((resolve) => (letGo = resolve));
    let readHeld!: () => void;
    const held = new Promise<void>((resolve) => (readHeld = resolve));
    const s = await startTestServer({}, { db: hubDb });
    pool.acquireConnection = async () => {
      if (holding && s.hub.connectionCount() > 1) {
        readHeld();
        await released;
      }
      return acquire();
    };
    try {
      const watcher = await connect(hotel, undefined, s);
      await watcher.next(ofType('connected'));
      holding = true;
      const late = await connect(hotel, undefined, s);
      await held;
      // Committed after the socket opened, while the hub's read for it waits; the watcher hearing it means the hub has.
      await publish(hotel.hotelId, tick(1));
      const heard = await watcher.next(ofType('test_tick'));
      letGo();
      const connected = await late.next(ofType('connected'));
      await publish(hotel.hotelId, tick(2));
      await late.next((message) => message.type === 'test_tick' && message.payload?.seq === 2);
      expect(seqs(ticks(late))).toEqual([1, 2]);
      expect(idOf(connected)).toBeLessThan(idOf(heard));
    } finally {
      letGo();
      await s.close();
      await hubDb.destroy();
    }
  });

  it('after its LISTEN connection was lost, the hub replays what its sockets missed meanwhile', async () => {
    const applicationName = `replay-test-${randomUUID().slice(0, 8)}`;
    const url = new URL(t.config.databaseUrl);
    url.searchParams.set('application_name', applicationName);
    const s = await startTestServer({ DATABASE_URL: url.toString() }, { listenRetryMs: { min: 400, max: 400 } });
    try {
      const client = await connect(hotel, undefined, s);
      await client.next(ofType('connected'));
      await publish(hotel.hotelId, tick(0));
      await client.next(ofType('test_tick'));
      const terminated = await t.db.raw(
        `SELECT pg_terminate_backend(pid) AS ok FROM pg_stat_activity WHERE application_name = ? AND query LIKE 'LISTEN%'`,
        [applicationName],
      );
      expect(terminated.rows).toEqual([{ ok: true }]);
      // Committed while the hub is not listening (it waits 400 ms before reconnecting).
      for (let seq = 1; seq <= 5; seq++) await publish(hotel.hotelId, tick(seq));
      const received = await untilTicks(client, 6);
      await publish(hotel.hotelId, tick(6));
      const all = await untilTicks(client, 7);
      expect(seqs(all)).toEqual([0, 1, 2, 3, 4, 5, 6]);
      expect(received.length).toBeGreaterThanOrEqual(6);
      expect(client.collected.filter((m) => m.type === 'connected')).toHaveLength(1);
      await client.close();
    } finally {
      await s.close();
    }
  });
});
