import { Client, Connection } from '@temporalio/client';
import { addStaff, as, registerHotel } from '../helpers/accounts';
import { createTestApp, type TestApp } from '../helpers/app';
import { readStackInfo } from '../helpers/stack-env';
import { runSchedule } from '../helpers/workflows';

/**
 * The unread-message job as the worker runs it, from its schedule: it sums up only what no message's own notification
 * told a member (test/api/chat-notifications.test.ts has such messages), by the role's switches, never twice.
 */

let t: TestApp;
let connection: Connection;
beforeAll(async () => {
  t = createTestApp();
  connection = await Connection.connect({ address: readStackInfo().env.TEMPORAL_ADDRESS });
});
afterAll(async () => {
  await connection.close();
  await t.close();
});

/** Runs the job from its schedule, as every 15 minutes would. */
async function runTheJob(): Promise<void> {
  const client = new Client({ connection });
  const { spec } = await client.schedule.getHandle('unread-chat-push').describe();
  expect(spec.intervals?.[0]?.every).toBe(15 * 60_000);
  await runSchedule(client, 'unread-chat-push');
}

const chatNotices = (userId: string) =>
  t
    .db('notification_recipients as r')
    .join('notifications as n', 'n.id', 'r.notification_id')
    .where({ 'r.user_id': userId, 'n.type': 'chat_message' })
    .select('n.title', 'n.body');

describe('unread-chat-push schedule', () => {
  it('adds nothing to what each message told its members, nor for roles switched off', async () => {
    const owner = await registerHotel(t);
    const receptionist = await addStaff(t, owner, 'receptionist');
    const reader = await addStaff(t, owner, 'receptionist');
    const chat = (path: string) => `/api/hotels/${owner.slug}/chat${path}`;
    const room = await t.http
      .post(chat('/rooms'))
      .set(as(owner.accessToken))
      .send({ type: 'group', name: 'Смена', member_ids: [receptionist.id, reader.id] })
      .expect(201);
    for (const text of ['Гость в 204 просит полотенца', 'И подушку', 'Спасибо!']) {
      await t.http
        .post(chat(`/rooms/${room.body.id}/messages`))
        .set(as(owner.accessToken))
        .send({ text })
        .expect(201);
    }
    await t.http
      .post(chat(`/rooms/${room.body.id}/read`))
      .set(as(reader.accessToken))
      .send({})
      .expect((response) => expect(response.status).toBeLessThan(300));

    // Each message told the other members at once, folded into one running notification per member; the job finds
    // nothing that no message's notification covered, so it adds none, for the reader of the room neither.
    const running = { title: '3 новых сообщения в чате «Смена»', body: expect.stringMatching(/^Последнее — от /) };
    expect(await chatNotices(receptionist.id)).toEqual([running]);
    expect(await chatNotices(reader.id)).toEqual([running]);
    await runTheJob();
    expect(await chatNotices(receptionist.id)).toEqual([running]);
    expect(await chatNotices(reader.id)).toEqual([running]);
    // The sender is not told of their own messages.
    expect(await chatNotices(owner.userId)).toEqual([]);

    // A message while the role's chat notifications are off: neither it nor the job tells the receptionists.
    await t.http
      .patch(`/api/hotels/${owner.slug}/notification-settings`)
      .set(as(owner.accessToken))
      .send({ receptionist: { chat_message: false } })
      .expect(200);
    await t.http
      .post(chat(`/rooms/${room.body.id}/messages`))
      .set(as(owner.accessToken))
      .send({ text: 'Ещё одно' })
      .expect(201);
    await runTheJob();
    expect(await chatNotices(receptionist.id)).toEqual([running]);
  });
});
