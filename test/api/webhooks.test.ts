import { Client, Connection } from '@temporalio/client';
import { WEBHOOK_EVENT_TYPES } from '../../src/modules/webhooks';
import { publishHotelEvent } from '../../src/platform/realtime/events';
import { startFakeReceiver, type FakeReceiver, type ReceivedWebhook } from '../fakes/webhooks';
import { addStaff, as, registerHotel, type RegisteredHotel } from '../helpers/accounts';
import { createTestApp, type TestApp } from '../helpers/app';
import { startFaultStack, type FaultStack } from '../helpers/processes';
import { createCategory, createRoom } from '../helpers/structure';
import { until } from '../helpers/wait';

/**
 * Webhooks end to end on a private stack (own database, Temporal and worker that may call the receiver on 127.0.0.1,
 * with a retry horizon of seconds): a receiver checks every signature with `standardwebhooks` and the order.
 */
jest.setTimeout(240_000);

let stack: FaultStack;
let t: TestApp;
let receiver: FakeReceiver;
let hotel: RegisteredHotel;

beforeAll(async () => {
  receiver = await startFakeReceiver();
  stack = await startFaultStack('webhooks');
  Object.assign(stack.env, { ALLOW_PRIVATE_OUTBOUND: 'true', WEBHOOK_RETRY_HORIZON_SECONDS: '8' });
  await stack.startWorker();
  t = createTestApp(stack.env);
  hotel = await registerHotel(t);
});
afterAll(async () => {
  await t?.close();
  await stack?.stop();
  await receiver?.close();
});

const api = (rest: string) => `/api/hotels/${hotel.slug}${rest}`;
let paths = 0;

async function subscribe(eventTypes = ['room_updated', 'booking_created']) {
  const path = `/hooks/${++paths}`;
  const created = await t.http
    .post(api('/webhooks'))
    .set(as(hotel.accessToken))
    .send({ endpoint: receiver.url(path), event_types: eventTypes })
    .expect(201);
  receiver.trust(path, [created.body.secret]);
  return { path, id: created.body.id as string, secret: created.body.secret as string };
}

/** Commits `count` events of the hotel, one transaction each (as many actions would). */
async function emit(count: number, marker: string): Promise<void> {
  for (let i = 0; i < count; i += 1) {
    await t.db.transaction((trx) =>
      publishHotelEvent(trx, hotel.hotelId, { type: 'room_updated', payload: { room_id: marker, n: i } }),
    );
  }
}

/** Each delivery once (a retry repeats its webhook-id), in strictly increasing seq order. */
function distinctInOrder(items: ReceivedWebhook[]): ReceivedWebhook[] {
  const seen = new Map<string, ReceivedWebhook>();
  for (const item of items) {
    const first = seen.get(item.id);
    if (first) expect(first.seq).toBe(item.seq);
    else seen.set(item.id, item);
  }
  const distinct = [...seen.values()];
  distinct.forEach((item, i) => i > 0 && expect(item.seq).toBeGreaterThan(distinct[i - 1].seq));
  return distinct;
}

const ofMarker = (path: string, marker: string) =>
  receiver.received(path).filter((item) => item.data.room_id === marker);

describe('outbound webhooks', () => {
  it('deliver a real booking’s event, signed and verified by standardwebhooks', async () => {
    const sub = await subscribe();
    const category = await createCategory(t, hotel);
    const room = await createRoom(t, hotel, category.id);
    const booking = await t.http
      .post(api('/bookings'))
      .set(as(hotel.accessToken))
      .send({
        room_id: room.id,
        check_in: '2031-05-01',
        check_out: '2031-05-03',
        guest_first_name: 'Анна',
        guest_last_name: 'Хук',
      })
      .expect(201);
    const value = await until(() => receiver.received(sub.path).find((item) => item.type === 'booking_created'), {
      what: 'booking_created delivered',
      timeoutMs: 30_000,
    });
    expect(value.data.booking_id).toBe(booking.body.id);
    expect(value.verifiedBy).toEqual([sub.secret]);
    expect(value.signatures).toHaveLength(1);
    expect(value.signatures[0]).toMatch(/^v1,/);
    // The pull feed serves the same event, with the same seq and payload.
    const feed = await t.http
      .get(api('/events'))
      .query({ after: value.seq - 1, limit: 1 })
      .set(as(hotel.accessToken))
      .expect(200);
    expect(feed.body.items[0]).toMatchObject({ seq: value.seq, type: 'booking_created', data: value.data });
  });

  it('publish a booking’s changes as field names only: no guest name, phone or notes leaves', async () => {
    const room = await createRoom(t, hotel, (await createCategory(t, hotel)).id);
    const booking = await t.http
      .post(api('/bookings'))
      .set(as(hotel.accessToken))
      .send({
        room_id: room.id,
        check_in: '2031-06-01',
        check_out: '2031-06-03',
        guest_first_name: 'Анна',
        guest_last_name: 'Прежний',
      })
      .expect(201);
    await t.http
      .patch(api(`/bookings/${booking.body.id}`))
      .set(as(hotel.accessToken))
      .send({ guest_last_name: 'Секретова', guest_phone: '+7 999 765-43-21', notes: 'аллергия на орехи' })
      .expect(200);
    const feed = await t.http.get(api('/events')).query({ limit: 500 }).set(as(hotel.accessToken)).expect(200);
    const updated = feed.body.items.filter(
      (item: { type: string; data: { booking_id: string } }) =>
        item.type === 'booking_updated' && item.data.booking_id === booking.body.id,
    );
    expect(updated).toHaveLength(1);
    expect(updated[0].data.changed_fields).toEqual(expect.arrayContaining(['guest_last_name', 'guest_phone', 'notes']));
    expect(JSON.stringify(updated[0])).not.toMatch(/Секретова|765-43-21|орехи/);
  });

  it('keep order while the receiver is down, then deliver everything when it is back', async () => {
    const sub = await subscribe(['room_updated']);
    receiver.setDown(sub.path, true);
    await emit(15, 'down-up');
    await until(
      async () => {
        const log = await t.http
          .get(api(`/webhooks/${sub.id}/deliveries`))
          .set(as(hotel.accessToken))
          .expect(200);
        return log.body.items.some((item: { status_code: number }) => item.status_code === 503) || undefined;
      },
      { what: 'a refused attempt logged', timeoutMs: 30_000 },
    );
    receiver.setDown(sub.path, false);
    await until(() => (ofMarker(sub.path, 'down-up').length >= 15 ? true : undefined), {
      what: 'all 15 delivered',
      timeoutMs: 60_000,
    });
    const distinct = distinctInOrder(receiver.received(sub.path));
    expect(distinct.map((item) => item.data.n)).toEqual([...Array(15).keys()]);
  });

  it('sign with both secrets for a while after a rotation', async () => {
    const sub = await subscribe(['room_updated']);
    const rotated = await t.http
      .post(api(`/webhooks/${sub.id}/rotate-secret`))
      .set(as(hotel.accessToken))
      .expect(201);
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(rotated.body.secret).not.toBe(sub.secret);
    receiver.trust(sub.path, [sub.secret, rotated.body.secret]);
    await emit(1, 'rotated');
    const value = await until(() => ofMarker(sub.path, 'rotated')[0], { what: 'delivered after rotation' });
    expect(value.signatures).toHaveLength(2);
    expect(value.verifiedBy.sort()).toEqual([sub.secret, rotated.body.secret].sort());
  });

  it('replay from a seq in order with the same webhook-ids, and refuse further than 30 days', async () => {
    const sub = await subscribe(['room_updated']);
    await emit(5, 'replayed');
    await until(() => (ofMarker(sub.path, 'replayed').length >= 5 ? true : undefined), { what: 'first pass' });
    const first = distinctInOrder(ofMarker(sub.path, 'replayed'));
    await t.http
      .post(api(`/webhooks/${sub.id}/replay`))
      .set(as(hotel.accessToken))
      .send({ from_seq: first[0].seq })
      .expect(200);
    await until(() => (ofMarker(sub.path, 'replayed').length >= 10 ? true : undefined), { what: 'replayed' });
    const again = ofMarker(sub.path, 'replayed').slice(5);
    expect(again.map((item) => item.id)).toEqual(first.map((item) => item.id));
    const old = new Date(Date.now() - 31 * 86_400_000).toISOString();
    const refused = await t.http
      .post(api(`/webhooks/${sub.id}/replay`))
      .set(as(hotel.accessToken))
      .send({ from_time: old })
      .expect(422);
    expect(refused.body.code).toBe('replay_too_old');
  });

  it('pause a subscription whose receiver fails past the retry horizon, and tell the admins', async () => {
    const sub = await subscribe(['room_updated']);
    receiver.setDown(sub.path, true);
    await emit(1, 'never');
    const value = await until(
      async () => {
        const got = await t.http
          .get(api(`/webhooks/${sub.id}`))
          .set(as(hotel.accessToken))
          .expect(200);
        return got.body.status === 'paused' ? got.body : undefined;
      },
      { what: 'paused after the horizon', timeoutMs: 90_000, intervalMs: 500 },
    );
    expect(value.paused_reason).toMatch(/HTTP 503/);
    const inbox = await t.http.get(api('/notifications')).set(as(hotel.accessToken)).expect(200);
    const notice = inbox.body.items.find((item: { type: string }) => item.type === 'webhook_paused');
    // The receiver is named by its host only (a path or query may carry a token).
    expect(notice.body).toContain(new URL(receiver.url(sub.path)).host);
    expect(notice.body).not.toContain(sub.path);
    // The realtime event reaches those who manage webhooks only.
    const event = await t
      .db('realtime_events')
      .where({ hotel_id: hotel.hotelId, type: 'webhook_subscription_paused' })
      .whereRaw("payload->>'subscription_id' = ?", [sub.id])
      .first();
    expect(event.audience).toEqual([hotel.userId]);
    const log = await t.http
      .get(api(`/webhooks/${sub.id}/deliveries`))
      .set(as(hotel.accessToken))
      .expect(200);
    expect(log.body.items.length).toBeGreaterThan(1);
    expect(log.body.items[0]).toMatchObject({ status_code: 503, error: 'HTTP 503' });
  });

  it('keep events 30 days: the feed starts at the oldest kept event, before and after the sweep purges them', async () => {
    const other = await registerHotel(t);
    const feed = (after?: number) =>
      t.http
        .get(`/api/hotels/${other.slug}/events`)
        .query(after === undefined ? {} : { after })
        .set(as(other.accessToken));
    const base = 1_000_000;
    await t.db('webhook_events').insert([
      {
        hotel_id: other.hotelId,
        seq: base,
        type: 'room_updated',
        payload: {},
        created_at: new Date(Date.now() - 31 * 86_400_000),
      },
      { hotel_id: other.hotelId, seq: base + 1, type: 'room_updated', payload: { n: 1 }, created_at: new Date() },
    ]);
    const kept = {
      items: [{ seq: base + 1, data: { n: 1 } }],
      next_after: base + 1,
      started_after: base,
      horizon: base,
    };
    // The default (`after=0`) and a window reaching below the horizon start at the oldest kept event.
    expect((await feed().expect(200)).body).toMatchObject(kept);
    expect((await feed(base - 1).expect(200)).body).toMatchObject(kept);
    expect((await feed(base).expect(200)).body).toMatchObject(kept);
    // Its count is not this test's: on the shared stack the maintenance sweep (another file runs it) may purge first.
    await t.services.webhooks.purgeExpired();
    expect(await t.db('webhook_events').where({ hotel_id: other.hotelId, seq: base }).first()).toBeUndefined();
    expect((await feed().expect(200)).body).toMatchObject(kept);
    // A replay by time after a quiet stretch (nothing between the purged event and `from_time`) starts at the horizon.
    const sub = await t.http
      .post(`/api/hotels/${other.slug}/webhooks`)
      .set(as(other.accessToken))
      .send({ endpoint: receiver.url('/hooks/quiet'), event_types: ['housekeeping_done'] })
      .expect(201);
    await t
      .db('webhook_subscriptions')
      .where({ id: sub.body.id })
      .update({ cursor: base + 1 });
    const from_time = new Date(Date.now() - 86_400_000).toISOString();
    const replayed = await t.http
      .post(`/api/hotels/${other.slug}/webhooks/${sub.body.id}/replay`)
      .set(as(other.accessToken))
      .send({ from_time })
      .expect(200);
    expect(replayed.body.cursor).toBe(base);
    // An explicit seq that is no longer kept is refused.
    const refused = await t.http
      .post(`/api/hotels/${other.slug}/webhooks/${sub.body.id}/replay`)
      .set(as(other.accessToken))
      .send({ from_seq: base })
      .expect(422);
    expect(refused.body.code).toBe('replay_too_old');
  });

  it('never move the cursor forward by a replay (a later seq, a future time)', async () => {
    const sub = await subscribe(['housekeeping_done']);
    const before = await t.http
      .post(api(`/webhooks/${sub.id}/pause`))
      .set(as(hotel.accessToken))
      .expect(200);
    for (const body of [
      { from_seq: Number.MAX_SAFE_INTEGER },
      { from_seq: before.body.cursor + 1000 },
      { from_time: new Date(Date.now() + 86_400_000).toISOString() },
    ]) {
      await emit(1, 'forward');
      const replayed = await t.http
        .post(api(`/webhooks/${sub.id}/replay`))
        .set(as(hotel.accessToken))
        .send(body)
        .expect(200);
      expect(replayed.body.cursor).toBe(before.body.cursor);
    }
  });

  it('keep only the published kinds: the commit trigger copies exactly WEBHOOK_EVENT_TYPES', async () => {
    const { rows } = (await t.db.raw(
      "SELECT pg_get_triggerdef(oid) AS def FROM pg_trigger WHERE tgname = 'webhook_events_record'",
    )) as { rows: { def: string }[] };
    const listed = [...rows[0].def.matchAll(/'([^']+)'::text/g)].map((match) => match[1]).sort();
    expect(listed).toEqual([...WEBHOOK_EVENT_TYPES].sort());
    await t.db.transaction((trx) =>
      publishHotelEvent(trx, hotel.hotelId, { type: 'notification:new', payload: { title: 'Гость Иванов' } }),
    );
    expect(
      await t.db('webhook_events').where({ hotel_id: hotel.hotelId, type: 'notification:new' }).first(),
    ).toBeUndefined();
  });

  it('number each attempt of an event, also when a round stopped at it after delivering others', async () => {
    const sub = await subscribe(['room_updated']);
    receiver.refuseOnce(sub.path, (event) => event.data.room_id === 'numbered' && event.data.n === 1);
    // One transaction: one round finds all three, delivers n=0, fails n=1 and ends; the next round retries n=1.
    await t.db.transaction(async (trx) => {
      for (const n of [0, 1, 2])
        await publishHotelEvent(trx, hotel.hotelId, { type: 'room_updated', payload: { room_id: 'numbered', n } });
    });
    const delivered = await until(
      () => (ofMarker(sub.path, 'numbered').length >= 3 ? ofMarker(sub.path, 'numbered') : undefined),
      {
        what: 'all three delivered',
        timeoutMs: 30_000,
      },
    );
    const log = await t.http
      .get(api(`/webhooks/${sub.id}/deliveries`))
      .set(as(hotel.accessToken))
      .expect(200);
    const ofSecond = log.body.items
      .filter((item: { seq: number }) => item.seq === delivered[1].seq)
      .map((item: { attempt: number; status_code: number }) => [item.attempt, item.status_code]);
    expect(ofSecond.reverse()).toEqual([
      [1, 503],
      [2, 204],
    ]);
  });

  it('move a caught-up cursor over the events it does not want, so a rare type does not rescan the log', async () => {
    const sub = await subscribe(['housekeeping_done']);
    let last = 0;
    await t.db.transaction(async (trx) => {
      await publishHotelEvent(trx, hotel.hotelId, { type: 'housekeeping_done', payload: { room_id: 'rare' } });
      for (let n = 0; n < 3; n += 1)
        await publishHotelEvent(trx, hotel.hotelId, { type: 'room_updated', payload: { room_id: 'skipped', n } });
    });
    const [rare] = await until(
      () => (receiver.received(sub.path).length > 0 ? receiver.received(sub.path) : undefined),
      {
        what: 'the rare event delivered',
      },
    );
    const newest = (await t.db('webhook_events').where({ hotel_id: hotel.hotelId }).max('seq as seq').first()) as {
      seq: string;
    };
    last = Number(newest.seq);
    expect(last).toBeGreaterThan(rare.seq);
    const moved = await until(
      async () => {
        const got = await t.http
          .get(api(`/webhooks/${sub.id}`))
          .set(as(hotel.accessToken))
          .expect(200);
        return got.body.cursor >= last ? got.body.cursor : undefined;
      },
      { what: 'the cursor past the unwanted events', timeoutMs: 20_000 },
    );
    expect(moved).toBe(last);
  });

  it('keep delivering after quick pause → resume pairs, and end the workflow at once on deletion', async () => {
    const sub = await subscribe(['room_updated']);
    await emit(1, 'before-pauses');
    await until(() => ofMarker(sub.path, 'before-pauses')[0], { what: 'delivered before the pauses' });
    for (let i = 0; i < 5; i += 1) {
      await t.http
        .post(api(`/webhooks/${sub.id}/pause`))
        .set(as(hotel.accessToken))
        .expect(200);
      await t.http
        .post(api(`/webhooks/${sub.id}/resume`))
        .set(as(hotel.accessToken))
        .expect(200);
    }
    await emit(1, 'after-pauses');
    await until(() => ofMarker(sub.path, 'after-pauses')[0], { what: 'delivered after the pauses', timeoutMs: 30_000 });
    await t.http
      .delete(api(`/webhooks/${sub.id}`))
      .set(as(hotel.accessToken))
      .expect(204);
    const connection = await Connection.connect({ address: stack.temporalAddress });
    try {
      const handle = new Client({ connection }).workflow.getHandle(`webhooks:${sub.id}`);
      // Well before the idle poll (1 minute) would have noticed.
      const status = await until(
        async () => {
          const { status: now } = await handle.describe();
          return now.name === 'RUNNING' ? undefined : now.name;
        },
        { what: 'the workflow ended after the deletion', timeoutMs: 20_000, intervalMs: 500 },
      );
      expect(status).toBe('COMPLETED');
    } finally {
      await connection.close();
    }
  });

  it('keep their indexes for the purge and the replay by time (created_at on both tables)', async () => {
    const { rows } = (await t.db.raw(
      "SELECT tablename, indexdef FROM pg_indexes WHERE tablename IN ('webhook_events', 'webhook_deliveries')",
    )) as { rows: { tablename: string; indexdef: string }[] };
    for (const table of ['webhook_events', 'webhook_deliveries'])
      expect(rows.some((row) => row.tablename === table && /\(created_at\)$/.test(row.indexdef))).toBe(true);
  });

  it('refuse another hotel’s staff and a role below management on every webhooks route', async () => {
    const sub = await subscribe(['housekeeping_done']);
    const other = await registerHotel(t);
    const receptionist = await addStaff(t, hotel, 'receptionist');
    const requests = [
      ['get', api('/webhooks')],
      ['post', api('/webhooks')],
      ['get', api(`/webhooks/${sub.id}`)],
      ['patch', api(`/webhooks/${sub.id}`)],
      ['post', api(`/webhooks/${sub.id}/pause`)],
      ['post', api(`/webhooks/${sub.id}/replay`)],
      ['post', api(`/webhooks/${sub.id}/rotate-secret`)],
      ['get', api(`/webhooks/${sub.id}/deliveries`)],
      ['get', api('/events')],
      ['delete', api(`/webhooks/${sub.id}`)],
    ] as const;
    const body = { endpoint: receiver.url('/hooks/never'), event_types: ['room_updated'], from_seq: 1 };
    for (const [method, url] of requests) {
      const mine = await t.http[method](url)
        .set(as(receptionist.accessToken))
        .send(method === 'get' ? undefined : body);
      expect([method, url, mine.status]).toEqual([method, url, 403]);
      const theirs = await t.http[method](url)
        .set(as(other.accessToken))
        .send(method === 'get' ? undefined : body);
      expect([403, 404]).toContain(theirs.status);
    }
    // Nothing changed: the subscription is still there, as it was.
    const still = await t.http
      .get(api(`/webhooks/${sub.id}`))
      .set(as(hotel.accessToken))
      .expect(200);
    expect(still.body).toMatchObject({ status: 'active', endpoint: receiver.url(sub.path) });
  });

  it('refuse an endpoint with credentials (they would be stored and shown in clear)', async () => {
    for (const endpoint of ['https://user:pass@receiver.example.com/x', 'https://token@receiver.example.com/x']) {
      await t.http
        .post(api('/webhooks'))
        .set(as(hotel.accessToken))
        .send({ endpoint, event_types: ['room_updated'] })
        .expect(400);
    }
    const sub = await subscribe(['housekeeping_done']);
    await t.http
      .patch(api(`/webhooks/${sub.id}`))
      .set(as(hotel.accessToken))
      .send({ endpoint: 'https://user:pass@receiver.example.com/x' })
      .expect(400);
  });

  it('refuse a private receiver address where private addresses are not allowed', async () => {
    const strict = createTestApp({ ...stack.env, ALLOW_PRIVATE_OUTBOUND: 'false' });
    try {
      for (const url of ['http://127.0.0.1:9/hook', 'http://10.1.2.3/hook', 'http://[::1]/hook']) {
        await strict.http
          .post(api('/webhooks'))
          .set(as(hotel.accessToken))
          .send({ endpoint: url, event_types: ['room_updated'] })
          .expect(400);
      }
      await strict.http
        .post(api('/webhooks'))
        .set(as(hotel.accessToken))
        .send({ endpoint: 'https://receiver.example.com/x', event_types: ['chat:typing'] })
        .expect(400);
    } finally {
      await strict.close();
    }
  });
});
