import { ApplicationFailure } from '@temporalio/activity';
import { createUnreadSummaries } from '../../src/modules/chat/chat.unread';
import { pushActivities } from '../../src/modules/push/push.activities';
import type { PushDeliveryInput } from '../../workflows/contracts/push';
import { startFakePushService, type BrowserSubscription, type FakePushService } from '../fakes/push';
import { addStaff, as, registerHotel, type RegisteredHotel } from '../helpers/accounts';
import {
  connectStaff,
  startTestServer,
  type RealtimeMessage,
  type StaffClient,
  type TestServer,
} from '../helpers/realtime';
import { TEST_APP_ENV } from '../helpers/stack-env';

/**
 * A chat message notifies the room's other members as it is posted: an in-app notification (by their roles' switches),
 * `notification:new` to their sockets and a Web Push, folded per member and room while they leave it unread.
 */
let fake: FakePushService;
let t: TestServer;
const sockets: StaffClient[] = [];

beforeAll(async () => {
  fake = await startFakePushService({ vapidPublicKey: TEST_APP_ENV.VAPID_PUBLIC_KEY });
  // The fake listens on 127.0.0.1: this app may address it (production refuses private addresses).
  t = await startTestServer({ ALLOW_PRIVATE_OUTBOUND: 'true', PUSH_CA_FILE: fake.caFile });
});
afterAll(async () => {
  await Promise.all(sockets.map((socket) => socket.close()));
  await t.close();
  await fake.close();
});

type Member = Awaited<ReturnType<typeof addStaff>> & { device: BrowserSubscription };

interface Notice {
  id: string;
  type: string;
  title: string;
  body: string;
  data: Record<string, unknown>;
  read: boolean;
}

interface Staffed {
  hotel: RegisteredHotel;
  ownerDevice: BrowserSubscription;
  desk: Member;
  maid: Member;
  guard: Member;
  outsider: Member;
  roomId: string;
}

const api = (hotel: RegisteredHotel, path: string) => `/api/hotels/${hotel.slug}${path}`;

async function device(hotel: RegisteredHotel, token: string): Promise<BrowserSubscription> {
  const browser = fake.subscribe();
  await t.http.post(api(hotel, '/push/subscribe')).set(as(token)).send(browser).expect(200);
  return browser;
}

async function member(hotel: RegisteredHotel, role: string): Promise<Member> {
  const staff = await addStaff(t, hotel, role);
  return { ...staff, device: await device(hotel, staff.accessToken) };
}

/**
 * A hotel with a group "Смена" of the receptionist (its creator), the housekeeper and the security guard; a second
 * receptionist outside it; the owner (who may read every room) is not a member. Everyone has a device.
 */
async function staffedHotel(): Promise<Staffed> {
  const hotel = await registerHotel(t);
  const [desk, maid, guard, outsider] = await Promise.all([
    member(hotel, 'receptionist'),
    member(hotel, 'housekeeper'),
    member(hotel, 'security'),
    member(hotel, 'receptionist'),
  ]);
  const room = await t.http
    .post(api(hotel, '/chat/rooms'))
    .set(as(desk.accessToken))
    .send({ type: 'group', name: 'Смена', member_ids: [maid.id, guard.id] })
    .expect(201);
  const ownerDevice = await device(hotel, hotel.accessToken);
  return { hotel, ownerDevice, desk, maid, guard, outsider, roomId: room.body.id as string };
}

async function say(hotel: RegisteredHotel, token: string, roomId: string, text: string): Promise<string> {
  const posted = await t.http
    .post(api(hotel, `/chat/rooms/${roomId}/messages`))
    .set(as(token))
    .send({ text });
  expect(posted.status).toBe(201);
  return posted.body.id as string;
}

/** The user's chat notifications, newest first. */
async function chatNotices(hotel: RegisteredHotel, token: string): Promise<Notice[]> {
  const list = await t.http.get(api(hotel, '/notifications')).set(as(token)).expect(200);
  return (list.body.items as Notice[]).filter((item) => item.type === 'chat_message');
}

/** The hotel's pushes enqueued so far (the outbox messages starting `pushDelivery`). */
async function enqueuedPushes(hotel: RegisteredHotel): Promise<PushDeliveryInput[]> {
  const messages: { args: [PushDeliveryInput] }[] = await t
    .db('outbox')
    .whereRaw("message->>'workflowType' = 'pushDelivery'")
    .whereRaw("message->'args'->0->>'hotelId' = ?", [hotel.hotelId])
    .orderBy('id')
    .pluck('message');
  return messages.map((message) => message.args[0]);
}

/** Sends the enqueued pushes as pushDelivery would (the shared worker does not trust the fake), retries included. */
async function deliverPushes(hotel: RegisteredHotel): Promise<void> {
  const activities = pushActivities(t.services.push);
  const send = async (input: PushDeliveryInput, subscriptionId: string, attemptsLeft = 3): Promise<unknown> =>
    activities
      .sendPush({ hotelId: input.hotelId, notificationId: input.notificationId, subscriptionId })
      .catch((failure: unknown) => {
        if (attemptsLeft <= 1 || !(failure instanceof ApplicationFailure) || failure.nonRetryable) throw failure;
        return send(input, subscriptionId, attemptsLeft - 1);
      });
  for (const input of await enqueuedPushes(hotel)) {
    for (const subscriptionId of input.subscriptionIds ?? []) await send(input, subscriptionId);
  }
}

async function socketOf(token: string): Promise<StaffClient> {
  const socket = await connectStaff(t.wsUrl, token);
  sockets.push(socket);
  await socket.next((message) => message.type === 'connected');
  return socket;
}

const NEW = 'notification:new';
const newNotices = (socket: StaffClient) => socket.collected.filter((message) => message.type === NEW);
const isChatMessage = (id: string) => (message: RealtimeMessage) =>
  message.type === 'chat:message' && message.payload?.message_id === id;

async function turnChat(hotel: RegisteredHotel, role: string, on: boolean) {
  await t.http
    .patch(api(hotel, '/notification-settings'))
    .set(as(hotel.accessToken))
    .send({ [role]: { chat_message: on } })
    .expect(200);
}

describe('a chat message notifies', () => {
  it('the room’s other members, in-app, over /ws and by push; never its author, nor anyone outside the room', async () => {
    const s = await staffedHotel();
    const [deskSocket, maidSocket, outsiderSocket, ownerSocket] = await Promise.all([
      socketOf(s.desk.accessToken),
      socketOf(s.maid.accessToken),
      socketOf(s.outsider.accessToken),
      socketOf(s.hotel.accessToken),
    ]);

    const messageId = await say(s.hotel, s.desk.accessToken, s.roomId, 'Гости из 12 просят полотенца');

    for (const recipient of [s.maid, s.guard]) {
      const [notice, ...more] = await chatNotices(s.hotel, recipient.accessToken);
      expect(more).toEqual([]);
      expect(notice).toEqual(
        expect.objectContaining({
          title: 'Новое сообщение в чате «Смена»',
          body: 'От Staff receptionist',
          data: { room_id: s.roomId, message_id: messageId, sender_id: s.desk.id, messages: 1 },
          read: false,
        }),
      );
      // Who wrote and how many; the text stays in the chat.
      expect(JSON.stringify(notice)).not.toContain('полотенца');
    }
    for (const token of [s.desk.accessToken, s.outsider.accessToken, s.hotel.accessToken]) {
      expect(await chatNotices(s.hotel, token)).toEqual([]);
    }

    // Realtime: the member's socket hears of their notification, with their id alone.
    const [maidNotice] = await chatNotices(s.hotel, s.maid.accessToken);
    const heard = await maidSocket.next((message) => message.type === NEW);
    expect(heard.payload).toEqual({
      notification_id: maidNotice.id,
      type: 'chat_message',
      title: 'Новое сообщение в чате «Смена»',
      recipient_ids: [s.maid.id],
      recipients_truncated: false,
    });
    // A later message to all four sockets' users is the barrier: what came before it has arrived.
    const barrier = await say(s.hotel, s.maid.accessToken, s.roomId, 'Несу');
    await deskSocket.next(isChatMessage(barrier));
    await deskSocket.next((message) => message.type === NEW);
    const ownersBarrier = await t.http
      .post(api(s.hotel, '/chat/notify'))
      .set(as(s.hotel.accessToken))
      .send({ text: 'барьер' })
      .expect(201);
    await Promise.all(
      [outsiderSocket, ownerSocket].map((socket) => socket.next(isChatMessage(ownersBarrier.body.id as string))),
    );
    // The author heard only of the reply (their own notification); nobody outside the room heard anything.
    expect(newNotices(deskSocket).map((message) => message.payload?.recipient_ids)).toEqual([[s.desk.id]]);
    expect(newNotices(outsiderSocket)).toEqual([]);
    expect(newNotices(ownerSocket)).toEqual([]);
    // The notifications room's system message notified nobody.
    expect(await chatNotices(s.hotel, s.outsider.accessToken)).toEqual([]);
    expect(await chatNotices(s.hotel, s.desk.accessToken)).toHaveLength(1);

    // Push: one to each of the two other members' devices, saying what the notification says; none to the author.
    fake.reset();
    await deliverPushes(s.hotel);
    const [maidPush, ...maidMore] = fake.received(s.maid.device.endpoint);
    expect(maidMore).toEqual([]);
    expect(maidPush.payload).toEqual({
      type: 'chat_message',
      title: 'Новое сообщение в чате «Смена»',
      body: 'От Staff receptionist',
      data: { notification_id: maidNotice.id, room_id: s.roomId, message_id: messageId, sender_id: s.desk.id },
    });
    expect(fake.received(s.guard.device.endpoint)).toHaveLength(1);
    // The desk's one push is of the maid's reply, not of its own message.
    expect(fake.received(s.desk.device.endpoint).map((push) => push.payload)).toEqual([
      expect.objectContaining({ data: expect.objectContaining({ message_id: barrier, sender_id: s.maid.id }) }),
    ]);
    expect(fake.received(s.outsider.device.endpoint)).toEqual([]);
    expect(fake.received(s.ownerDevice.endpoint)).toEqual([]);
  });

  it('folds a burst of 50 into one notification and one push per other member; the author gets none', async () => {
    const s = await staffedHotel();
    const maidSocket = await socketOf(s.maid.accessToken);
    // Posted at once: the room's messages are told one at a time, so a member's notification is made once.
    const ids = await Promise.all(
      Array.from({ length: 50 }, (_, i) => say(s.hotel, s.desk.accessToken, s.roomId, `Сообщение ${i}`)),
    );

    for (const recipient of [s.maid, s.guard]) {
      const notices = await chatNotices(s.hotel, recipient.accessToken);
      expect(notices).toEqual([
        expect.objectContaining({
          title: '50 новых сообщений в чате «Смена»',
          body: 'Последнее — от Staff receptionist',
          data: expect.objectContaining({ room_id: s.roomId, messages: 50 }),
          read: false,
        }),
      ]);
      expect(ids).toContain(notices[0].data.message_id);
    }
    expect(await chatNotices(s.hotel, s.desk.accessToken)).toEqual([]);

    // One push enqueued per other member, delivered once to each device.
    expect(await enqueuedPushes(s.hotel)).toHaveLength(2);
    fake.reset();
    await deliverPushes(s.hotel);
    expect(fake.received(s.maid.device.endpoint)).toHaveLength(1);
    expect(fake.received(s.guard.device.endpoint)).toHaveLength(1);
    expect(fake.received(s.desk.device.endpoint)).toEqual([]);

    // One notification:new for the maid, however many chat:message events came.
    const last = await say(s.hotel, s.guard.accessToken, s.roomId, 'Принято');
    await maidSocket.next(isChatMessage(last));
    expect(maidSocket.collected.filter((message) => message.type === 'chat:message')).toHaveLength(51);
    expect(newNotices(maidSocket)).toHaveLength(1);
    expect((await chatNotices(s.hotel, s.maid.accessToken))[0].data.messages).toBe(51);
  });

  it('only those whose role has chat messages switched on', async () => {
    const s = await staffedHotel();
    await turnChat(s.hotel, 'housekeeper', false);
    await say(s.hotel, s.desk.accessToken, s.roomId, 'Только охране');
    expect(await chatNotices(s.hotel, s.maid.accessToken)).toEqual([]);
    expect(await chatNotices(s.hotel, s.guard.accessToken)).toHaveLength(1);
    fake.reset();
    await deliverPushes(s.hotel);
    expect(fake.received(s.maid.device.endpoint)).toEqual([]);
    expect(fake.received(s.guard.device.endpoint)).toHaveLength(1);

    await turnChat(s.hotel, 'housekeeper', true);
    await say(s.hotel, s.desk.accessToken, s.roomId, 'Теперь всем');
    // (Of the room: the scheduled unread job may meanwhile sum up what the maid was not told.)
    const ofRoom = (await chatNotices(s.hotel, s.maid.accessToken)).filter((notice) => notice.data.room_id);
    expect(ofRoom).toEqual([
      expect.objectContaining({
        title: 'Новое сообщение в чате «Смена»',
        data: expect.objectContaining({ messages: 1 }),
      }),
    ]);
    expect(await chatNotices(s.hotel, s.guard.accessToken)).toEqual([
      expect.objectContaining({ data: expect.objectContaining({ messages: 2 }) }),
    ]);
  });

  it('anew once the member has read the notification or the room', async () => {
    const s = await staffedHotel();
    await say(s.hotel, s.desk.accessToken, s.roomId, 'Раз');
    await say(s.hotel, s.desk.accessToken, s.roomId, 'Два');
    const [first] = await chatNotices(s.hotel, s.maid.accessToken);
    expect(first.data.messages).toBe(2);
    await t.http
      .patch(api(s.hotel, `/notifications/${first.id}`))
      .set(as(s.maid.accessToken))
      .send({ read: true })
      .expect(200);

    await say(s.hotel, s.desk.accessToken, s.roomId, 'Три');
    const [second, earlier] = await chatNotices(s.hotel, s.maid.accessToken);
    expect(earlier).toEqual(expect.objectContaining({ id: first.id, read: true }));
    expect(second).toEqual(expect.objectContaining({ read: false, data: expect.objectContaining({ messages: 1 }) }));

    // Reading the room in the chat reads its notification too: the next message is news again.
    await t.http
      .post(api(s.hotel, `/chat/rooms/${s.roomId}/read`))
      .set(as(s.maid.accessToken))
      .send({})
      .expect(200);
    expect((await chatNotices(s.hotel, s.maid.accessToken))[0]).toEqual(
      expect.objectContaining({ id: second.id, read: true }),
    );
    await say(s.hotel, s.desk.accessToken, s.roomId, 'Четыре');
    const [third] = await chatNotices(s.hotel, s.maid.accessToken);
    expect(await chatNotices(s.hotel, s.maid.accessToken)).toHaveLength(3);
    // Deleting it for oneself closes it too.
    await t.http
      .delete(api(s.hotel, `/notifications/${third.id}`))
      .set(as(s.maid.accessToken))
      .expect(200);
    await say(s.hotel, s.desk.accessToken, s.roomId, 'Пять');
    const afterDeletion = await chatNotices(s.hotel, s.maid.accessToken);
    expect(afterDeletion).toHaveLength(3);
    expect(afterDeletion[0]).toEqual(
      expect.objectContaining({ read: false, data: expect.objectContaining({ messages: 1 }) }),
    );
    expect(afterDeletion.map((notice) => notice.id)).not.toContain(third.id);

    // The guard did nothing: one notification of all five, and one push.
    expect(await chatNotices(s.hotel, s.guard.accessToken)).toEqual([
      expect.objectContaining({ title: '5 новых сообщений в чате «Смена»', read: false }),
    ]);
    fake.reset();
    await deliverPushes(s.hotel);
    expect(fake.received(s.maid.device.endpoint)).toHaveLength(4);
    expect(fake.received(s.guard.device.endpoint)).toHaveLength(1);

    // Taken out of the group, the guard is told of nothing more; back in, the next message is news again.
    await t.http
      .delete(api(s.hotel, `/chat/rooms/${s.roomId}/members/${s.guard.id}`))
      .set(as(s.desk.accessToken))
      .expect(200);
    await say(s.hotel, s.desk.accessToken, s.roomId, 'Шесть');
    expect((await chatNotices(s.hotel, s.guard.accessToken))[0].data.messages).toBe(5);
    await t.http
      .post(api(s.hotel, `/chat/rooms/${s.roomId}/members`))
      .set(as(s.desk.accessToken))
      .send({ user_ids: [s.guard.id] })
      .expect(200);
    await say(s.hotel, s.desk.accessToken, s.roomId, 'Семь');
    const [back, before] = await chatNotices(s.hotel, s.guard.accessToken);
    expect(back).toEqual(expect.objectContaining({ title: 'Новое сообщение в чате «Смена»', read: false }));
    expect(before.data.messages).toBe(5);
  });

  it('in a direct room, the other person by the author’s name', async () => {
    const s = await staffedHotel();
    const room = await t.http
      .post(api(s.hotel, '/chat/rooms'))
      .set(as(s.guard.accessToken))
      .send({ type: 'direct', member_ids: [s.maid.id] })
      .expect(201);
    await say(s.hotel, s.guard.accessToken, room.body.id as string, 'Лично');
    expect(await chatNotices(s.hotel, s.maid.accessToken)).toEqual([
      expect.objectContaining({ title: 'Новое сообщение от Staff security', body: 'От Staff security' }),
    ]);
    expect(await chatNotices(s.hotel, s.guard.accessToken)).toEqual([]);
  });
});

describe('the unread-message job', () => {
  const summaries = async (hotel: RegisteredHotel, token: string) =>
    (await chatNotices(hotel, token)).filter((notice) => notice.title === 'Непрочитанные сообщения в чате');

  it('tells only of unread messages no message’s notification told of, once', async () => {
    const s = await staffedHotel();
    await say(s.hotel, s.desk.accessToken, s.roomId, 'Раз');
    await say(s.hotel, s.desk.accessToken, s.roomId, 'Два');
    // While the housekeepers' chat notifications are off, two more reach nobody of that role.
    await turnChat(s.hotel, 'housekeeper', false);
    await say(s.hotel, s.desk.accessToken, s.roomId, 'Три');
    await say(s.hotel, s.desk.accessToken, s.roomId, 'Четыре');
    await turnChat(s.hotel, 'housekeeper', true);

    const job = createUnreadSummaries(t.db, t.services.notifications);
    await job();
    await job();

    // The guard was told of all four as they came: nothing more.
    expect(await summaries(s.hotel, s.guard.accessToken)).toEqual([]);
    expect(await chatNotices(s.hotel, s.guard.accessToken)).toHaveLength(1);
    // The maid was told of the first two; the job sums up the other two, once.
    expect(await summaries(s.hotel, s.maid.accessToken)).toEqual([
      expect.objectContaining({ body: '2 новых сообщения в 1 чате', read: false }),
    ]);
    expect(await chatNotices(s.hotel, s.desk.accessToken)).toEqual([]);
  });
});
