import { randomUUID } from 'node:crypto';
import { Client, Connection } from '@temporalio/client';
import { createTestApp, type TestApp } from '../helpers/app';
import { addStaff, as, registerHotel, uniqueEmail, type RegisteredHotel } from '../helpers/accounts';
import { localDay } from '../helpers/dates';
import { readStackInfo } from '../helpers/stack-env';
import { bringStayTo } from '../helpers/stays';
import { createCategory, createRoom } from '../helpers/structure';
import { until } from '../helpers/wait';

let t: TestApp;
beforeAll(() => {
  t = createTestApp();
});
afterAll(() => t.close());

const api = (hotel: RegisteredHotel, path: string) => `/api/hotels/${hotel.slug}${path}`;
const guest = {
  guest_last_name: 'Аудитова',
  guest_first_name: 'Мария',
  guest_phone: '+79990004455',
  guest_email: 'maria.auditova@example.test',
};
const PERSONAL = ['Аудитова', 'Мария', '79990004455', 'maria.auditova'];

interface Entry {
  seq: number;
  at: string;
  actor: { kind: string; id: string | null; role: string | null };
  operation: string;
  resource: string;
  resource_id: string | null;
  action: string;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  request_id: string | null;
  idempotency_key: string | null;
  address: string | null;
}

async function entries(hotel: RegisteredHotel, query: Record<string, string | number> = {}) {
  const response = await t.http.get(api(hotel, '/audit')).set(as(hotel.accessToken)).query(query);
  if (response.status !== 200) throw new Error(JSON.stringify(response.body));
  return { items: response.body as Entry[], next: response.headers['x-next-cursor'] as string | undefined };
}

async function hotelWithRoom(settings: Record<string, unknown> = {}) {
  const hotel = await registerHotel(t);
  if (Object.keys(settings).length > 0)
    await t.http.patch(api(hotel, '/settings')).set(as(hotel.accessToken)).send(settings).expect(200);
  const category = await createCategory(t, hotel, { base_price: 4000 });
  const room = await createRoom(t, hotel, category.id);
  return { hotel, category, room };
}

/** A forger with the database owner's rights, who gets past the append-only trigger. */
async function forge(sql: string, hotelId: string): Promise<void> {
  await t.db.transaction(async (trx) => {
    await trx.raw('SET LOCAL session_replication_role = replica');
    await trx.raw(sql, [hotelId]);
  });
}

describe('the audit log of a booking', () => {
  it('records creation, a change and the check-in with the staff member, role, request, key and masked data', async () => {
    const { hotel, room } = await hotelWithRoom();
    const desk = await addStaff(t, hotel, 'receptionist');
    const requestId = `audit-create-${randomUUID()}`;
    const created = await t.http
      .post(api(hotel, '/bookings'))
      .set(as(desk.accessToken))
      .set({ 'Idempotency-Key': 'audit-key-1', 'X-Request-Id': requestId })
      .send({ ...guest, room_id: room.id, check_in: localDay(0), check_out: localDay(2) })
      .expect(201);
    const id = created.body.id as string;
    await t.http
      .patch(api(hotel, `/bookings/${id}`))
      .set(as(desk.accessToken))
      .send({ guests_count: 2, notes: 'Аудитова просит тишины' })
      .expect(200);
    await bringStayTo(t, hotel, id, 'checked_in');

    const { items } = await entries(hotel, { resource: 'bookings', resource_id: id });
    const [checkIn, change, creation] = items;
    expect(creation).toMatchObject({
      actor: { kind: 'staff', id: desk.id, role: 'receptionist' },
      operation: 'postHotelsBySlugBookings',
      action: 'insert',
      request_id: requestId,
      idempotency_key: 'audit-key-1',
      address: expect.stringMatching(/127\.0\.0\.1|::1/),
      before: null,
    });
    expect(creation.after).toMatchObject({ id, status: 'confirmed', guest_last_name: '[masked]' });
    expect(change).toMatchObject({ operation: 'patchHotelsBySlugBookingsById', action: 'update' });
    expect(change.before).toMatchObject({ guests_count: 1, notes: '[masked]' });
    expect(change.after).toMatchObject({ guests_count: 2, notes: '[masked]' });
    expect(checkIn).toMatchObject({
      actor: { kind: 'staff', id: hotel.userId, role: 'hotel_admin' },
      before: expect.objectContaining({ status: 'confirmed' }),
      after: expect.objectContaining({ status: 'checked_in' }),
    });
    // The request's other rows (the guest's profile...) carry the same request, none of the personal data.
    const all = JSON.stringify((await entries(hotel, { limit: 500 })).items);
    for (const value of PERSONAL) expect(all).not.toContain(value);
    const request = (await entries(hotel, { limit: 500 })).items.filter((entry) => entry.request_id === requestId);
    expect(request.map((entry) => entry.resource)).toEqual(expect.arrayContaining(['bookings', 'guests']));
  });

  it('records a widget booking as the guest, through the widget', async () => {
    const { hotel, category } = await hotelWithRoom();
    const { body } = await t.http
      .post(`/api/widget/${hotel.slug}/bookings`)
      .send({
        ...guest,
        guest_email: uniqueEmail('audit-widget'),
        category_id: category.id,
        check_in: localDay(10),
        check_out: localDay(12),
        guests_count: 1,
      })
      .expect(201);
    const { items } = await entries(hotel, { resource: 'bookings', resource_id: body.booking.id });
    expect(items.at(-1)).toMatchObject({
      actor: { kind: 'guest', id: 'Widget', role: null },
      operation: 'postWidgetBySlugBookings',
      action: 'insert',
    });
  });

  it('records the no-show sweep as the job that cancelled the stay', async () => {
    const { hotel, room } = await hotelWithRoom({ no_show_auto_cancel: true, no_show_hours: 1 });
    const missed = await t.http
      .post(api(hotel, '/bookings'))
      .set(as(hotel.accessToken))
      .send({ ...guest, room_id: room.id, check_in: localDay(-2), check_out: localDay(1) })
      .expect(201);
    const connection = await Connection.connect({ address: readStackInfo().env.TEMPORAL_ADDRESS });
    try {
      await new Client({ connection }).workflow.execute('noShowSweep', {
        taskQueue: 'hotel',
        workflowId: `test-audit-no-show-${missed.body.id}`,
      });
    } finally {
      await connection.close();
    }
    const { items } = await entries(hotel, { actor_kind: 'job', resource_id: missed.body.id });
    expect(items[0]).toMatchObject({
      actor: { kind: 'job', id: 'noShowSweep', role: null },
      resource: 'bookings',
      action: 'update',
      request_id: null,
      after: expect.objectContaining({ status: 'cancelled', cancel_reason: 'no_show' }),
    });
  });
});

describe('the chain', () => {
  it('verifies intact, then names the first entry changed behind its back', async () => {
    const { hotel, room } = await hotelWithRoom();
    await t.http
      .post(api(hotel, '/bookings'))
      .set(as(hotel.accessToken))
      .send({ ...guest, room_id: room.id, check_in: localDay(20), check_out: localDay(21) })
      .expect(201);
    const intact = await t.http.get(api(hotel, '/audit/verify')).set(as(hotel.accessToken)).expect(200);
    expect(intact.body).toMatchObject({ intact: true, last_hash: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(intact.body.entries).toBeGreaterThan(4);
    // Entries wait for their number only inside their transaction; after the commit none is left pending.
    expect(await t.db('audit_pending').where({ hotel_id: hotel.hotelId }).count({ n: '*' })).toEqual([{ n: '0' }]);

    await expect(
      t
        .db('audit_entries')
        .where({ hotel_id: hotel.hotelId, seq: 3 })
        .update({ after: { forged: true } }),
    ).rejects.toThrow(/append-only/);
    await expect(t.db('audit_heads').where({ hotel_id: hotel.hotelId }).update({ last_seq: 1 })).rejects.toThrow(
      /append-only/,
    );
    await forge('UPDATE audit_entries SET after = \'{"forged": true}\' WHERE hotel_id = ? AND seq = 3', hotel.hotelId);
    const forged = await t.http.get(api(hotel, '/audit/verify')).set(as(hotel.accessToken)).expect(200);
    expect(forged.body).toEqual({ intact: false, entries: 2, broken_at: 3, reason: 'content_changed' });

    // A forger who also recomputes the hash breaks the next link instead.
    await forge('UPDATE audit_entries e SET hash = audit_entry_hash(e) WHERE hotel_id = ? AND seq = 3', hotel.hotelId);
    const rehashed = await t.http.get(api(hotel, '/audit/verify')).set(as(hotel.accessToken)).expect(200);
    expect(rehashed.body).toMatchObject({ intact: false, broken_at: 4, reason: 'previous_hash_mismatch' });

    await t.db('audit_entries').where({ hotel_id: hotel.hotelId }).where('seq', '>=', 3).delete();
    const cut = await t.http.get(api(hotel, '/audit/verify')).set(as(hotel.accessToken)).expect(200);
    // The booking's own workflow may append an entry after the cut: then the gap, not the head, is found first.
    expect(cut.body).toMatchObject({ intact: false, broken_at: 3 });
    expect(['head_mismatch', 'entry_missing']).toContain(cut.body.reason);
  });
});

describe('reading the log', () => {
  it('filters by resource, actor, operation and time, and pages without gaps or repeats', async () => {
    const { hotel, room } = await hotelWithRoom();
    const desk = await addStaff(t, hotel, 'receptionist');
    const startedAt = new Date().toISOString();
    for (const offset of [30, 32, 34]) {
      await t.http
        .post(api(hotel, '/bookings'))
        .set(as(desk.accessToken))
        .send({ ...guest, room_id: room.id, check_in: localDay(offset), check_out: localDay(offset + 1) })
        .expect(201);
    }
    const byDesk = (await entries(hotel, { actor_kind: 'staff', actor_id: desk.id, limit: 500 })).items;
    expect(byDesk.length).toBeGreaterThanOrEqual(3);
    expect(byDesk.every((entry) => entry.actor.id === desk.id && entry.at >= startedAt)).toBe(true);
    const created = (await entries(hotel, { operation: 'postHotelsBySlugBookings', resource: 'bookings' })).items;
    expect(created.map((entry) => entry.action)).toEqual(['insert', 'insert', 'insert']);
    expect((await entries(hotel, { from: startedAt, resource: 'rooms' })).items).toEqual([]);
    expect((await entries(hotel, { to: startedAt, resource: 'rooms' })).items.length).toBeGreaterThan(0);

    const all = (await entries(hotel, { limit: 500 })).items;
    const paged: Entry[] = [];
    let cursor: string | undefined;
    do {
      const page = await entries(hotel, { limit: 7, ...(cursor && { cursor }) });
      paged.push(...page.items);
      cursor = page.next;
    } while (cursor);
    expect(paged.map((entry) => entry.seq)).toEqual(all.map((entry) => entry.seq));
    expect(all.map((entry) => entry.seq)).toEqual([...all.map((entry) => entry.seq)].sort((a, b) => b - a));

    const bad = await t.http.get(api(hotel, '/audit')).set(as(hotel.accessToken)).query({ actor_kind: 'martian' });
    expect(bad.status).toBe(400);
  });

  it('shows another hotel nothing, and is closed to roles outside management and security', async () => {
    const { hotel } = await hotelWithRoom();
    const other = await registerHotel(t);
    await t.http.get(api(hotel, '/audit')).set(as(other.accessToken)).expect(403);
    await t.http.get(api(hotel, '/audit/verify')).set(as(other.accessToken)).expect(403);
    const theirs = (await entries(other, { limit: 500 })).items;
    expect(theirs.some((entry) => entry.resource_id === hotel.hotelId)).toBe(false);
    const housekeeper = await addStaff(t, hotel, 'housekeeper');
    await t.http.get(api(hotel, '/audit')).set(as(housekeeper.accessToken)).expect(403);
  });
});

describe('the commit', () => {
  it('a booking with a new guest and a change of a category, together on one hotel, never deadlock', async () => {
    const { hotel, category, room } = await hotelWithRoom();
    const rooms = [room.id, (await createRoom(t, hotel, category.id)).id, (await createRoom(t, hotel, category.id)).id];
    const statuses: number[] = [];
    for (let round = 0; round < 30; round += 1) {
      const answers = await Promise.all(
        [0, 1, 2].flatMap((pair) => [
          t.http
            .post(api(hotel, '/bookings'))
            .set(as(hotel.accessToken))
            .send({
              ...guest,
              guest_phone: `+7999${pair}00${String(round).padStart(4, '0')}`,
              room_id: rooms[pair],
              check_in: localDay(40 + round * 2),
              check_out: localDay(41 + round * 2),
            }),
          t.http
            .patch(api(hotel, `/room-categories/${category.id}`))
            .set(as(hotel.accessToken))
            .send({ base_price: 4000 + round * 3 + pair }),
        ]),
      );
      statuses.push(...answers.map((answer) => answer.status));
    }
    expect(statuses.filter((status) => status >= 300)).toEqual([]);
    const verdict = await t.http.get(api(hotel, '/audit/verify')).set(as(hotel.accessToken)).expect(200);
    expect(verdict.body).toMatchObject({ intact: true });
  });

  it("commits two transactions whose realtime and audit work come in opposite orders, queued behind the hotel's lock", async () => {
    const { hotel } = await hotelWithRoom();
    const waiting = async (count: number) =>
      until(
        async () => {
          const { rows } = (await t.db.raw(
            "SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted",
          )) as { rows: { n: number }[] };
          return rows[0].n >= count;
        },
        { what: `${count} commits waiting`, timeoutMs: 10_000, intervalMs: 50 },
      );
    // A guest's row has no inventory trigger: its audit entry is the transaction's first deferred work.
    const guestRow = (trx: typeof t.db) =>
      trx.raw(
        "INSERT INTO guests (hotel_id, last_name, first_name, search_name) VALUES (?, 'Замок', 'Ева', 'замок ева')",
        [hotel.hotelId],
      );
    const event = (trx: typeof t.db) =>
      trx.raw("INSERT INTO realtime_events (hotel_id, type) VALUES (?, 'audit.lock.test')", [hotel.hotelId]);
    // Another commit of the hotel holds its commit lock while both commit.
    const holder = await t.db.transaction();
    await holder.raw('SELECT pg_advisory_xact_lock(1381258821, hashtext(?))', [hotel.hotelId]);
    const realtimeFirst = await t.db.transaction();
    await event(realtimeFirst);
    await guestRow(realtimeFirst);
    const first = realtimeFirst.commit().then(
      () => 'committed',
      (error: Error) => error.message,
    );
    await waiting(1);
    const auditFirst = await t.db.transaction();
    await guestRow(auditFirst);
    await event(auditFirst);
    const second = auditFirst.commit().then(
      () => 'committed',
      (error: Error) => error.message,
    );
    await waiting(2);
    await holder.commit();
    expect(await Promise.all([first, second])).toEqual(['committed', 'committed']);
  });

  it('numbers the entries of a bulk write in order, chained, with the head written once', async () => {
    const { hotel, category } = await hotelWithRoom();
    const items = Array.from({ length: 20 }, (_, index) => ({
      category_id: category.id,
      from: localDay(100 + index * 3),
      to: localDay(101 + index * 3),
      min_stay_arrival: 2,
    }));
    await t.http.put(api(hotel, '/restrictions')).set(as(hotel.accessToken)).send({ items }).expect(200);
    const seqs = (await entries(hotel, { limit: 500 })).items.map((entry) => entry.seq);
    expect(seqs).toEqual(Array.from({ length: seqs.length }, (_, index) => seqs.length - index));
    const verdict = await t.http.get(api(hotel, '/audit/verify')).set(as(hotel.accessToken)).expect(200);
    expect(verdict.body).toMatchObject({ intact: true, entries: seqs.length });
  });
});

describe('verifying', () => {
  it('finds the chain intact while bookings are being written', async () => {
    const { hotel, room } = await hotelWithRoom();
    let writing = true;
    const writer = (async () => {
      for (let index = 0; index < 12; index += 1)
        await t.http
          .post(api(hotel, '/bookings'))
          .set(as(hotel.accessToken))
          .send({ ...guest, room_id: room.id, check_in: localDay(200 + index), check_out: localDay(201 + index) })
          .expect(201);
      writing = false;
    })();
    const verdicts: unknown[] = [];
    while (writing)
      verdicts.push((await t.http.get(api(hotel, '/audit/verify')).set(as(hotel.accessToken)).expect(200)).body);
    await writer;
    expect(verdicts.length).toBeGreaterThan(0);
    expect(verdicts.filter((verdict) => !(verdict as { intact: boolean }).intact)).toEqual([]);
  });

  it('checks a bounded range and says where to go on', async () => {
    const { hotel } = await hotelWithRoom();
    const all = (await t.http.get(api(hotel, '/audit/verify')).set(as(hotel.accessToken)).expect(200)).body;
    const first = await t.http
      .get(api(hotel, '/audit/verify'))
      .query({ limit: 5 })
      .set(as(hotel.accessToken))
      .expect(200);
    expect(first.body).toMatchObject({ intact: true, entries: 5, next_from_seq: 6 });
    const rest = await t.http
      .get(api(hotel, '/audit/verify'))
      .query({ from_seq: 6 })
      .set(as(hotel.accessToken))
      .expect(200);
    expect(rest.body).toEqual({ intact: true, entries: all.entries - 5, last_hash: all.last_hash });
    await t.http.get(api(hotel, '/audit/verify')).query({ limit: 0 }).set(as(hotel.accessToken)).expect(400);
  });
});

describe('what is recorded', () => {
  it("leaves out a workstation's heartbeat, and names a row without an id by its key", async () => {
    const { hotel, room } = await hotelWithRoom();
    const desk = await t.http
      .post(api(hotel, '/workstations'))
      .set(as(hotel.accessToken))
      .send({ name: 'Ресепшн' })
      .expect(201);
    const before = (await entries(hotel, { resource: 'workstations', limit: 500 })).items.length;
    await t.db.raw('UPDATE workstations SET last_seen_at = now() WHERE id = ?', [desk.body.id]);
    expect((await entries(hotel, { resource: 'workstations', limit: 500 })).items).toHaveLength(before);

    const booking = await t.http
      .post(api(hotel, '/bookings'))
      .set(as(hotel.accessToken))
      .send({ ...guest, room_id: room.id, check_in: localDay(300), check_out: localDay(301) })
      .expect(201);
    const [link] = (await entries(hotel, { resource: 'booking_guests' })).items;
    expect(link.resource_id).toMatch(new RegExp(`^${booking.body.id as string}:[0-9a-f-]{36}$`));
  });

  it('masks keys that say personal data at any depth inside jsonb values', async () => {
    const { rows } = (await t.db.raw(
      `SELECT audit_mask_json('{"items": [{"guestName": "Мария", "phone": "+7999", "nights": 2}], "email": null}') AS v`,
    )) as { rows: { v: unknown }[] };
    expect(rows[0].v).toEqual({ items: [{ guestName: '[masked]', phone: '[masked]', nights: 2 }], email: null });
  });
});
