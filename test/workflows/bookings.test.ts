import { Client, Connection } from '@temporalio/client';
import { as, registerHotel, type RegisteredHotel } from '../helpers/accounts';
import { connectStaff, startTestServer, type StaffClient, type TestServer } from '../helpers/realtime';
import { readStackInfo } from '../helpers/stack-env';
import { createCategory, createRoom } from '../helpers/structure';
import { until } from '../helpers/wait';
import { localDay } from '../helpers/dates';
import { blacklistedGuest } from '../helpers/guests';
import { resultOnceStarted, startedHandle } from '../helpers/workflows';

let t: TestServer;
let connection: Connection;
let client: Client;

beforeAll(async () => {
  t = await startTestServer();
  connection = await Connection.connect({ address: readStackInfo().env.TEMPORAL_ADDRESS });
  client = new Client({ connection });
});
afterAll(async () => {
  await connection.close();
  await t.close();
});

const api = (hotel: RegisteredHotel, path: string) => `/api/hotels/${hotel.slug}${path}`;
async function hotelWithRoom(settings: Record<string, unknown> = {}) {
  const hotel = await registerHotel(t);
  if (Object.keys(settings).length > 0)
    await t.http.patch(api(hotel, '/settings')).set(as(hotel.accessToken)).send(settings).expect(200);
  const category = await createCategory(t, hotel, { base_price: 4000 });
  const room = await createRoom(t, hotel, category.id);
  return { hotel, room };
}

async function book(hotel: RegisteredHotel, body: Record<string, unknown>) {
  const response = await t.http
    .post(api(hotel, '/bookings'))
    .set(as(hotel.accessToken))
    .send({ guest_last_name: 'Петрова', guest_first_name: 'Анна', guest_phone: '+79990002233', ...body })
    .expect(201);
  return response.body;
}

async function notificationsOf(hotel: RegisteredHotel, type: string, timeoutMs = 15_000) {
  return until(
    async () => {
      const { body } = await t.http.get(api(hotel, '/notifications')).set(as(hotel.accessToken)).expect(200);
      const found = body.items.filter((n: { type: string }) => n.type === type);
      return found.length > 0 && found;
    },
    { what: `a ${type} notification`, timeoutMs, intervalMs: 200 },
  );
}

describe('booking workflow', () => {
  it('starts with the booking (visible under HotelSlug and BookingId, with a memo), notifies staff once, and ends at check-out', async () => {
    const { hotel, room } = await hotelWithRoom();
    const booking = await book(hotel, { room_id: room.id, check_in: localDay(-1), check_out: localDay(2) });
    const created = await notificationsOf(hotel, 'booking_created');
    expect(created).toHaveLength(1);
    expect(created[0].body).toContain('Петрова Анна');

    const handle = await startedHandle(client, `booking:${booking.id}`);
    const description = await handle.describe();
    const attributes = description.typedSearchAttributes.getAll().map((pair) => [pair.key.name, pair.value]);
    expect(attributes).toEqual(
      expect.arrayContaining([
        ['HotelSlug', hotel.slug],
        ['BookingId', booking.id],
      ]),
    );
    // What an operator reads in the Temporal UI: the guest by initials only.
    expect(description.memo).toEqual({ hotel: hotel.slug, booking: booking.id, guest: 'А. П.' });

    await t.http
      .patch(api(hotel, `/bookings/${booking.id}`))
      .set(as(hotel.accessToken))
      .send({ status: 'checked_in' })
      .expect(200);
    await t.http
      .patch(api(hotel, `/bookings/${booking.id}`))
      .set(as(hotel.accessToken))
      .send({ status: 'checked_out' })
      .expect(200);
    expect(await handle.result()).toBe('checked_out');
    expect(await notificationsOf(hotel, 'booking_created')).toHaveLength(1);
  });

  it('flags a blacklisted guest to staff: the booking carries a warning and a notification follows', async () => {
    const { hotel, room } = await hotelWithRoom();
    const guestId = await blacklistedGuest(t, hotel, '+79995550000');
    const booking = await book(hotel, {
      room_id: room.id,
      check_in: localDay(5),
      check_out: localDay(6),
      guest_last_name: 'Нарушитель',
      guest_first_name: 'Иван',
      guest_phone: '+7 999 555-00-00',
    });
    expect(booking).toMatchObject({ guest_blacklisted: true, warnings: ['Гость в чёрном списке'] });
    const detail = await t.http
      .get(api(hotel, `/bookings/${booking.id}`))
      .set(as(hotel.accessToken))
      .expect(200);
    expect(detail.body.guests).toEqual([{ guest_id: guestId, is_primary: true }]);
    expect(await notificationsOf(hotel, 'booking_blacklisted_guest')).toHaveLength(1);
  });
});

describe('background jobs', () => {
  let desk: StaffClient | undefined;
  afterEach(async () => {
    await desk?.close();
    desk = undefined;
  });

  it('noShowSweep cancels confirmed stays past the no-show hours when the toggle is on, with an event and a notification', async () => {
    const { hotel, room } = await hotelWithRoom({ no_show_auto_cancel: true, no_show_hours: 1 });
    const { hotel: quiet, room: quietRoom } = await hotelWithRoom({ no_show_auto_cancel: false });
    const missed = await book(hotel, { room_id: room.id, check_in: localDay(-2), check_out: localDay(1) });
    const future = await book(hotel, { room_id: room.id, check_in: localDay(3), check_out: localDay(4) });
    const untouched = await book(quiet, { room_id: quietRoom.id, check_in: localDay(-2), check_out: localDay(1) });
    desk = await connectStaff(t.wsUrl, hotel.accessToken);

    const result = await client.workflow.execute('noShowSweep', {
      taskQueue: 'hotel',
      workflowId: `test-no-show-${missed.id}`,
    });
    expect(result.cancelled).toBeGreaterThanOrEqual(1);
    const row = await t.db('bookings').where({ id: missed.id }).first();
    expect(row).toMatchObject({ status: 'cancelled', cancel_reason: 'no_show' });
    expect((await t.db('bookings').where({ id: future.id }).first()).status).toBe('confirmed');
    expect((await t.db('bookings').where({ id: untouched.id }).first()).status).toBe('confirmed');
    // The event comes from the worker process, through PostgreSQL, to this API's socket.
    expect(await desk.next((m) => m.type === 'booking_updated' && m.payload?.booking_id === missed.id)).toMatchObject({
      payload: { status: 'cancelled' },
    });
    expect(await notificationsOf(hotel, 'booking_cancelled_no_show')).toHaveLength(1);
    // Running again finds nothing more to do for this booking and notifies nobody twice.
    await client.workflow.execute('noShowSweep', { taskQueue: 'hotel', workflowId: `test-no-show-again-${missed.id}` });
    expect(await notificationsOf(hotel, 'booking_cancelled_no_show')).toHaveLength(1);
  });

  it('autoCheckoutSweep checks out overdue stays: the room turns dirty with a turnover task, and staff are told', async () => {
    const { hotel, room } = await hotelWithRoom({ auto_checkout: true, auto_checkout_hours: 0 });
    const overdue = await book(hotel, { room_id: room.id, check_in: localDay(-3), check_out: localDay(-1) });
    await t.http
      .patch(api(hotel, `/bookings/${overdue.id}`))
      .set(as(hotel.accessToken))
      .send({ status: 'checked_in' })
      .expect(200);
    const staying = await book(hotel, { room_id: room.id, check_in: localDay(-1), check_out: localDay(2) });
    await t.http
      .patch(api(hotel, `/bookings/${staying.id}`))
      .set(as(hotel.accessToken))
      .send({ status: 'checked_in' })
      .expect(200);

    const result = await client.workflow.execute('autoCheckoutSweep', {
      taskQueue: 'hotel',
      workflowId: `test-checkout-${overdue.id}`,
    });
    expect(result.checkedOut).toBeGreaterThanOrEqual(1);
    expect((await t.db('bookings').where({ id: overdue.id }).first()).status).toBe('checked_out');
    expect((await t.db('bookings').where({ id: staying.id }).first()).status).toBe('checked_in');
    expect(await t.db('housekeeping_tasks').where({ booking_id: overdue.id })).toEqual([
      expect.objectContaining({ source: 'checkout', room_id: room.id }),
    ]);
    expect(await notificationsOf(hotel, 'booking_auto_checked_out')).toHaveLength(1);
    expect(await resultOnceStarted(client, `booking:${overdue.id}`)).toBe('checked_out');
  });

  it('both sweeps are registered as 10-minute schedules', async () => {
    for (const id of ['no-show-sweep', 'auto-checkout-sweep']) {
      const schedule = await client.schedule.getHandle(id).describe();
      expect(schedule.spec.intervals?.[0]?.every).toBe(600_000);
    }
  });
});
