import { ApplicationFailure } from '@temporalio/common';
import type { Knex } from 'knex';
import type { Db, DbOrTrx } from '../../platform/db/knex';
import type { Mailer, MailMessage } from '../../platform/mail';
import type { BookingAnnouncement, GuestEmailKind, GuestEmailOutcome } from '../../../workflows/contracts/bookings';
import type { NotificationsService, NotificationType } from '../notifications';
import { guestBookingEmail } from './bookings.guest-emails';
import { bookingsRepository, dueBookingsRepository, type DueBooking } from './bookings.repository';
import type { BookingsDependencies, BookingsService } from './bookings.service';
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

/**
 * Longer than one attempt can spend between taking a guest e-mail on and recording how it went (the mail transport
 * gives up on a silent server within 10 minutes): a row still unsent after this belongs to an attempt that is gone.
 */
const GUEST_EMAIL_IN_DOUBT_AFTER = '15 minutes';

/** The rows of booking_guest_emails: one per booking and kind, from taking the e-mail on (`sent_at` set once sent). */
const guestEmailRows = {
  async claim(db: DbOrTrx, booking: Booking, kind: GuestEmailKind): Promise<boolean> {
    const inserted = await db('booking_guest_emails')
      .insert({ hotel_id: booking.hotel_id, booking_id: booking.id, kind })
      .onConflict(['booking_id', 'kind'])
      .ignore()
      .returning('kind');
    return inserted.length > 0;
  },
  standing(
    db: DbOrTrx,
    booking: Booking,
    kind: GuestEmailKind,
  ): Promise<{ sent: boolean; in_doubt: boolean } | undefined> {
    return db('booking_guest_emails')
      .where({ booking_id: booking.id, kind })
      .first(
        db.raw('sent_at IS NOT NULL AS sent'),
        db.raw(`claimed_at < now() - interval '${GUEST_EMAIL_IN_DOUBT_AFTER}' AS in_doubt`),
      );
  },
  release: (db: DbOrTrx, booking: Booking, kind: GuestEmailKind) =>
    db('booking_guest_emails').where({ booking_id: booking.id, kind }).whereNull('sent_at').delete(),
  markSent: (db: DbOrTrx, booking: Booking, kind: GuestEmailKind) =>
    db('booking_guest_emails').where({ booking_id: booking.id, kind }).update({ sent_at: db.fn.now() }),
};

/**
 * Only online bookings: their guests booked without talking to anyone and wait to hear back. The source decides, not
 * who keyed the booking in, so a request staff copy from the hotel's website counts too; a desk, phone or OTA guest
 * hears from the desk or the OTA.
 */
function writesToGuest(booking: Booking | undefined): booking is Booking & { guest_email: string } {
  return booking?.source === 'online' && Boolean(booking.guest_email);
}

/** What the background jobs and the booking workflow do; every step is safe to run twice. */
export function createBookingJobs(
  db: Db,
  bookings: BookingsService,
  mailer: Mailer,
  {
    notifications,
    hotels,
    rooms,
  }: Pick<BookingsDependencies, 'hotels' | 'rooms'> & { notifications: Pick<NotificationsService, 'notify'> },
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

  async function guestEmail(booking: Booking, kind: GuestEmailKind): Promise<MailMessage> {
    const [hotel, settings, category] = await Promise.all([
      hotels.find(booking.hotel_id),
      hotels.settingsOf(booking.hotel_id),
      rooms.findCategory(booking.hotel_id, booking.category_id),
    ]);
    return guestBookingEmail(kind, {
      hotel: hotel!,
      booking,
      categoryName: category?.name ?? '',
      language: settings.guest_language,
    });
  }

  /**
   * A guest must never get an e-mail twice, so it is taken on (its row claimed and committed) before it is sent:
   * - a send that fails (the relay down, a refusal) gives the claim back and throws, and Temporal retries while the
   *   relay is down; what failed was not accepted by the relay, so trying again cannot make a second e-mail;
   * - a claim found unsent belongs to another attempt. Within GUEST_EMAIL_IN_DOUBT_AFTER that attempt may still be
   *   talking to the relay (Temporal gave up on it, it did not): this one fails, to look again on its retry. Later,
   *   that attempt died between the claim and the record (a crashed worker): the relay may have taken the e-mail or
   *   not, nobody knows, and it is not sent again (`in_doubt`): losing one e-mail in a crash of that instant is the
   *   price of never sending it twice, the reverse of the deposit statement's choice (at least once).
   */
  async function sendGuestEmail(hotelId: string, bookingId: string, kind: GuestEmailKind): Promise<GuestEmailOutcome> {
    const booking = await bookingsRepository.find(db, hotelId, bookingId);
    if (!writesToGuest(booking)) return 'not_for_this_booking';
    const message = await guestEmail(booking, kind);
    if (!(await guestEmailRows.claim(db, booking, kind))) {
      const standing = await guestEmailRows.standing(db, booking, kind);
      if (standing?.sent) return 'already_sent';
      if (standing?.in_doubt) return 'in_doubt';
      throw ApplicationFailure.retryable(`the ${kind} e-mail of booking ${bookingId} is being sent`, 'GuestEmailBusy');
    }
    try {
      await mailer.send(message);
    } catch (error) {
      await guestEmailRows.release(db, booking, kind);
      throw error;
    }
    await guestEmailRows.markSent(db, booking, kind);
    return 'sent';
  }

  return {
    sendGuestEmail,
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
