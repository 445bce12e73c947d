import { defineModule } from '../../platform/modules';
import { sendingOnce } from '../../platform/temporal/mail-failures';
import { bookingCreated, bookingUpdated } from './bookings.events';
import type { BookingActivities } from '../../../workflows/contracts/bookings';
import type { NotificationsService } from '../notifications';
import { createBookingJobs } from './bookings.jobs';
import { bookingsRoutes } from './bookings.routes';
import { createBookingsService, type BookingsDependencies } from './bookings.service';

export const bookingsModule = defineModule({
  name: 'bookings',
  uses: ['hotels', 'rooms', 'pricing', 'guests', 'payments', 'housekeeping', 'notifications'],
  create: ({ db }, deps: BookingsDependencies & { notifications: Pick<NotificationsService, 'notify'> }) =>
    createBookingsService(db, deps),
  events: [bookingCreated, bookingUpdated],
  routes: (bookings) => bookingsRoutes(bookings),
  activities(bookings, { db, mailer }, deps): BookingActivities {
    const jobs = createBookingJobs(db, bookings, mailer, deps);
    return {
      announceBooking: (hotelId, bookingId, announcement) => jobs.announce(hotelId, bookingId, announcement),
      sendGuestBookingEmail: (hotelId, bookingId, kind) =>
        sendingOnce(() => jobs.sendGuestEmail(hotelId, bookingId, kind)),
      findNoShows: () => jobs.dueNoShows(),
      cancelNoShow: (due) => jobs.cancelNoShow(due),
      findOverdueStays: () => jobs.dueCheckouts(),
      autoCheckOut: (due) => jobs.autoCheckOut(due),
    };
  },
  schedules: [
    { scheduleId: 'no-show-sweep', workflowType: 'noShowSweep', every: '10 minutes' },
    { scheduleId: 'auto-checkout-sweep', workflowType: 'autoCheckoutSweep', every: '10 minutes' },
  ],
});
