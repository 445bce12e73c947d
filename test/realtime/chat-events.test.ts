import { randomUUID } from 'node:crypto';
import { addStaff, as, registerHotel, type RegisteredHotel } from '../helpers/accounts';
import {
  connectStaff,
  startTestServer,
  type RealtimeMessage,
  type StaffClient,
  type TestServer,
} from '../helpers/realtime';

let t: TestServer;
let owner: RegisteredHotel;
let other: RegisteredHotel;
type Member = Awaited<ReturnType<typeof addStaff>>;
let desk: Member;
let maid: Member;
let guard: Member;
let deskSocket: StaffClient;
let maidSocket: StaffClient;
let guardSocket: StaffClient;
let ownerSocket: StaffClient;
let stranger: StaffClient;
let roomId: string;

const chat = (path: string) => `/api/hotels/${owner.slug}/chat${path}`;

beforeAll(async () => {
  t = await startTestServer();
  [owner, other] = await Promise.all([registerHotel(t), registerHotel(t)]);
  [desk, maid, guard] = await Promise.all([
    addStaff(t, owner, 'receptionist'),
    addStaff(t, owner, 'housekeeper'),
    addStaff(t, owner, 'security'),
  ]);
  const room = await t.http
    .post(chat('/rooms'))
    .set(as(desk.accessToken))
    .send({ type: 'group', name: 'Смена', member_ids: [maid.id] })
    .expect(201);
  roomId = room.body.id as string;
  [deskSocket, maidSocket, guardSocket, ownerSocket, stranger] = await Promise.all([
    connectStaff(t.wsUrl, desk.accessToken),
    connectStaff(t.wsUrl, maid.accessToken),
    connectStaff(t.wsUrl, guard.accessToken),
    connectStaff(t.wsUrl, owner.accessToken),
    connectStaff(t.wsUrl, other.accessToken),
  ]);
  await Promise.all([deskSocket, maidSocket, guardSocket, ownerSocket, stranger].map((s) => s.next(isConnected)));
});
afterAll(async () => {
  await Promise.all([deskSocket, maidSocket, guardSocket, ownerSocket, stranger].map((s) => s.close()));
  await t.close();
});

const isConnected = (m: RealtimeMessage) => m.type === 'connected';
const of = (type: string, key: string, value: unknown) => (m: RealtimeMessage) =>
  m.type === type && m.payload?.[key] === value;

/** Waits a little for what outsiders might wrongly receive, then asserts none of it mentions `needle`. */
async function neverReaches(clients: StaffClient[], needle: string) {
  // A later event to the whole hotel is the barrier: once it arrived, anything sent before it has too.
  const barrier = await t.http.post(chat('/notify')).set(as(owner.accessToken)).send({ text: 'барьер' }).expect(201);
  for (const client of clients.filter((c) => c !== stranger)) {
    await client.next(of('chat:message', 'message_id', barrier.body.id));
  }
  for (const client of clients) expect(JSON.stringify(client.collected)).not.toContain(needle);
}

describe('room events', () => {
  it('reach only the room’s members: new, edited, deleted, reactions and read markers', async () => {
    const secret = `секрет-${randomUUID()}`;
    const posted = await t.http
      .post(chat(`/rooms/${roomId}/messages`))
      .set(as(desk.accessToken))
      .send({ text: secret })
      .expect(201);
    const id = posted.body.id as string;
    for (const socket of [deskSocket, maidSocket]) {
      const event = await socket.next(of('chat:message', 'message_id', id));
      expect(event.payload).toEqual({
        message_id: id,
        room_id: roomId,
        sender_id: desk.id,
        is_system: false,
        text: secret,
        attachment_url: null,
        created_at: posted.body.created_at,
      });
    }

    await t.http
      .patch(chat(`/messages/${id}`))
      .set(as(desk.accessToken))
      .send({ text: `${secret}!` })
      .expect(200);
    expect((await maidSocket.next(of('chat:message_edited', 'message_id', id))).payload).toMatchObject({
      room_id: roomId,
      text: `${secret}!`,
    });

    await t.http
      .post(chat(`/messages/${id}/reactions`))
      .set(as(maid.accessToken))
      .send({ emoji: '🔥' })
      .expect(200);
    expect((await deskSocket.next(of('chat:reaction', 'message_id', id))).payload).toEqual({
      message_id: id,
      room_id: roomId,
      user_id: maid.id,
      emoji: '🔥',
      reacted: true,
    });

    await t.http
      .post(chat(`/rooms/${roomId}/read`))
      .set(as(maid.accessToken))
      .send({})
      .expect(200);
    expect((await deskSocket.next(of('chat:read', 'room_id', roomId))).payload).toMatchObject({ user_id: maid.id });

    await t.http
      .delete(chat(`/messages/${id}`))
      .set(as(desk.accessToken))
      .expect(200);
    expect((await maidSocket.next(of('chat:message_deleted', 'message_id', id))).payload).toMatchObject({
      room_id: roomId,
    });

    // The owner reads every room over HTTP but is not a member: room events are for members.
    await neverReaches([guardSocket, ownerSocket, stranger], id);
  });

  it('reach only members even when too large for pg_notify (the hub reads the row and its audience)', async () => {
    const long = `д${randomUUID()}`.padEnd(4000, 'я');
    const posted = await t.http
      .post(chat(`/rooms/${roomId}/messages`))
      .set(as(desk.accessToken))
      .send({ text: long })
      .expect(201);
    const event = await maidSocket.next(of('chat:message', 'message_id', posted.body.id));
    expect(event.payload?.text).toBe(long);
    await neverReaches([guardSocket, ownerSocket, stranger], posted.body.id as string);
  });

  it('are replayed after a reconnection (since) to members only', async () => {
    const since = Math.max(...guardSocket.collected.map((m) => (m as { id?: number }).id ?? 0));
    const word = `после-${randomUUID()}`;
    const posted = await t.http
      .post(chat(`/rooms/${roomId}/messages`))
      .set(as(desk.accessToken))
      .send({ text: word })
      .expect(201);
    const barrier = await t.http.post(chat('/notify')).set(as(owner.accessToken)).send({ text: 'всем' }).expect(201);
    const [outsider, member] = await Promise.all([
      connectStaff(`${t.wsUrl}?since=${since}`, guard.accessToken),
      connectStaff(`${t.wsUrl}?since=${since}`, maid.accessToken),
    ]);
    try {
      await outsider.next(of('chat:message', 'message_id', barrier.body.id));
      expect(JSON.stringify(outsider.collected)).not.toContain(word);
      await member.next(of('chat:message', 'message_id', posted.body.id));
      await member.next(of('chat:message', 'message_id', barrier.body.id));
    } finally {
      await Promise.all([outsider.close(), member.close()]);
    }
  });

  it('announces room changes to the members before and after', async () => {
    await t.http
      .post(chat(`/rooms/${roomId}/members`))
      .set(as(desk.accessToken))
      .send({ user_ids: [guard.id] })
      .expect(200);
    await guardSocket.next(of('chat:room', 'room_id', roomId));
    await t.http
      .delete(chat(`/rooms/${roomId}/members/${guard.id}`))
      .set(as(desk.accessToken))
      .expect(200);
    expect((await guardSocket.next(of('chat:room', 'room_id', roomId))).payload).toMatchObject({ change: 'members' });
  });
});

describe('ephemeral events', () => {
  it('typing reaches the room’s other members only, and is never stored', async () => {
    await t.http.post(chat('/typing')).set(as(maid.accessToken)).send({ room_id: roomId }).expect(200);
    const event = await deskSocket.next(of('chat:typing', 'user_id', maid.id));
    expect(event.payload).toEqual({ room_id: roomId, user_id: maid.id });
    expect(typeof (event as { id?: unknown }).id).toBe('number');
    await neverReaches([guardSocket, ownerSocket, stranger, maidSocket], 'chat:typing');
    expect(await t.db('realtime_events').where({ hotel_id: owner.hotelId, type: 'chat:typing' })).toEqual([]);
  });

  it('presence goes to the hotel when someone comes online or signs off, never stored', async () => {
    await t.http.post(chat('/presence')).set(as(guard.accessToken)).send({}).expect(200);
    const online = await deskSocket.next(of('chat:presence', 'user_id', guard.id));
    expect(online.payload).toMatchObject({ status: 'online', online_until: expect.any(String) });
    // A second beat is no news.
    await t.http.post(chat('/presence')).set(as(guard.accessToken)).send({}).expect(200);
    await t.http.post(chat('/presence')).set(as(guard.accessToken)).send({ status: 'offline' }).expect(200);
    const offline = await deskSocket.next(of('chat:presence', 'user_id', guard.id));
    expect(offline.payload).toEqual({ user_id: guard.id, status: 'offline', online_until: null });
    expect(await t.db('realtime_events').where({ hotel_id: owner.hotelId, type: 'chat:presence' })).toEqual([]);
    expect(JSON.stringify(stranger.collected)).not.toContain(guard.id);
  });
});
