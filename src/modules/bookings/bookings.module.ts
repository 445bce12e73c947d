import { bookingsFixtures } from './bookings.fixtures';
import { defineModule } from '../../platform/modules';
import type { NotificationsService } from '../notifications';
import { bookingActivities } from './bookings.activities';
import { bookingEffects } from './bookings.effects';
import { bookingCreated, bookingUpdated } from './bookings.events';
import { createBookingsRepository } from './bookings.repository';
import { bookingsRoutes } from './bookings.routes';
import { createBookingsService, type BookingsDependencies } from './bookings.service';

export const bookingsModule = defineModule({
  name: 'bookings',
  fixtures: bookingsFixtures,
  uses: ['hotels', 'rooms', 'pricing', 'guests', 'payments', 'housekeeping', 'notifications'],
  create: ({ db }, deps: BookingsDependencies & { notifications: Pick<NotificationsService, 'notify'> }) =>
    createBookingsService({ ...deps, repository: createBookingsRepository(db), effects: bookingEffects }),
  events: [bookingCreated, bookingUpdated],
  routes: (bookings) => bookingsRoutes(bookings),
  activities: (bookings, context, deps) => bookingActivities(bookings, context, deps),
  schedules: [
    { scheduleId: 'no-show-sweep', workflowType: 'noShowSweep', every: '10 minutes' },
    { scheduleId: 'auto-checkout-sweep', workflowType: 'autoCheckoutSweep', every: '10 minutes' },
  ],
});
