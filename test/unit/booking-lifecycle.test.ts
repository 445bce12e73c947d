import type { Knex } from 'knex';
import type { Db } from '../../src/platform/db/knex';
import { BusinessRuleError, NotFoundError } from '../../src/platform/errors';
import {
  createBookingLifecycle,
  type LifecycleDependencies,
  type LifecycleRepository,
} from '../../src/modules/bookings/bookings.lifecycle';
import type { DueBooking } from '../../src/modules/bookings/bookings.repository';
import type { Booking, BookingStatus } from '../../src/modules/bookings/bookings.types';
import type { PaymentSettings } from '../../src/modules/payments';

/**
 * The booking lifecycle against in-memory doubles of its repository and effects: no database. The repository injected
 * into the lifecycle's factory is all it touches, so its status moves and their consequences are checked here, and a
 * refused move is seen to change nothing (the double's transaction rolls back like the database's).
 */

const HOTEL = 'hotel-1';
const SLUG = 'hotel-one';
const hour = 3_600_000;

function booking(id: string, status: BookingStatus, fields: Partial<Booking> = {}): Booking {
  const now = Date.now();
  return {
    id,
    hotel_id: HOTEL,
    room_id: `room-of-${id}`,
    category_id: 'category-1',
    kind: 'nightly',
    check_in: '2030-05-01',
    check_out: '2030-05-03',
    start_at: new Date(now - 24 * hour),
    end_at: new Date(now + 24 * hour),
    status,
    source: 'front_desk',
    guest_last_name: 'Иванова',
    guest_first_name: 'Анна',
    guest_middle_name: null,
    guest_phone: null,
    guest_email: null,
    guests_count: 1,
    tariff_id: null,
    discount: '0',
    price: '5000.00',
    price_manual: false,
    paid_amount: '5000.00',
    charges_amount: '0',
    early_checkin: false,
    late_checkout: false,
    guest_blacklisted: false,
    notes: '',
    checked_in_at: null,
    checked_out_at: null,
    cancelled_at: null,
    cancel_reason: null,
    created_by: null,
    restrictions_override: null,
    block_id: null,
    created_at: new Date(now - 48 * hour),
    updated_at: new Date(now - 48 * hour),
    ...fields,
  };
}

/** The repository double: rows in a map, a transaction that puts them back when its work throws. */
function memoryRepository(rows: Booking[], due: { noShows?: string[]; overdue?: string[] } = {}) {
  const table = new Map(rows.map((row) => [row.id, { ...row }]));
  const trx = {} as Knex.Transaction;
  const dueOf = (ids: string[] = [], only?: { hotelId: string; bookingId?: string }): DueBooking[] =>
    ids
      .map((id) => ({ hotelId: table.get(id)!.hotel_id, hotelSlug: SLUG, bookingId: id }))
      .filter(
        (due) =>
          only === undefined ||
          ((only.bookingId === undefined || due.bookingId === only.bookingId) && due.hotelId === only.hotelId),
      );
  const repository: LifecycleRepository = {
    db: {} as Db,
    segments: { of: async () => [], replace: async () => undefined },
    async transaction(work) {
      const before = new Map([...table].map(([id, row]) => [id, { ...row }]));
      try {
        return await work(trx);
      } catch (error) {
        table.clear();
        before.forEach((row, id) => table.set(id, row));
        throw error;
      }
    },
    bookings: {
      async find(_conn, hotelId, id) {
        const row = table.get(id);
        return row?.hotel_id === hotelId ? { ...row } : undefined;
      },
      async insert(_conn, hotelId, row) {
        const created = booking(`b${table.size + 1}`, 'confirmed', { ...row, hotel_id: hotelId });
        table.set(created.id, created);
        return { ...created };
      },
      async update(_conn, _hotelId, id, changes) {
        const updated = { ...table.get(id)!, ...changes, updated_at: new Date() };
        table.set(id, updated);
        return { ...updated };
      },
      clashes: async () => [],
    },
    due: {
      noShows: async (_conn, only) =>
        dueOf(due.noShows, only).filter((d) => table.get(d.bookingId)!.status === 'confirmed'),
      overdueStays: async (_conn, only) =>
        dueOf(due.overdue, only).filter((d) => table.get(d.bookingId)!.status === 'checked_in'),
    },
  };
  return { repository, row: (id: string) => table.get(id)! };
}

/** Everything the lifecycle did besides writing the booking, in order. */
function recordingDoubles(requirePaymentCheckin: PaymentSettings['require_payment_checkin'] = 'hard') {
  const done: string[] = [];
  const effects: LifecycleDependencies['effects'] = {
    announce: async (_trx, b, type) => void done.push(`realtime ${type} ${b.id} ${b.status}`),
    notifyStaff: async (_trx, b, announcement) => {
      done.push(`notify ${b.id} ${announcement.event === 'status' ? announcement.reason : announcement.event}`);
      return 0;
    },
    startAndAnnounce: async (_trx, b, slug) => void done.push(`outbox start ${b.id} ${slug}`),
    signalStatus: async (_trx, b, change, slug) =>
      void done.push(`outbox signal ${b.id} ${change.status} ${change.reason} ${slug}`),
  };
  const housekeeping = {
    createTurnoverTask: async (_trx: unknown, hotelId: string, roomId: string, bookingId: string | null = null) =>
      void done.push(`turnover ${hotelId} ${roomId} ${bookingId}`),
  };
  const payments = {
    settingsOf: async () => ({ require_payment_checkin: requirePaymentCheckin }) as PaymentSettings,
  };
  return { done, effects, housekeeping, payments };
}

function lifecycleOf(
  rows: Booking[],
  options: { due?: Parameters<typeof memoryRepository>[1]; level?: 'hard' | 'soft' } = {},
) {
  const memory = memoryRepository(rows, options.due);
  const doubles = recordingDoubles(options.level);
  const lifecycle = createBookingLifecycle({
    ...doubles,
    repository: memory.repository,
    edited: async (_trx, _booking, changes) => ({ ...changes }),
    holds: { guard: async () => undefined },
    tellPlan: async () => undefined,
  });
  return { lifecycle, ...memory, done: doubles.done };
}

const staff = { userId: 'user-1', hotelSlug: SLUG };

describe('the booking lifecycle, without a database', () => {
  it('checks a stay out: the room freed from now, its turnover clean, the signal and the staff screens', async () => {
    const { lifecycle, row, done } = lifecycleOf([booking('b1', 'checked_in')]);
    const before = Date.now();
    const answer = await lifecycle.change(HOTEL, 'b1', { status: 'checked_out' }, staff);
    expect(answer.status).toBe('checked_out');
    expect(row('b1').status).toBe('checked_out');
    expect(row('b1').checked_out_at!.getTime()).toBeGreaterThanOrEqual(before);
    expect(row('b1').end_at.getTime()).toBe(row('b1').checked_out_at!.getTime());
    expect(done).toEqual([
      'turnover hotel-1 room-of-b1 b1',
      'outbox signal b1 checked_out manual hotel-one',
      'notify b1 manual',
      'realtime booking_updated b1 checked_out',
    ]);
  });

  it('refuses an illegal move and a final booking, and changes nothing', async () => {
    const { lifecycle, row, done } = lifecycleOf([booking('b1', 'confirmed'), booking('b2', 'cancelled')]);
    await expect(lifecycle.change(HOTEL, 'b1', { status: 'checked_out' }, staff)).rejects.toThrow(BusinessRuleError);
    await expect(lifecycle.change(HOTEL, 'b2', { notes: 'late' }, staff)).rejects.toThrow(BusinessRuleError);
    expect(row('b1').status).toBe('confirmed');
    expect(row('b2').notes).toBe('');
    expect(done).toEqual([]);
  });

  it('refuses a check-in with a balance due when the hotel requires payment, and warns when it only asks', async () => {
    const unpaid = { paid_amount: '1000.00' };
    const hard = lifecycleOf([booking('b1', 'confirmed', unpaid)], { level: 'hard' });
    await expect(hard.lifecycle.change(HOTEL, 'b1', { status: 'checked_in' }, staff)).rejects.toThrow(
      /не оплачено 4000/,
    );
    expect(hard.row('b1').status).toBe('confirmed');
    const soft = lifecycleOf([booking('b1', 'confirmed', unpaid)], { level: 'soft' });
    const answer = await soft.lifecycle.change(HOTEL, 'b1', { status: 'checked_in' }, staff);
    expect(answer.warnings).toEqual([expect.stringMatching(/задолженностью 4000/)]);
    expect(soft.row('b1').checked_in_at).toBeInstanceOf(Date);
    expect(soft.done).toEqual([
      'outbox signal b1 checked_in manual hotel-one',
      'notify b1 manual',
      'realtime booking_updated b1 checked_in',
    ]);
  });

  it("another hotel's booking is not found", async () => {
    const { lifecycle } = lifecycleOf([booking('b1', 'confirmed', { hotel_id: 'hotel-2' })]);
    await expect(lifecycle.change(HOTEL, 'b1', { status: 'cancelled' }, staff)).rejects.toThrow(NotFoundError);
  });

  it('the sweeps move what is due still and skip what moved meanwhile', async () => {
    const { lifecycle, row, done } = lifecycleOf([booking('b1', 'confirmed'), booking('b2', 'checked_in')], {
      due: { noShows: ['b1'], overdue: ['b2'] },
    });
    const [noShow] = await lifecycle.sweeps.noShows();
    const [overdue] = await lifecycle.sweeps.overdueStays();
    expect(await lifecycle.sweeps.cancelNoShow(noShow)).toBe('done');
    expect(await lifecycle.sweeps.cancelNoShow(noShow)).toBe('skipped');
    expect(await lifecycle.sweeps.autoCheckOut(overdue)).toBe('done');
    expect(row('b1')).toMatchObject({ status: 'cancelled', cancel_reason: 'no_show' });
    expect(row('b2').status).toBe('checked_out');
    expect(done).toEqual([
      'outbox signal b1 cancelled no_show hotel-one',
      'notify b1 no_show',
      'realtime booking_updated b1 cancelled',
      'turnover hotel-1 room-of-b2 b2',
      'outbox signal b2 checked_out auto_checkout hotel-one',
      'notify b2 auto_checkout',
      'realtime booking_updated b2 checked_out',
    ]);
  });

  it("an unpaid online booking's expiry cancels it with its reason; a paid one is confirmed", async () => {
    const { lifecycle, row, done } = lifecycleOf([booking('b1', 'inquiry'), booking('b2', 'inquiry')]);
    await lifecycle.cancel(HOTEL, 'b1', SLUG, 'payment_timeout', 'not_paid_online');
    await lifecycle.confirm(HOTEL, 'b2', SLUG, 'online_payment');
    expect(row('b1')).toMatchObject({ status: 'cancelled', cancel_reason: 'not_paid_online' });
    expect(row('b2').status).toBe('confirmed');
    expect(done.filter((line) => line.startsWith('outbox'))).toEqual([
      'outbox signal b1 cancelled payment_timeout hotel-one',
      'outbox signal b2 confirmed online_payment hotel-one',
    ]);
  });
});
