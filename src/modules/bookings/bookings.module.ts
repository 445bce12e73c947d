import { defineModule } from '../../platform/modules';
import type { BookingActivities } from '../../../workflows/contracts/bookings';
import type { HousekeepingService } from '../housekeeping';
import type { QuoteService } from '../pricing';
import { createBookingJobs } from './bookings.jobs';
import { bookingsRoutes } from './bookings.routes';
import { createBookingsService } from './bookings.service';

export const bookingsModule = defineModule({
  name: 'bookings',
  uses: ['pricing', 'housekeeping'],
  create: (
    { db, config },
    deps: { pricing: { quotes: QuoteService }; housekeeping: Pick<HousekeepingService, 'createTurnoverTask'> },
  ) => createBookingsService(db, config, { quotes: deps.pricing.quotes, housekeeping: deps.housekeeping }),
  routes: (bookings) => bookingsRoutes(bookings),
  activities(bookings, { db }): BookingActivities {
    const jobs = createBookingJobs(db, bookings);
    return {
      announceBooking: (hotelId, bookingId, announcement) => jobs.announce(hotelId, bookingId, announcement),
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
