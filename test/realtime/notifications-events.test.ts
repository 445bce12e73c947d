import { randomUUID } from 'node:crypto';
import { EVENT_MAX_RECIPIENT_IDS } from '../../src/modules/notifications/notifications.events';
import type { NotificationInput } from '../../src/modules/notifications';
import { addStaff, registerHotel, type RegisteredHotel } from '../helpers/accounts';
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
let desk: Awaited<ReturnType<typeof addStaff>>;
let maid: Awaited<ReturnType<typeof addStaff>>;
let ownerSocket: StaffClient;
let maidSocket: StaffClient;
let stranger: StaffClient;

beforeAll(async () => {
  t = await startTestServer();
  [owner, other] = await Promise.all([registerHotel(t), registerHotel(t)]);
  [desk, maid] = await Promise.all([addStaff(t, owner, 'receptionist'), addStaff(t, owner, 'housekeeper')]);
  ownerSocket = await connectStaff(t.wsUrl, owner.accessToken);
  maidSocket = await connectStaff(t.wsUrl, maid.accessToken);
  stranger = await connectStaff(t.wsUrl, other.accessToken);
});
afterAll(async () => {
  await Promise.all([ownerSocket.close(), maidSocket.close(), stranger.close()]);
  await t.close();
});

const NEW = 'notification:new';
const about = (id: string) => (message: RealtimeMessage) =>
  message.type === NEW && message.payload?.notification_id === id;

function send(hotelId: string, input: Partial<NotificationInput> = {}) {
  return t.db.transaction((trx) =>
    t.services.notifications.notify(trx, hotelId, {
      type: 'booking_created',
      title: 'Новое бронирование',
      body: '',
      ...input,
    }),
  );
}

describe('notification:new', () => {
  it('reaches the hotel’s sockets once, with the ids of the users it was delivered to', async () => {
    const { id } = await send(owner.hotelId, { data: { booking_id: randomUUID() } });
    const event = await ownerSocket.next(about(id));
    expect(event).toEqual({
      id: expect.any(Number),
      type: NEW,
      payload: {
        notification_id: id,
        type: 'booking_created',
        title: 'Новое бронирование',
        recipient_ids: expect.any(Array),
        recipients_truncated: false,
      },
    });
    expect((event.payload!.recipient_ids as string[]).sort()).toEqual([owner.userId, desk.id].sort());
    // Every socket of the hotel hears it (the housekeeper's client does not show it: its id is not listed).
    const heard = await maidSocket.next(about(id));
    expect(heard.payload!.recipient_ids).not.toContain(maid.id);
  });

  it('a rolled-back notify emits nothing, and another hotel never hears ours', async () => {
    let rolledBack: string | undefined;
    await expect(
      t.db.transaction(async (trx) => {
        rolledBack = (
          await t.services.notifications.notify(trx, owner.hotelId, {
            type: 'booking_created',
            title: 'Откат',
            body: '',
          })
        ).id;
        throw new Error('the booking failed');
      }),
    ).rejects.toThrow('the booking failed');
    expect(rolledBack).toBeDefined();
    // Events are sent in commit order, so each socket's later event bounds what could still come before it: ours
    // (committed after the rollback) for the rolled-back one, theirs for ours reaching the other hotel, and a last one
    // of ours for theirs reaching us.
    const marker = await send(owner.hotelId, { title: 'Маркер' });
    await ownerSocket.next(about(marker.id));
    const theirs = await send(other.hotelId, { title: 'Их' });
    await stranger.next(about(theirs.id));
    const last = await send(owner.hotelId, { title: 'Последний' });
    await ownerSocket.next(about(last.id));
    expect(ownerSocket.collected.filter(about(rolledBack!))).toEqual([]);
    expect(ownerSocket.collected.filter(about(theirs.id))).toEqual([]);
    expect(stranger.collected.filter((m) => m.type === NEW).map((m) => m.payload?.notification_id)).toEqual([
      theirs.id,
    ]);
  });

  it('a type nobody receives emits nothing', async () => {
    const hotel = await registerHotel(t);
    const socket = await connectStaff(t.wsUrl, hotel.accessToken);
    try {
      const nobody = await send(hotel.hotelId, { type: 'housekeeping_task_created', userIds: [randomUUID()] });
      expect(nobody.recipients).toBe(0);
      const marker = await send(hotel.hotelId);
      await socket.next(about(marker.id));
      expect(socket.collected.filter(about(nobody.id))).toEqual([]);
    } finally {
      await socket.close();
    }
  });

  it(`lists at most ${EVENT_MAX_RECIPIENT_IDS} recipient ids (pg_notify payloads stay under 8000 bytes)`, async () => {
    const hotel = await registerHotel(t);
    // A large front desk, inserted directly: the event size is what is tested here, not staff management.
    await t.db('users').insert(
      Array.from({ length: 160 }, (_, i) => ({
        hotel_id: hotel.hotelId,
        name: `Администратор ${i}`,
        email: `desk-${i}-${randomUUID()}@example.test`,
        role: 'receptionist',
        active: true,
      })),
    );
    const socket = await connectStaff(t.wsUrl, hotel.accessToken);
    try {
      const title = 'Я'.repeat(200);
      const { id, recipients } = await send(hotel.hotelId, { title, data: { booking_id: randomUUID() } });
      expect(recipients).toBe(161);
      const event = await socket.next(about(id));
      expect(event.payload).toMatchObject({ title, recipients_truncated: true });
      expect(event.payload!.recipient_ids).toHaveLength(EVENT_MAX_RECIPIENT_IDS);
      expect(new Set(event.payload!.recipient_ids as string[]).size).toBe(EVENT_MAX_RECIPIENT_IDS);
    } finally {
      await socket.close();
    }
  });
});
