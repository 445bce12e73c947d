import type { WorkerContext } from '../../platform/modules';
import { sendingClaimed } from '../../platform/temporal/mail-failures';
import type { BookingActivities } from '../../../workflows/contracts/bookings';
import { createBookingNotices } from './bookings.notices';
import { createBookingsRepository } from './bookings.repository';
import type { BookingsDependencies, BookingsService } from './bookings.service';

/**
 * The booking workflows' activities, thin calls: the sweeps' moves into the lifecycle (the service's, the one owner
 * of every status move), the announcements and the guest's e-mails into the notices.
 */
export function bookingActivities(
  bookings: BookingsService,
  { db, mailer }: WorkerContext,
  deps: Pick<BookingsDependencies, 'hotels' | 'rooms' | 'notifications' | 'touristTax'>,
): BookingActivities {
  const notices = createBookingNotices({ ...deps, repository: createBookingsRepository(db), mailer });
  const { sweeps } = bookings.lifecycle;
  return {
    announceBooking: (hotelId, bookingId, announcement) => notices.announce(hotelId, bookingId, announcement),
    sendGuestBookingEmail: (hotelId, bookingId, kind) =>
      sendingClaimed(() => notices.sendGuestEmail(hotelId, bookingId, kind), {
        type: 'GuestEmailBusy',
        message: `the ${kind} e-mail of booking ${bookingId} is being sent`,
      }),
    findNoShows: () => sweeps.noShows(),
    cancelNoShow: (due) => sweeps.cancelNoShow(due),
    findOverdueStays: () => sweeps.overdueStays(),
    autoCheckOut: (due) => sweeps.autoCheckOut(due),
    carryOutPlannedMove: (hotelId, bookingId, plan) => bookings.moves.carryOut(hotelId, bookingId, plan),
  };
}
