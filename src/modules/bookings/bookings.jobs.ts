import type { Knex } from 'knex';
import type { Db } from '../../platform/db/knex';
import type { BookingAnnouncement } from '../../../workflows/contracts/bookings';
import type { NotificationsService, NotificationType } from '../notifications';
import { bookingsRepository, dueBookingsRepository, type DueBooking } from './bookings.repository';
import type { BookingsService } from './bookings.service';
import type { Booking } from './bookings.types';

function describe(booking: Booking): string {
  const stay = booking.check_in ? `${booking.check_in} — ${booking.check_out}` : booking.start_at.toISOString();
  return `${booking.guest_last_name} ${booking.guest_first_name}, ${stay}`;
}

/** The in-app notification an announcement makes, if any. */
function notificationFor(
  booking: Booking,
  announcement: BookingAnnouncement,
): { type: NotificationType; title: string }[] {
  if (announcement.event === 'created') {
    return [
      { type: 'booking_created' as const, title: 'Новое бронирование' },
      ...(booking.guest_blacklisted
        ? [{ type: 'booking_blacklisted_guest' as const, title: 'Бронирование гостя из чёрного списка' }]
        : []),
    ];
  }
  if (announcement.status === 'cancelled' && announcement.reason === 'no_show') {
    return [{ type: 'booking_cancelled_no_show', title: 'Бронирование отменено: гость не заехал' }];
  }
  if (announcement.status === 'checked_out' && announcement.reason === 'auto_checkout') {
    return [{ type: 'booking_auto_checked_out', title: 'Автоматический выезд по истечении срока' }];
  }
  return [];
}

/** What the background jobs and the booking workflow do; every step is safe to run twice. */
export function createBookingJobs(
  db: Db,
  bookings: BookingsService,
  { notifications }: { notifications: Pick<NotificationsService, 'notify'> },
) {
  /** One notification per booking and type, however often an activity is retried. */
  async function notifyOnce(trx: Knex.Transaction, booking: Booking, type: NotificationType, title: string) {
    const result = await notifications.notify(trx, booking.hotel_id, {
      type,
      title,
      body: describe(booking),
      data: { booking_id: booking.id, room_id: booking.room_id },
      dedupeKey: `${type}:${booking.id}`,
    });
    return result.created;
  }

  async function act(due: DueBooking, status: 'cancelled' | 'checked_out', reason: 'no_show' | 'auto_checkout') {
    const stillDue =
      reason === 'no_show'
        ? await dueBookingsRepository.noShows(db, due.bookingId)
        : await dueBookingsRepository.overdueStays(db, due.bookingId);
    if (stillDue.length === 0) return 'skipped';
    await bookings.update(
      due.hotelId,
      due.bookingId,
      { status },
      { userId: null, hotelSlug: due.hotelSlug },
      { reason },
    );
    return 'done';
  }

  return {
    async announce(hotelId: string, bookingId: string, announcement: BookingAnnouncement): Promise<number> {
      return db.transaction(async (trx) => {
        const booking = await bookingsRepository.find(trx, hotelId, bookingId);
        if (!booking) return 0;
        let sent = 0;
        for (const { type, title } of notificationFor(booking, announcement)) {
          if (await notifyOnce(trx, booking, type, title)) sent += 1;
        }
        return sent;
      });
    },
    dueNoShows: () => dueBookingsRepository.noShows(db),
    dueCheckouts: () => dueBookingsRepository.overdueStays(db),
    cancelNoShow: (due: DueBooking) => act(due, 'cancelled', 'no_show'),
    autoCheckOut: (due: DueBooking) => act(due, 'checked_out', 'auto_checkout'),
  };
}
