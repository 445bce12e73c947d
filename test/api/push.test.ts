import { randomBytes, randomUUID } from 'node:crypto';
import { MAX_SUBSCRIPTIONS_PER_USER } from '../../src/modules/push';
import { startFakePushService, type BrowserSubscription, type FakePushService } from '../fakes/push';
import { addStaff, as, registerHotel, type RegisteredHotel } from '../helpers/accounts';
import { createTestApp, type TestApp } from '../helpers/app';
import { TEST_APP_ENV } from '../helpers/stack-env';

let fake: FakePushService;
let t: TestApp;

beforeAll(async () => {
  fake = await startFakePushService();
  // The fake listens on 127.0.0.1: this app may address it (production refuses private addresses).
  t = createTestApp({ ALLOW_PRIVATE_OUTBOUND: 'true', PUSH_CA_FILE: fake.caFile });
});
afterAll(async () => {
  await t.close();
  await fake.close();
});

const push = (hotel: RegisteredHotel, route: string) => `/api/hotels/${hotel.slug}/push/${route}`;

const subscribe = (hotel: RegisteredHotel, token: string, body: unknown) =>
  t.http
    .post(push(hotel, 'subscribe'))
    .set(as(token))
    .send(body as object);

const rowsOf = (endpoint: string) => t.db('push_subscriptions').where({ endpoint });

describe('GET /push/vapid-key', () => {
  it('gives signed-in staff the installation’s public key, nobody else', async () => {
    const hotel = await registerHotel(t);
    const housekeeper = await addStaff(t, hotel, 'housekeeper');
    const answer = await t.http.get(push(hotel, 'vapid-key')).set(as(housekeeper.accessToken)).expect(200);
    expect(answer.body).toEqual({ public_key: TEST_APP_ENV.VAPID_PUBLIC_KEY });
    await t.http.get(push(hotel, 'vapid-key')).expect(401);
    const other = await registerHotel(t);
    await t.http.get(push(hotel, 'vapid-key')).set(as(other.accessToken)).expect(403);
  });

  it('answers 503 where the server has no VAPID keys', async () => {
    const bare = createTestApp({ VAPID_PUBLIC_KEY: '', VAPID_PRIVATE_KEY: '', VAPID_SUBJECT: '' });
    try {
      expect(bare.config.push.vapid).toBeUndefined();
      const hotel = await registerHotel(bare);
      const answer = await bare.http.get(push(hotel, 'vapid-key')).set(as(hotel.accessToken)).expect(503);
      expect(answer.body.detail).toBe('Push-уведомления не настроены на сервере');
    } finally {
      await bare.close();
    }
  });
});

describe('POST /push/subscribe', () => {
  it('keeps the browser’s subscription for the signed-in user, one row per endpoint', async () => {
    const hotel = await registerHotel(t);
    const browser = fake.subscribe();
    const first = await subscribe(hotel, hotel.accessToken, browser).expect(200);
    expect(first.body).toEqual({
      id: expect.any(String),
      endpoint: browser.endpoint,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect(first.body).not.toHaveProperty('keys');
    // The browser renewed its keys: the same row, the new keys.
    const renewed = { ...browser, keys: fake.subscribe().keys };
    const second = await subscribe(hotel, hotel.accessToken, renewed).expect(200);
    expect(second.body.id).toBe(first.body.id);
    expect(await rowsOf(browser.endpoint)).toEqual([
      expect.objectContaining({
        hotel_id: hotel.hotelId,
        user_id: hotel.userId,
        p256dh: renewed.keys.p256dh,
        auth: renewed.keys.auth,
      }),
    ]);
  });

  it('moves a browser’s subscription to the user who subscribed on it last', async () => {
    const hotel = await registerHotel(t);
    const receptionist = await addStaff(t, hotel, 'receptionist');
    const browser = fake.subscribe();
    await subscribe(hotel, hotel.accessToken, browser).expect(200);
    await subscribe(hotel, receptionist.accessToken, browser).expect(200);
    expect(await rowsOf(browser.endpoint)).toEqual([expect.objectContaining({ user_id: receptionist.id })]);
  });

  it('keeps one subscription per hotel for a browser signed in to two hotels, neither touching the other', async () => {
    const hotel = await registerHotel(t);
    const other = await registerHotel(t);
    const browser = fake.subscribe();
    await subscribe(hotel, hotel.accessToken, browser).expect(200);
    await subscribe(other, other.accessToken, browser).expect(200);
    expect((await rowsOf(browser.endpoint)).map((row) => row.user_id).sort()).toEqual(
      [hotel.userId, other.userId].sort(),
    );
    await t.http
      .post(push(other, 'unsubscribe'))
      .set(as(other.accessToken))
      .send({ endpoint: browser.endpoint })
      .expect(200);
    expect(await rowsOf(browser.endpoint)).toEqual([expect.objectContaining({ user_id: hotel.userId })]);
  });

  it('refuses what is not a usable subscription, in words', async () => {
    const hotel = await registerHotel(t);
    const { endpoint, keys } = fake.subscribe();
    const refusals: [unknown, RegExp][] = [
      [{ endpoint: endpoint.replace('https:', 'http:'), keys }, /https/],
      [{ endpoint: 'not a url', keys }, /https/],
      [{ endpoint: `${endpoint}/${'x'.repeat(1024)}`, keys }, /endpoint/],
      [{ endpoint }, /keys/],
      [{ endpoint, keys: { ...keys, p256dh: randomBytes(65).toString('base64url') } }, /p256dh/],
      [{ endpoint, keys: { ...keys, p256dh: randomBytes(32).toString('base64url') } }, /p256dh/],
      [{ endpoint, keys: { ...keys, auth: randomBytes(8).toString('base64url') } }, /auth/],
      [{ endpoint, keys: { ...keys, auth: 'not base64!' } }, /auth/],
      [{ endpoint, keys, extra: 1 }, /extra/],
    ];
    for (const [body, words] of refusals) {
      const answer = await subscribe(hotel, hotel.accessToken, body).expect(400);
      expect(JSON.stringify(answer.body)).toMatch(words);
    }
    expect(await rowsOf(endpoint)).toEqual([]);
  });

  it('refuses an endpoint on a private address where outbound calls must be public', async () => {
    const strict = createTestApp();
    try {
      const hotel = await registerHotel(strict);
      const browser = fake.subscribe();
      await strict.http.post(push(hotel, 'subscribe')).set(as(hotel.accessToken)).send(browser).expect(400);
      expect(await rowsOf(browser.endpoint)).toEqual([]);
    } finally {
      await strict.close();
    }
  });

  it(`keeps at most ${MAX_SUBSCRIPTIONS_PER_USER} devices per user, forgetting the one subscribed longest ago`, async () => {
    const hotel = await registerHotel(t);
    const browsers: BrowserSubscription[] = [];
    for (let i = 0; i <= MAX_SUBSCRIPTIONS_PER_USER; i += 1) {
      browsers.push(fake.subscribe());
      await subscribe(hotel, hotel.accessToken, browsers[i]).expect(200);
    }
    const kept = await t.db('push_subscriptions').where({ user_id: hotel.userId }).pluck('endpoint');
    expect(kept).toHaveLength(MAX_SUBSCRIPTIONS_PER_USER);
    expect(kept).not.toContain(browsers[0].endpoint);
    expect(kept).toContain(browsers[MAX_SUBSCRIPTIONS_PER_USER].endpoint);
  });
});

describe('unsubscribe', () => {
  it('forgets your own subscription by POST or DELETE, never another user’s', async () => {
    const hotel = await registerHotel(t);
    const manager = await addStaff(t, hotel, 'manager');
    const mine = fake.subscribe();
    const theirs = fake.subscribe();
    await subscribe(hotel, hotel.accessToken, mine).expect(200);
    await subscribe(hotel, manager.accessToken, theirs).expect(200);

    const refused = await t.http
      .post(push(hotel, 'unsubscribe'))
      .set(as(hotel.accessToken))
      .send({ endpoint: theirs.endpoint })
      .expect(200);
    expect(refused.body).toEqual({ ok: true, removed: false });
    expect(await rowsOf(theirs.endpoint)).toHaveLength(1);

    const byPost = await t.http
      .post(push(hotel, 'unsubscribe'))
      .set(as(hotel.accessToken))
      .send({ endpoint: mine.endpoint })
      .expect(200);
    expect(byPost.body).toEqual({ ok: true, removed: true });
    expect(await rowsOf(mine.endpoint)).toEqual([]);

    const byDelete = await t.http
      .delete(push(hotel, 'unsubscribe'))
      .set(as(manager.accessToken))
      .send({ endpoint: theirs.endpoint })
      .expect(200);
    expect(byDelete.body).toEqual({ ok: true, removed: true });
    expect(await rowsOf(theirs.endpoint)).toEqual([]);

    await t.http.delete(push(hotel, 'unsubscribe')).set(as(manager.accessToken)).send({}).expect(400);
  });

  it('another hotel’s staff cannot reach a hotel’s push routes', async () => {
    const hotel = await registerHotel(t);
    const other = await registerHotel(t);
    const browser = fake.subscribe();
    await subscribe(hotel, other.accessToken, browser).expect(403);
    await t.http
      .post(push(hotel, 'unsubscribe'))
      .set(as(other.accessToken))
      .send({ endpoint: browser.endpoint })
      .expect(403);
  });
});

describe('a notification’s push is enqueued with it', () => {
  const pushMessages = (notificationId: string) =>
    t
      .db('outbox')
      .whereRaw("message->>'workflowId' = ?", [`pushDelivery:${notificationId}`])
      .pluck('message');

  const notifyOwner = (hotel: RegisteredHotel) =>
    t.db.transaction((trx) =>
      t.services.notifications.notify(trx, hotel.hotelId, {
        type: 'widget_booking',
        title: 'Новая бронь',
        body: 'С сайта',
      }),
    );

  it('starts pushDelivery:<notificationId> on commit, with ids only: its recipients’ subscriptions', async () => {
    const hotel = await registerHotel(t);
    const subscribed = await subscribe(hotel, hotel.accessToken, fake.subscribe()).expect(200);
    const created = await notifyOwner(hotel);
    expect(created.recipients).toBe(1);
    expect(await pushMessages(created.id)).toEqual([
      expect.objectContaining({
        kind: 'startWorkflow',
        workflowType: 'pushDelivery',
        args: [{ hotelId: hotel.hotelId, notificationId: created.id, subscriptionIds: [subscribed.body.id] }],
        searchAttributes: { HotelSlug: hotel.slug },
      }),
    ]);
  });

  it('starts nothing when no recipient has a subscription (no workflow that would only find none)', async () => {
    const hotel = await registerHotel(t);
    const created = await notifyOwner(hotel);
    expect(created.recipients).toBe(1);
    expect(await pushMessages(created.id)).toEqual([]);
  });

  it('enqueues nothing when the transaction rolls back, or when nobody receives the type', async () => {
    const hotel = await registerHotel(t);
    let id = '';
    await expect(
      t.db.transaction(async (trx) => {
        id = (
          await t.services.notifications.notify(trx, hotel.hotelId, {
            type: 'widget_booking',
            title: 'Откатится',
            body: '',
          })
        ).id;
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await pushMessages(id)).toEqual([]);
    expect(await t.db('notifications').where({ id })).toEqual([]);

    await t.http
      .patch(`/api/hotels/${hotel.slug}/notification-settings`)
      .set(as(hotel.accessToken))
      .send({ hotel_admin: { review_created: false }, manager: { review_created: false } })
      .expect(200);
    const unheard = await t.db.transaction((trx) =>
      t.services.notifications.notify(trx, hotel.hotelId, {
        type: 'review_created',
        title: 'Отзыв',
        body: '',
        data: { review_id: randomUUID() },
      }),
    );
    expect(unheard.recipients).toBe(0);
    expect(await pushMessages(unheard.id)).toEqual([]);
  });
});
