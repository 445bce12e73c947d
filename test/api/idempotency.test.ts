import { randomUUID } from 'node:crypto';
import { idempotencyMessages } from '../../src/platform/db/idempotency';
import { createTestApp, type TestApp } from '../helpers/app';
import { addStaff, as, registerHotel, type RegisteredHotel } from '../helpers/accounts';
import { problem } from '../helpers/problem';
import { createCategory, createRoom } from '../helpers/structure';

/**
 * Every creating POST accepts `Idempotency-Key` by its route declaration's default (kept by mount): a request sent
 * twice over a flaky network creates one record, the retry gets the first answer, and the key with another body is
 * refused. These are routes that had no key before.
 */

let t: TestApp;
let owner: RegisteredHotel;
let other: RegisteredHotel;
let roomId: string;
let chatRoomId: string;
beforeAll(async () => {
  t = createTestApp();
  [owner, other] = await Promise.all([registerHotel(t), registerHotel(t)]);
  const room = await createRoom(t, owner, (await createCategory(t, owner)).id);
  roomId = room.id;
  const colleague = await addStaff(t, owner, 'receptionist');
  const chatRoom = await t.http
    .post(`/api/hotels/${owner.slug}/chat/rooms`)
    .set(as(owner.accessToken))
    .send({ type: 'group', name: 'Смена', member_ids: [colleague.id] })
    .expect(201);
  chatRoomId = (chatRoom.body as { id: string }).id;
});
afterAll(() => t.close());

interface Case {
  name: string;
  path: () => string;
  table: string;
  body: (mark: string) => Record<string, unknown>;
}

const cases: Case[] = [
  {
    name: 'a chat message',
    path: () => `/chat/rooms/${chatRoomId}/messages`,
    table: 'chat_messages',
    body: (mark) => ({ text: `Гость ждёт такси ${mark}` }),
  },
  {
    name: 'a guest profile',
    path: () => '/guests',
    table: 'guests',
    body: (mark) => ({ last_name: 'Петров', first_name: `Иван${mark}` }),
  },
  {
    name: 'a housekeeping task',
    path: () => '/housekeeping',
    table: 'housekeeping_tasks',
    body: (mark) => ({ room_id: roomId, category: 'maintenance', notes: `Течёт кран ${mark}` }),
  },
  {
    name: 'a payment method',
    path: () => '/payment-methods',
    table: 'payment_methods',
    body: (mark) => ({ name: `Касса ${mark}`, type: 'cash' }),
  },
];

const rows = (table: string, hotel = owner) =>
  t.db(table).where({ hotel_id: hotel.hotelId }).count<{ count: string }[]>({ count: '*' }).first();

/** A creating request of `hotel`'s owner with `Idempotency-Key: key`; `path` is under the hotel. */
const postKeyed = (hotel: RegisteredHotel, path: string, key: string, sent: Record<string, unknown>) =>
  t.http.post(`/api/hotels/${hotel.slug}${path}`).set(as(hotel.accessToken)).set('Idempotency-Key', key).send(sent);

describe.each(cases)('$name', ({ path, table, body }) => {
  const post = (key: string, sent: Record<string, unknown>) => postKeyed(owner, path(), key, sent);

  it('sent twice with one key: one record, and the retry gets the first answer (status and body)', async () => {
    const key = randomUUID();
    const before = Number((await rows(table))!.count);
    const first = await post(key, body(key.slice(0, 8))).expect(201);
    const retry = await post(key, body(key.slice(0, 8)));
    expect(retry.status).toBe(201);
    expect(retry.body).toEqual(first.body);
    expect(Number((await rows(table))!.count)).toBe(before + 1);
  });

  it('the key with another body: 422 idempotency_mismatch, nothing created', async () => {
    const key = randomUUID();
    await post(key, body('первый')).expect(201);
    const before = Number((await rows(table))!.count);
    const refused = await post(key, body('второй')).expect(422);
    expect(refused.body).toMatchObject(problem(422, 'idempotency_mismatch', idempotencyMessages.otherBody));
    expect(Number((await rows(table))!.count)).toBe(before);
  });
});

it('a key is the hotel’s own: the same key in another hotel creates its own record', async () => {
  const key = randomUUID();
  const sent = { name: 'Касса общая', type: 'cash' };
  const mine = await postKeyed(owner, '/payment-methods', key, sent).expect(201);
  const theirs = await postKeyed(other, '/payment-methods', key, sent).expect(201);
  expect((theirs.body as { id: string }).id).not.toBe((mine.body as { id: string }).id);
});

it('a refused request keeps no key: the retry after a fix runs', async () => {
  const key = randomUUID();
  const task = { room_id: randomUUID(), category: 'maintenance' };
  const refused = await postKeyed(owner, '/housekeeping', key, task);
  expect(refused.status).toBeGreaterThanOrEqual(400);
  expect(refused.status).toBeLessThan(500);
  await postKeyed(owner, '/housekeeping', key, { ...task, room_id: roomId }).expect(201);
});

it('the same request sent twice at once creates one record: the other gets the first answer or 409, never a second', async () => {
  const key = randomUUID();
  const sent = { last_name: 'Сидоров', first_name: `Пётр${key.slice(0, 6)}` };
  const before = Number((await rows('guests'))!.count);
  const answers = await Promise.all([1, 2].map(() => postKeyed(owner, '/guests', key, sent)));
  expect(answers.map((answer) => answer.status).sort()).toEqual(
    answers.some((answer) => answer.status === 409) ? [201, 409] : [201, 201],
  );
  expect(Number((await rows('guests'))!.count)).toBe(before + 1);
});
