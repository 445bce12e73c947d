import { randomUUID } from 'node:crypto';
import { addStaff, as, registerHotel, type RegisteredHotel } from '../helpers/accounts';
import { createTestApp, type TestApp } from '../helpers/app';

let t: TestApp;
let owner: RegisteredHotel;
let other: RegisteredHotel;
type Member = Awaited<ReturnType<typeof addStaff>>;
let desk: Member;
let maid: Member;
let manager: Member;
let guard: Member;

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

beforeAll(async () => {
  t = createTestApp();
  [owner, other] = await Promise.all([registerHotel(t), registerHotel(t)]);
  [desk, maid, manager, guard] = await Promise.all([
    addStaff(t, owner, 'receptionist'),
    addStaff(t, owner, 'housekeeper'),
    addStaff(t, owner, 'manager'),
    addStaff(t, owner, 'security'),
  ]);
});
afterAll(() => t.close());

const chat = (path: string, hotel: RegisteredHotel = owner) => `/api/hotels/${hotel.slug}/chat${path}`;

interface Message {
  id: string;
  room_id: string;
  sender_id: string | null;
  is_system: boolean;
  text: string | null;
  attachment_url: string | null;
  created_at: string;
  edited_at: string | null;
  deleted_at: string | null;
  reactions: { emoji: string; count: number; user_ids: string[] }[];
}
interface Room {
  id: string;
  type: string;
  name: string | null;
  member_ids: string[];
  unread_count: number;
  last_read_at: string | null;
}

async function group(token: string, memberIds: string[], name = `Группа ${randomUUID().slice(0, 6)}`) {
  const res = await t.http
    .post(chat('/rooms'))
    .set(as(token))
    .send({ type: 'group', name, member_ids: memberIds })
    .expect(201);
  return res.body as Room;
}

async function say(token: string, roomId: string, text: string) {
  const res = await t.http
    .post(chat(`/rooms/${roomId}/messages`))
    .set(as(token))
    .send({ text })
    .expect(201);
  return res.body as Message;
}

async function history(token: string, roomId: string, query: Record<string, string> = {}) {
  const res = await t.http
    .get(chat(`/rooms/${roomId}/messages`))
    .set(as(token))
    .query(query)
    .expect(200);
  return res.body as Message[];
}

async function roomsOf(token: string) {
  return (await t.http.get(chat('/rooms')).set(as(token)).expect(200)).body as Room[];
}

/** Puts `count` messages into a room, a second apart, oldest first (faster than posting each). */
async function fill(roomId: string, count: number) {
  const start = Date.now() - 86_400_000;
  await t.db('chat_messages').insert(
    Array.from({ length: count }, (_, i) => ({
      hotel_id: owner.hotelId,
      room_id: roomId,
      sender_id: desk.id,
      text: `Сообщение ${i}`,
      created_at: new Date(start + i * 1000),
    })),
  );
}

describe('rooms', () => {
  it('keeps one direct room per pair, whoever opens it', async () => {
    const first = await t.http
      .post(chat('/rooms'))
      .set(as(desk.accessToken))
      .send({ type: 'direct', member_ids: [maid.id] })
      .expect(201);
    expect(first.body).toMatchObject({ type: 'direct', name: null });
    expect([...(first.body as Room).member_ids].sort()).toEqual([desk.id, maid.id].sort());
    const again = await t.http
      .post(chat('/rooms'))
      .set(as(maid.accessToken))
      .send({ type: 'direct', member_ids: [desk.id] })
      .expect(200);
    expect(again.body.id).toBe(first.body.id);
    expect(await t.db('chat_rooms').where({ hotel_id: owner.hotelId, type: 'direct' }).count()).toEqual([
      { count: '1' },
    ]);
  });

  it('refuses a direct room not of two, and members who are not active staff of this hotel', async () => {
    const send = (body: object) => t.http.post(chat('/rooms')).set(as(desk.accessToken)).send(body);
    expect((await send({ type: 'direct', member_ids: [desk.id] })).status).toBe(422);
    expect((await send({ type: 'direct', member_ids: [maid.id, guard.id] })).status).toBe(422);
    expect((await send({ type: 'direct', member_ids: [other.userId] })).status).toBe(422);
    expect((await send({ type: 'group', name: 'x', member_ids: [other.userId] })).status).toBe(422);
    expect((await send({ type: 'group', member_ids: [maid.id] })).status).toBe(422);
    expect((await send({ type: 'group', name: 'x', member_ids: ['nope'] })).status).toBe(400);
    expect((await send({ type: 'notifications', member_ids: [maid.id] })).status).toBe(400);
  });

  it('lets the creator and managers manage a group, and anyone leave it', async () => {
    const room = await group(desk.accessToken, [maid.id]);
    await t.http
      .patch(chat(`/rooms/${room.id}`))
      .set(as(maid.accessToken))
      .send({ name: 'Чужая' })
      .expect(403);
    const renamed = await t.http
      .patch(chat(`/rooms/${room.id}`))
      .set(as(desk.accessToken))
      .send({ name: 'Смена' })
      .expect(200);
    expect(renamed.body.name).toBe('Смена');
    // A manager who is not in the group does not see it; the owner sees and manages every room.
    await t.http
      .post(chat(`/rooms/${room.id}/members`))
      .set(as(manager.accessToken))
      .send({ user_ids: [guard.id] })
      .expect(404);
    const added = await t.http
      .post(chat(`/rooms/${room.id}/members`))
      .set(as(owner.accessToken))
      .send({ user_ids: [guard.id, manager.id] })
      .expect(200);
    expect(added.body.member_ids).toEqual(expect.arrayContaining([desk.id, maid.id, guard.id, manager.id]));
    await t.http
      .delete(chat(`/rooms/${room.id}/members/${desk.id}`))
      .set(as(maid.accessToken))
      .expect(403);
    await t.http
      .delete(chat(`/rooms/${room.id}/members/${desk.id}`))
      .set(as(manager.accessToken))
      .expect(200);
    await t.http
      .delete(chat(`/rooms/${room.id}/members/${maid.id}`))
      .set(as(maid.accessToken))
      .expect(200);
    await t.http
      .get(chat(`/rooms/${room.id}`))
      .set(as(maid.accessToken))
      .expect(404);
    await t.http
      .delete(chat(`/rooms/${room.id}`))
      .set(as(guard.accessToken))
      .expect(403);
    await t.http
      .delete(chat(`/rooms/${room.id}`))
      .set(as(manager.accessToken))
      .expect(200);
    await t.http
      .get(chat(`/rooms/${room.id}`))
      .set(as(owner.accessToken))
      .expect(404);
  });

  it('gives every member of staff the notifications room; system messages go there through notify', async () => {
    const list = await roomsOf(guard.accessToken);
    const notifications = list.find((room) => room.type === 'notifications');
    expect(notifications).toBeDefined();
    await t.http.post(chat('/notify')).set(as(desk.accessToken)).send({ text: 'Нельзя' }).expect(403);
    const sent = await t.http.post(chat('/notify')).set(as(manager.accessToken)).send({ text: 'Проверка' }).expect(201);
    expect(sent.body).toMatchObject({ is_system: true, sender_id: null, room_id: notifications!.id, text: 'Проверка' });
    expect((await history(guard.accessToken, notifications!.id))[0].id).toBe(sent.body.id);
    await t.http
      .post(chat(`/rooms/${notifications!.id}/messages`))
      .set(as(guard.accessToken))
      .send({ text: 'Не системное' })
      .expect(403);
    await say(owner.accessToken, notifications!.id, 'От владельца');
    await t.http
      .patch(chat(`/rooms/${notifications!.id}`))
      .set(as(owner.accessToken))
      .send({ name: 'x' })
      .expect(422);
    await t.http
      .delete(chat(`/rooms/${notifications!.id}`))
      .set(as(owner.accessToken))
      .expect(422);
  });
});

describe('membership', () => {
  it('hides a room from non-members as if it did not exist; the hotel owner reads and writes it', async () => {
    const room = await group(desk.accessToken, [maid.id]);
    const secret = await say(desk.accessToken, room.id, 'Только для своих');
    await t.http
      .get(chat(`/rooms/${room.id}`))
      .set(as(guard.accessToken))
      .expect(404);
    await t.http
      .get(chat(`/rooms/${room.id}/messages`))
      .set(as(guard.accessToken))
      .expect(404);
    await t.http
      .post(chat(`/rooms/${room.id}/messages`))
      .set(as(guard.accessToken))
      .send({ text: 'Я тут' })
      .expect(404);
    await t.http
      .post(chat(`/rooms/${room.id}/read`))
      .set(as(guard.accessToken))
      .send({})
      .expect(404);
    await t.http
      .post(chat(`/messages/${secret.id}/reactions`))
      .set(as(guard.accessToken))
      .send({ emoji: '👍' })
      .expect(404);
    await t.http
      .delete(chat(`/messages/${secret.id}`))
      .set(as(guard.accessToken))
      .expect(404);
    await t.http.post(chat('/typing')).set(as(guard.accessToken)).send({ room_id: room.id }).expect(404);
    expect((await roomsOf(guard.accessToken)).map((r) => r.id)).not.toContain(room.id);

    expect((await history(owner.accessToken, room.id)).map((m) => m.text)).toEqual(['Только для своих']);
    await say(owner.accessToken, room.id, 'Владелец пишет везде');
    expect((await roomsOf(owner.accessToken)).map((r) => r.id)).toContain(room.id);
  });

  it('isolates hotels: another hotel’s slug is 403, its room ids 404', async () => {
    const room = await group(desk.accessToken, [maid.id]);
    const message = await say(desk.accessToken, room.id, 'Наше');
    const res = await t.http.get(chat('/rooms')).set(as(other.accessToken));
    expect(res.status).toBe(403);
    await t.http
      .get(chat(`/rooms/${room.id}/messages`, other))
      .set(as(other.accessToken))
      .expect(404);
    await t.http
      .post(chat(`/rooms/${room.id}/messages`, other))
      .set(as(other.accessToken))
      .send({ text: 'x' })
      .expect(404);
    await t.http
      .patch(chat(`/messages/${message.id}`, other))
      .set(as(other.accessToken))
      .send({ text: 'x' })
      .expect(404);
    await t.http
      .delete(chat(`/messages/${message.id}`, other))
      .set(as(other.accessToken))
      .expect(404);
    const found = await t.http.get(chat('/search', other)).set(as(other.accessToken)).query({ q: 'Наше' }).expect(200);
    expect(found.body).toEqual([]);
  });
});

describe('history', () => {
  it('pages by 50: exactly 50 means more may exist, and the page after the last is empty', async () => {
    const room = await group(desk.accessToken, [maid.id]);
    await fill(room.id, 50);
    const first = await history(maid.accessToken, room.id);
    expect(first).toHaveLength(50);
    expect(first[0].text).toBe('Сообщение 49');
    const last = first[49];
    expect(await history(maid.accessToken, room.id, { before: last.created_at })).toEqual([]);
    expect(await history(maid.accessToken, room.id, { before: last.created_at, before_id: last.id })).toEqual([]);
  });

  it('gives the 51st message on the second page', async () => {
    const room = await group(desk.accessToken, [maid.id]);
    await fill(room.id, 51);
    const first = await history(maid.accessToken, room.id);
    expect(first).toHaveLength(50);
    const second = await history(maid.accessToken, room.id, { before: first[49].created_at });
    expect(second.map((m) => m.text)).toEqual(['Сообщение 0']);
  });

  it('does not skip messages of the same millisecond across a page boundary (before_id)', async () => {
    const room = await group(desk.accessToken, [maid.id]);
    const at = new Date(Date.now() - 3_600_000);
    await t.db('chat_messages').insert(
      Array.from({ length: 52 }, (_, i) => ({
        hotel_id: owner.hotelId,
        room_id: room.id,
        sender_id: desk.id,
        text: `Тик ${i}`,
        created_at: at,
      })),
    );
    const first = await history(maid.accessToken, room.id);
    const second = await history(maid.accessToken, room.id, { before: first[49].created_at, before_id: first[49].id });
    expect(new Set([...first, ...second].map((m) => m.id)).size).toBe(52);
  });

  it('refuses a malformed or out-of-range before', async () => {
    const room = await group(desk.accessToken, [maid.id]);
    for (const before of ['вчера', '0000-01-01T00:00:00Z', '9999-12-31T00:00:00Z']) {
      await t.http
        .get(chat(`/rooms/${room.id}/messages`))
        .set(as(maid.accessToken))
        .query({ before })
        .expect(400);
    }
    await t.http
      .get(chat(`/rooms/${room.id}/messages`))
      .set(as(maid.accessToken))
      .query({ before_id: randomUUID() })
      .expect(400);
  });
});

describe('messages', () => {
  it('bounds text and needs text or an attachment', async () => {
    const room = await group(desk.accessToken, [maid.id]);
    const post = (body: object) =>
      t.http
        .post(chat(`/rooms/${room.id}/messages`))
        .set(as(desk.accessToken))
        .send(body);
    expect((await post({})).status).toBe(400);
    expect((await post({ text: '' })).status).toBe(400);
    expect((await post({ text: 'я'.repeat(4001) })).status).toBe(400);
    expect((await post({ text: 'я'.repeat(4000) })).status).toBe(201);
    expect((await post({ text: 'a\u0000b' })).status).toBe(400);
  });

  it('takes attachments only from this hotel’s chat uploads', async () => {
    const room = await group(desk.accessToken, [maid.id]);
    const upload = async (who: string, folder: string) =>
      (
        await t.http
          .post('/api/upload')
          .query({ folder })
          .set(as(who))
          .attach('file', PNG, { filename: 'a.png', contentType: 'image/png' })
          .expect(201)
      ).body.url as string;
    const own = await upload(desk.accessToken, 'chat');
    const roomPhoto = await upload(desk.accessToken, 'rooms');
    const foreign = await upload(other.accessToken, 'chat');
    const post = (body: object) =>
      t.http
        .post(chat(`/rooms/${room.id}/messages`))
        .set(as(desk.accessToken))
        .send(body);
    const sent = await post({ attachment_url: own });
    expect(sent.status).toBe(201);
    expect(sent.body).toMatchObject({ text: null, attachment_url: own });
    expect((await post({ attachment_url: roomPhoto })).status).toBe(400);
    expect((await post({ attachment_url: foreign })).status).toBe(400);
    expect((await post({ attachment_url: 'https://evil.example/chat/x.png' })).status).toBe(400);
  });

  it('lets only the author edit', async () => {
    const room = await group(desk.accessToken, [maid.id]);
    const message = await say(desk.accessToken, room.id, 'Первая версия');
    for (const token of [maid.accessToken, owner.accessToken]) {
      await t.http
        .patch(chat(`/messages/${message.id}`))
        .set(as(token))
        .send({ text: 'Чужая правка' })
        .expect(403);
    }
    const edited = await t.http
      .patch(chat(`/messages/${message.id}`))
      .set(as(desk.accessToken))
      .send({ text: 'Вторая версия' })
      .expect(200);
    expect(edited.body).toMatchObject({ text: 'Вторая версия', edited_at: expect.any(String) });
    expect((await history(maid.accessToken, room.id))[0].text).toBe('Вторая версия');
  });

  it('soft-deletes own messages (or any, as the owner): the text never comes back', async () => {
    const room = await group(desk.accessToken, [maid.id]);
    const word = `удаляемое${randomUUID().slice(0, 6)}`;
    const mine = await say(desk.accessToken, room.id, `Секрет ${word}`);
    const theirs = await say(maid.accessToken, room.id, `Тоже ${word}`);
    await t.http
      .delete(chat(`/messages/${mine.id}`))
      .set(as(maid.accessToken))
      .expect(403);
    const deleted = await t.http
      .delete(chat(`/messages/${mine.id}`))
      .set(as(desk.accessToken))
      .expect(200);
    expect(deleted.body).toMatchObject({ text: null, attachment_url: null, deleted_at: expect.any(String) });
    await t.http
      .delete(chat(`/messages/${theirs.id}`))
      .set(as(owner.accessToken))
      .expect(200);
    const page = await history(maid.accessToken, room.id);
    expect(page.map((m) => [m.id, m.text])).toEqual([
      [theirs.id, null],
      [mine.id, null],
    ]);
    const found = await t.http.get(chat('/search')).set(as(desk.accessToken)).query({ q: word }).expect(200);
    expect(found.body).toEqual([]);
    expect(JSON.stringify(await t.db('chat_messages').whereIn('id', [mine.id, theirs.id]))).not.toContain(word);
    await t.http
      .patch(chat(`/messages/${mine.id}`))
      .set(as(desk.accessToken))
      .send({ text: 'Воскрешение' })
      .expect(422);
  });

  it('toggles a reaction per user and emoji', async () => {
    const room = await group(desk.accessToken, [maid.id]);
    const message = await say(desk.accessToken, room.id, 'Реагируйте');
    const react = (token: string, emoji: string) =>
      t.http
        .post(chat(`/messages/${message.id}/reactions`))
        .set(as(token))
        .send({ emoji });
    expect((await react(maid.accessToken, '👍')).body).toMatchObject({
      reacted: true,
      reactions: [{ emoji: '👍', count: 1, user_ids: [maid.id] }],
    });
    expect((await react(desk.accessToken, '👍')).body.reactions).toEqual([
      { emoji: '👍', count: 2, user_ids: [maid.id, desk.id] },
    ]);
    expect((await react(maid.accessToken, '👍')).body).toMatchObject({
      reacted: false,
      reactions: [{ emoji: '👍', count: 1, user_ids: [desk.id] }],
    });
    expect((await history(maid.accessToken, room.id))[0].reactions).toEqual([
      { emoji: '👍', count: 1, user_ids: [desk.id] },
    ]);
    expect((await react(maid.accessToken, 'x'.repeat(17))).status).toBe(400);
    expect((await react(maid.accessToken, '')).status).toBe(400);
  });
});

describe('read markers', () => {
  it('counts others’ messages after the marker, per member', async () => {
    const room = await group(desk.accessToken, [maid.id]);
    for (const text of ['Раз', 'Два', 'Три']) await say(desk.accessToken, room.id, text);
    const unread = async (token: string) => (await roomsOf(token)).find((r) => r.id === room.id)!.unread_count;
    expect(await unread(maid.accessToken)).toBe(3);
    expect(await unread(desk.accessToken)).toBe(0);
    const page = await history(maid.accessToken, room.id);
    const upTo = await t.http
      .post(chat(`/rooms/${room.id}/read`))
      .set(as(maid.accessToken))
      .send({ message_id: page[1].id })
      .expect(200);
    expect(upTo.body).toMatchObject({ room_id: room.id, unread_count: 1 });
    const all = await t.http
      .post(chat(`/rooms/${room.id}/read`))
      .set(as(maid.accessToken))
      .send({})
      .expect(200);
    expect(all.body.unread_count).toBe(0);
    // The marker never moves back.
    const back = await t.http
      .post(chat(`/rooms/${room.id}/read`))
      .set(as(maid.accessToken))
      .send({ message_id: page[2].id })
      .expect(200);
    expect(back.body).toMatchObject({ unread_count: 0, last_read_at: all.body.last_read_at });
    await say(desk.accessToken, room.id, 'Четыре');
    expect(await unread(maid.accessToken)).toBe(1);
    const single = await t.http
      .get(chat(`/rooms/${room.id}`))
      .set(as(maid.accessToken))
      .expect(200);
    expect(single.body).toMatchObject({ unread_count: 1, last_read_at: all.body.last_read_at });
  });
});

describe('search', () => {
  it('finds word forms in Russian and English, only in the caller’s rooms', async () => {
    const room = await group(desk.accessToken, [maid.id]);
    const tag = randomUUID().slice(0, 8);
    const ru = await say(desk.accessToken, room.id, `Починили кондиционеры в номерах ${tag}`);
    const en = await say(maid.accessToken, room.id, `The towels were delivered ${tag}`);
    const search = (token: string, q: string) =>
      t.http.get(chat('/search')).set(as(token)).query({ q }).expect(200) as Promise<{ body: Message[] }>;
    expect((await search(maid.accessToken, `кондиционер ${tag}`)).body.map((m) => m.id)).toEqual([ru.id]);
    expect((await search(maid.accessToken, `номер ${tag}`)).body.map((m) => m.id)).toEqual([ru.id]);
    expect((await search(desk.accessToken, `towel ${tag}`)).body.map((m) => m.id)).toEqual([en.id]);
    expect((await search(desk.accessToken, `deliver ${tag}`)).body.map((m) => m.id)).toEqual([en.id]);
    expect((await search(guard.accessToken, `кондиционер ${tag}`)).body).toEqual([]);
    const inRoom = await t.http
      .get(chat('/search'))
      .set(as(maid.accessToken))
      .query({ q: tag, room_id: room.id })
      .expect(200);
    expect(inRoom.body).toHaveLength(2);
    await t.http.get(chat('/search')).set(as(guard.accessToken)).query({ q: tag, room_id: room.id }).expect(404);
  });

  it('bounds the query', async () => {
    await t.http
      .get(chat('/search'))
      .set(as(desk.accessToken))
      .query({ q: 'я'.repeat(201) })
      .expect(400);
    await t.http.get(chat('/search')).set(as(desk.accessToken)).query({ q: '  ' }).expect(400);
    await t.http.get(chat('/search')).set(as(desk.accessToken)).expect(400);
    await t.http.get(chat('/search')).set(as(desk.accessToken)).query({ q: '!!! & | :*' }).expect(200);
  });
});

describe('presence', () => {
  it('lists who beat recently, until they sign off', async () => {
    const beat = await t.http.post(chat('/presence')).set(as(guard.accessToken)).send({}).expect(200);
    expect(beat.body).toEqual({ user_id: guard.id, online_until: expect.any(String) });
    expect(new Date(beat.body.online_until).getTime()).toBeGreaterThan(Date.now() + 60_000);
    const online = (await t.http.get(chat('/presence')).set(as(desk.accessToken)).expect(200)).body as {
      user_id: string;
    }[];
    expect(online.map((p) => p.user_id)).toContain(guard.id);
    await t.http.post(chat('/presence')).set(as(guard.accessToken)).send({ status: 'offline' }).expect(200);
    const after = (await t.http.get(chat('/presence')).set(as(desk.accessToken)).expect(200)).body as {
      user_id: string;
    }[];
    expect(after.map((p) => p.user_id)).not.toContain(guard.id);
    await t.http.post(chat('/presence')).set(as(guard.accessToken)).send({ status: 'away' }).expect(400);
  });

  it('counts a user offline after missed beats', async () => {
    await t.http.post(chat('/presence')).set(as(maid.accessToken)).send({}).expect(200);
    await t
      .db('chat_presence')
      .where({ user_id: maid.id })
      .update({ last_seen_at: new Date(Date.now() - 71_000) });
    const online = (await t.http.get(chat('/presence')).set(as(desk.accessToken)).expect(200)).body as {
      user_id: string;
    }[];
    expect(online.map((p) => p.user_id)).not.toContain(maid.id);
  });
});
