import { randomUUID } from 'node:crypto';
import { NOTIFICATION_TYPES, type NotificationInput } from '../../src/modules/notifications';
import { ValidationError } from '../../src/platform/errors';
import { addStaff, as, registerHotel, type RegisteredHotel } from '../helpers/accounts';
import { createTestApp, type TestApp } from '../helpers/app';

let t: TestApp;
beforeAll(() => {
  t = createTestApp();
});
afterAll(() => t.close());

type Member = Awaited<ReturnType<typeof addStaff>>;

interface Team {
  owner: RegisteredHotel;
  desk: Member;
  maid: Member;
}

/** A fresh hotel (so counts are its own) with a receptionist and a housekeeper. */
async function team(): Promise<Team> {
  const owner = await registerHotel(t);
  const [desk, maid] = await Promise.all([addStaff(t, owner, 'receptionist'), addStaff(t, owner, 'housekeeper')]);
  return { owner, desk, maid };
}

/** The recorded time of the last notification sent: each one is stamped a second later than the one before. */
let lastSentAt = Date.now() - 3_600_000;

/**
 * Notifies in a transaction of its own and stamps the notification a second after the previous one, so "newest
 * first" is the order of the calls, whatever the clock's resolution and however fast they follow each other.
 */
async function send(hotelId: string, input: Partial<NotificationInput> = {}) {
  return t.db.transaction(async (trx) => {
    const result = await t.services.notifications.notify(trx, hotelId, {
      type: 'booking_created',
      title: `Новое бронирование ${randomUUID().slice(0, 6)}`,
      body: 'Иванов И., номер 101, 1–3 декабря',
      data: { booking_id: randomUUID() },
      ...input,
    });
    if (result.created) {
      const createdAt = new Date((lastSentAt += 1000));
      await trx('notifications').where({ id: result.id }).update({ created_at: createdAt });
      await trx('notification_recipients').where({ notification_id: result.id }).update({ created_at: createdAt });
    }
    return result;
  });
}

interface Inbox {
  items: Array<{ id: string; type: string; title: string; read: boolean; read_at: string | null; created_at: string }>;
  unread_count: number;
}

async function inbox(slug: string, token: string, query: Record<string, unknown> = {}): Promise<Inbox> {
  const response = await t.http.get(`/api/hotels/${slug}/notifications`).query(query).set(as(token)).expect(200);
  return response.body as Inbox;
}

const ids = (box: Inbox) => box.items.map((item) => item.id);

describe('notify: who receives a notification', () => {
  it('reaches the roles that have its type enabled, and only them', async () => {
    const { owner, desk, maid } = await team();
    const booking = await send(owner.hotelId, { type: 'booking_created', data: { booking_id: randomUUID() } });
    expect(booking.recipients).toBe(2);
    const task = await send(owner.hotelId, { type: 'housekeeping_task_created', title: 'Уборка 101' });
    expect(task.recipients).toBe(2);

    expect(ids(await inbox(owner.slug, owner.accessToken))).toEqual([task.id, booking.id]);
    expect(ids(await inbox(owner.slug, desk.accessToken))).toEqual([booking.id]);
    expect(ids(await inbox(owner.slug, maid.accessToken))).toEqual([task.id]);

    const seen = (await inbox(owner.slug, desk.accessToken)).items[0];
    expect(seen).toEqual({
      id: booking.id,
      type: 'booking_created',
      title: expect.stringContaining('Новое бронирование'),
      body: 'Иванов И., номер 101, 1–3 декабря',
      data: { booking_id: expect.any(String) },
      created_at: expect.any(String),
      read: false,
      read_at: null,
    });
  });

  it('skips inactive staff and, with userIds, addresses only the listed users', async () => {
    const { owner, desk, maid } = await team();
    const other = await addStaff(t, owner, 'receptionist');
    await t.http
      .patch(`/api/hotels/${owner.slug}/users/${other.id}`)
      .set(as(owner.accessToken))
      .send({ active: false })
      .expect(200);
    const toAll = await send(owner.hotelId, { type: 'chat_message' });
    expect(toAll.recipients).toBe(3);
    // userIds narrows the audience but never widens it past the role switches.
    const toSome = await send(owner.hotelId, { type: 'booking_created', userIds: [desk.id, maid.id] });
    expect(toSome.recipients).toBe(1);
    expect(ids(await inbox(owner.slug, desk.accessToken))).toEqual([toSome.id, toAll.id]);
    expect(ids(await inbox(owner.slug, maid.accessToken))).toEqual([toAll.id]);
    expect(ids(await inbox(owner.slug, owner.accessToken))).toEqual([toAll.id]);
  });

  it('a type nobody receives is recorded with 0 recipients', async () => {
    const { owner } = await team();
    await t.http
      .patch(`/api/hotels/${owner.slug}/notification-settings`)
      .set(as(owner.accessToken))
      .send({ hotel_admin: { review_created: false }, manager: { review_created: false } })
      .expect(200);
    const result = await send(owner.hotelId, { type: 'review_created' });
    expect(result.recipients).toBe(0);
    expect(await t.db('notifications').where({ id: result.id }).first()).toMatchObject({ type: 'review_created' });
    expect((await inbox(owner.slug, owner.accessToken)).items).toEqual([]);
  });

  it('a dedupe key makes one notification however often (and however concurrently) it is sent', async () => {
    const { owner } = await team();
    const dedupeKey = `booking_created:${owner.hotelId}`;
    const results = await Promise.all(Array.from({ length: 4 }, () => send(owner.hotelId, { dedupeKey })));
    expect(results.filter((r) => r.created)).toHaveLength(1);
    expect(new Set(results.map((r) => r.id)).size).toBe(1);
    expect((await send(owner.hotelId, { dedupeKey })).created).toBe(false);
    expect(await t.db('notifications').where({ hotel_id: owner.hotelId, dedupe_key: dedupeKey })).toHaveLength(1);
    expect((await inbox(owner.slug, owner.accessToken)).items).toHaveLength(1);
  });

  it('refuses an unknown type, an empty title and data that is not small and flat; nothing is recorded', async () => {
    const { owner } = await team();
    const bad: Array<Partial<NotificationInput>> = [
      { type: 'guest_arrived' as NotificationInput['type'] },
      { title: '  ' },
      { title: 'x'.repeat(201) },
      { data: { booking: { id: 1 } } as unknown as NotificationInput['data'] },
      { data: { 'Booking-Id': 'x' } },
    ];
    for (const input of bad) await expect(send(owner.hotelId, input)).rejects.toBeInstanceOf(ValidationError);
    expect(await t.db('notifications').where({ hotel_id: owner.hotelId })).toEqual([]);
  });

  it('commits with the caller’s transaction: a rolled-back notify leaves nothing', async () => {
    const { owner } = await team();
    await expect(
      t.db.transaction(async (trx) => {
        await t.services.notifications.notify(trx, owner.hotelId, {
          type: 'booking_created',
          title: 'Откат',
          body: '',
        });
        throw new Error('the booking failed');
      }),
    ).rejects.toThrow('the booking failed');
    expect(await inbox(owner.slug, owner.accessToken)).toEqual({ items: [], unread_count: 0 });
  });
});

describe('a user’s notifications', () => {
  it('unread filter and unread_count; marking one read and unread; read-all', async () => {
    const { owner, desk } = await team();
    const first = await send(owner.hotelId);
    const second = await send(owner.hotelId);
    const third = await send(owner.hotelId);
    const base = `/api/hotels/${owner.slug}/notifications`;
    expect((await inbox(owner.slug, desk.accessToken)).unread_count).toBe(3);

    const read = await t.http.patch(`${base}/${second.id}`).set(as(desk.accessToken)).send({ read: true }).expect(200);
    expect(read.body).toMatchObject({ id: second.id, read: true, read_at: expect.any(String) });
    // Marking read again keeps the first read time.
    const again = await t.http.patch(`${base}/${second.id}`).set(as(desk.accessToken)).send({ read: true }).expect(200);
    expect(again.body.read_at).toBe(read.body.read_at);

    const unread = await inbox(owner.slug, desk.accessToken, { unread: true });
    expect(ids(unread)).toEqual([third.id, first.id]);
    expect(unread.unread_count).toBe(2);
    const all = await inbox(owner.slug, desk.accessToken);
    expect(all.items.map((item) => [item.id, item.read])).toEqual([
      [third.id, false],
      [second.id, true],
      [first.id, false],
    ]);
    expect(all.unread_count).toBe(2);
    // Read state is per user: the owner's copy is still unread.
    expect((await inbox(owner.slug, owner.accessToken)).unread_count).toBe(3);

    await t.http.patch(`${base}/${second.id}`).set(as(desk.accessToken)).send({ read: false }).expect(200);
    expect((await inbox(owner.slug, desk.accessToken)).unread_count).toBe(3);

    const readAll = await t.http.post(`${base}/read-all`).set(as(desk.accessToken)).expect(200);
    expect(readAll.body).toEqual({ ok: true, updated: 3 });
    expect(await inbox(owner.slug, desk.accessToken, { unread: true })).toEqual({ items: [], unread_count: 0 });
    expect((await t.http.post(`${base}/read-all`).set(as(desk.accessToken)).expect(200)).body).toEqual({
      ok: true,
      updated: 0,
    });
    expect((await inbox(owner.slug, owner.accessToken)).unread_count).toBe(3);
  });

  it('delete hides it for that user only', async () => {
    const { owner, desk } = await team();
    const kept = await send(owner.hotelId);
    const gone = await send(owner.hotelId);
    const base = `/api/hotels/${owner.slug}/notifications`;
    expect((await t.http.delete(`${base}/${gone.id}`).set(as(desk.accessToken)).expect(200)).body).toEqual({
      ok: true,
    });
    expect(await inbox(owner.slug, desk.accessToken)).toMatchObject({ items: [{ id: kept.id }], unread_count: 1 });
    expect(ids(await inbox(owner.slug, owner.accessToken))).toEqual([gone.id, kept.id]);
    // Gone for the user: neither deleted again, nor marked, nor counted by read-all.
    await t.http.delete(`${base}/${gone.id}`).set(as(desk.accessToken)).expect(404);
    await t.http.patch(`${base}/${gone.id}`).set(as(desk.accessToken)).send({ read: true }).expect(404);
    expect((await t.http.post(`${base}/read-all`).set(as(desk.accessToken)).expect(200)).body.updated).toBe(1);
  });

  it('pages newest first with limit, before and before_id', async () => {
    const { owner, desk } = await team();
    const sent: string[] = [];
    for (let i = 0; i < 7; i++) sent.push((await send(owner.hotelId)).id);
    // Four of them created in the same millisecond: the cursor must neither skip nor repeat any of them.
    const tie = sent.slice(1, 5);
    const instant = new Date(Date.now() - 60_000);
    await t.db('notifications').whereIn('id', tie).update({ created_at: instant });
    await t.db('notification_recipients').whereIn('notification_id', tie).update({ created_at: instant });
    const newestFirst = ids(await inbox(owner.slug, desk.accessToken, { limit: 200 }));
    expect([...newestFirst].sort()).toEqual([...sent].sort());
    expect((await inbox(owner.slug, desk.accessToken)).items).toHaveLength(7);

    const pages: string[][] = [];
    let cursor: { before?: string; before_id?: string } = {};
    for (;;) {
      const page = await inbox(owner.slug, desk.accessToken, { limit: 3, ...cursor });
      if (page.items.length === 0) break;
      pages.push(ids(page));
      expect(page.unread_count).toBe(7);
      const last = page.items[page.items.length - 1];
      cursor = { before: last.created_at, before_id: last.id };
    }
    expect(pages.map((page) => page.length)).toEqual([3, 3, 1]);
    expect(pages.flat()).toEqual(newestFirst);

    // `before` alone: strictly older than that instant.
    const full = (await inbox(owner.slug, desk.accessToken)).items;
    const pivot = full[2].created_at;
    const older = await inbox(owner.slug, desk.accessToken, { before: pivot });
    expect(ids(older)).toEqual(full.filter((item) => item.created_at < pivot).map((item) => item.id));
    expect(older.items.length).toBeGreaterThan(0);
  });

  it('400 for a bad limit, a bad before, before_id alone and a bad read body', async () => {
    const { owner } = await team();
    const base = `/api/hotels/${owner.slug}/notifications`;
    for (const query of [{ limit: 0 }, { limit: 201 }, { before: 'yesterday' }, { before_id: randomUUID() }]) {
      await t.http.get(base).query(query).set(as(owner.accessToken)).expect(400);
    }
    const { id } = await send(owner.hotelId);
    await t.http.patch(`${base}/${id}`).set(as(owner.accessToken)).send({}).expect(400);
    await t.http.patch(`${base}/${id}`).set(as(owner.accessToken)).send({ read: 'maybe' }).expect(400);
    await t.http.patch(`${base}/not-a-uuid`).set(as(owner.accessToken)).send({ read: true }).expect(400);
  });

  it('another user of the hotel cannot mark or delete someone else’s notification (404)', async () => {
    const { owner, desk, maid } = await team();
    const review = await send(owner.hotelId, { type: 'review_created' });
    const base = `/api/hotels/${owner.slug}/notifications/${review.id}`;
    for (const intruder of [desk, maid]) {
      await t.http.patch(base).set(as(intruder.accessToken)).send({ read: true }).expect(404);
      await t.http.delete(base).set(as(intruder.accessToken)).expect(404);
    }
    expect((await inbox(owner.slug, owner.accessToken)).items).toMatchObject([{ id: review.id, read: false }]);
    await t.http.patch(base).set(as(owner.accessToken)).send({ read: true }).expect(200);
  });
});

describe('notification settings', () => {
  it('GET answers every hotel role with every type, defaults included', async () => {
    const { owner, desk } = await team();
    const manager = await addStaff(t, owner, 'manager');
    const settings = (
      await t.http.get(`/api/hotels/${owner.slug}/notification-settings`).set(as(manager.accessToken)).expect(200)
    ).body;
    expect(Object.keys(settings).sort()).toEqual(
      ['accountant', 'housekeeper', 'hotel_admin', 'manager', 'receptionist', 'security', 'technician'].sort(),
    );
    for (const role of Object.keys(settings))
      expect(Object.keys(settings[role]).sort()).toEqual([...NOTIFICATION_TYPES].sort());
    expect(Object.values(settings.hotel_admin).every(Boolean)).toBe(true);
    expect(settings.receptionist).toMatchObject({
      booking_created: true,
      booking_blacklisted_guest: true,
      widget_booking: true,
      room_service_order: true,
      chat_message: true,
      housekeeping_task_created: false,
      review_created: false,
    });
    expect(settings.housekeeper).toMatchObject({ housekeeping_task_created: true, booking_created: false });
    expect(settings.security).toMatchObject({ booking_blacklisted_guest: true, booking_created: false });
    await t.http.get(`/api/hotels/${owner.slug}/notification-settings`).set(as(desk.accessToken)).expect(403);
  });

  it('PATCH changes who receives the next one; other switches stay', async () => {
    const { owner, desk, maid } = await team();
    const before = await send(owner.hotelId);
    const patched = await t.http
      .patch(`/api/hotels/${owner.slug}/notification-settings`)
      .set(as(owner.accessToken))
      .send({ receptionist: { booking_created: false }, housekeeper: { booking_created: true } })
      .expect(200);
    expect(patched.body.receptionist).toMatchObject({ booking_created: false, booking_cancelled_no_show: true });
    expect(patched.body.housekeeper).toMatchObject({ booking_created: true, housekeeping_task_created: true });

    const after = await send(owner.hotelId);
    expect(after.recipients).toBe(2);
    expect(ids(await inbox(owner.slug, desk.accessToken))).toEqual([before.id]);
    expect(ids(await inbox(owner.slug, maid.accessToken))).toEqual([after.id]);

    // A second change merges into the first.
    const second = await t.http
      .patch(`/api/hotels/${owner.slug}/notification-settings`)
      .set(as(owner.accessToken))
      .send({ receptionist: { widget_booking: false } })
      .expect(200);
    expect(second.body.receptionist).toMatchObject({ booking_created: false, widget_booking: false });
    const read = await t.http
      .get(`/api/hotels/${owner.slug}/notification-settings`)
      .set(as(owner.accessToken))
      .expect(200);
    expect(read.body).toEqual(second.body);
  });

  it('400 for unknown roles, unknown types, non-booleans and an empty change', async () => {
    const { owner } = await team();
    const url = `/api/hotels/${owner.slug}/notification-settings`;
    for (const body of [
      { janitor: { booking_created: true } },
      { super_admin: { booking_created: true } },
      { receptionist: { guest_arrived: true } },
      { receptionist: { booking_created: 'yes please' } },
      { receptionist: true },
      {},
    ]) {
      await t.http.patch(url).set(as(owner.accessToken)).send(body).expect(400);
    }
    const settings = (await t.http.get(url).set(as(owner.accessToken)).expect(200)).body;
    expect(settings.receptionist.booking_created).toBe(true);
  });

  it('only hotel_admin may PATCH', async () => {
    const { owner, desk } = await team();
    const manager = await addStaff(t, owner, 'manager');
    const url = `/api/hotels/${owner.slug}/notification-settings`;
    for (const token of [manager.accessToken, desk.accessToken]) {
      await t.http
        .patch(url)
        .set(as(token))
        .send({ receptionist: { booking_created: false } })
        .expect(403);
    }
    expect((await t.http.get(url).set(as(owner.accessToken)).expect(200)).body.receptionist.booking_created).toBe(true);
  });
});

describe('another hotel', () => {
  it('gets 403 on our slug and 404 for our ids through theirs; nothing changes', async () => {
    const { owner } = await team();
    const other = await registerHotel(t);
    const ours = await send(owner.hotelId);
    const theirs = as(other.accessToken);
    const base = `/api/hotels/${owner.slug}`;
    await t.http.get(`${base}/notifications`).set(theirs).expect(403);
    await t.http.patch(`${base}/notifications/${ours.id}`).set(theirs).send({ read: true }).expect(403);
    await t.http.delete(`${base}/notifications/${ours.id}`).set(theirs).expect(403);
    await t.http.post(`${base}/notifications/read-all`).set(theirs).expect(403);
    await t.http.get(`${base}/notification-settings`).set(theirs).expect(403);
    await t.http
      .patch(`${base}/notification-settings`)
      .set(theirs)
      .send({ receptionist: { booking_created: false } })
      .expect(403);

    const mine = `/api/hotels/${other.slug}/notifications/${ours.id}`;
    await t.http.patch(mine).set(theirs).send({ read: true }).expect(404);
    await t.http.delete(mine).set(theirs).expect(404);
    expect((await inbox(other.slug, other.accessToken)).items).toEqual([]);

    expect(await inbox(owner.slug, owner.accessToken)).toMatchObject({ items: [{ id: ours.id }], unread_count: 1 });
    const settings = await t.http.get(`${base}/notification-settings`).set(as(owner.accessToken)).expect(200);
    expect(settings.body.receptionist.booking_created).toBe(true);
  });
});
