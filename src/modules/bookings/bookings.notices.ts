import { sendClaimed } from '../../platform/db/mail-claims';
import { guestEmailClaim } from './bookings.email-claims';
import type { Mailer, MailMessage } from '../../platform/mail';
import type { BookingAnnouncement, GuestEmailKind, GuestEmailOutcome } from '../../../workflows/contracts/bookings';
import type { NotificationsService } from '../notifications';
import { guestBookingEmail } from './bookings.guest-emails';
import { writesToGuest } from './bookings.outside';
import { notifyStaff } from './bookings.staff-notices';
import type { BookingsRepository } from './bookings.repository';
import type { BookingsDependencies } from './bookings.service';
import type { Booking } from './bookings.types';

export interface NoticesDependencies extends Pick<BookingsDependencies, 'hotels' | 'rooms' | 'touristTax'> {
  repository: Pick<BookingsRepository, 'db' | 'bookings'>;
  mailer: Mailer;
  notifications: Pick<NotificationsService, 'notify'>;
}

/** What the booking's workflow tells people of its life: the guest by e-mail (and staff, in its first version). */
export function createBookingNotices(deps: NoticesDependencies) {
  const { repository, mailer, notifications, hotels, rooms } = deps;
  const { db, bookings } = repository;

  async function guestEmail(booking: Booking, kind: GuestEmailKind): Promise<MailMessage> {
    const [hotel, settings, category, tax] = await Promise.all([
      hotels.find(booking.hotel_id),
      hotels.settingsOf(booking.hotel_id),
      rooms.findCategory(booking.hotel_id, booking.category_id),
      deps.touristTax.ofBooking(booking.hotel_id, booking),
    ]);
    return guestBookingEmail(kind, {
      hotel: hotel!,
      booking,
      touristTax: tax.total,
      categoryName: category?.name ?? '',
      language: settings.guest_language,
    });
  }

  /**
   * A guest must never get an e-mail twice: it is claimed under its booking and kind before it is sent
   * (`sendClaimed`, src/platform/db/mail-claims.ts): a retry after the relay took it finds it sent, and a crash in the
   * instant between the claim and the relay's answer loses that one e-mail (`in_doubt`) rather than risking a second,
   * the reverse of the deposit statement's choice (at least once).
   */
  async function sendGuestEmail(
    hotelId: string,
    bookingId: string,
    kind: GuestEmailKind,
  ): Promise<GuestEmailOutcome | 'busy'> {
    const booking = await bookings.find(db, hotelId, bookingId);
    if (!writesToGuest(booking)) return 'not_for_this_booking';
    const message = await guestEmail(booking, kind);
    return sendClaimed(db, guestEmailClaim(booking, kind), () => mailer.send(message), 'skip');
  }

  return {
    sendGuestEmail,
    /** The first version's announcement by an activity (the commit made its notifications: it finds them made). */
    async announce(hotelId: string, bookingId: string, announcement: BookingAnnouncement): Promise<number> {
      return db.transaction(async (trx) => {
        const booking = await bookings.find(trx, hotelId, bookingId);
        return booking ? notifyStaff(notifications, trx, booking, announcement) : 0;
      });
    },
  };
}
