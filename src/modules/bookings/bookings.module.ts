import { bookingsFixtures } from './bookings.fixtures';
import { defineModule } from '../../platform/modules';
import { bookingActivities } from './bookings.activities';
import { createBookingEffects } from './bookings.effects';
import { createStayFollowers } from './bookings.outside';
import { bookingCreated, bookingMoved, bookingUpdated } from './bookings.events';
import { createBookingsRepository } from './bookings.repository';
import { bookingsRoutes } from './bookings.routes';
import { createBookingsService, type BookingsDependencies } from './bookings.service';
import { bookingsEnv } from './bookings.env';
import type { HeldUnits } from '../pricing';
import { ERASED, overwritten, scrubbed } from '../../platform/personal-data';

export const bookingsModule = defineModule({
  name: 'bookings',
  fixtures: bookingsFixtures,
  uses: [
    'hotels',
    'rooms',
    'pricing',
    'restrictions',
    'guests',
    'payments',
    'housekeeping',
    'notifications',
    'touristTax',
  ],
  personalData: [
    overwritten('bookings (guest name, phone, e-mail, notes)', 'bookings', 'bookingRow', () => ({
      guest_last_name: ERASED,
      guest_first_name: ERASED,
      guest_middle_name: null,
      guest_phone: null,
      guest_email: null,
      notes: '',
    })),
    scrubbed('booking_charges', 'booking', [{ name: 'description' }]),
  ],
  config: bookingsEnv,
  create: ({ db, config }, deps: BookingsDependencies & { pricing: { seeHeldUnits(held: HeldUnits): void } }) => {
    const followers = createStayFollowers();
    const effects = createBookingEffects({ notifications: deps.notifications, followers });
    const bookings = createBookingsService({
      ...deps,
      repository: createBookingsRepository(db),
      effects,
      followers,
      plannedMoveDelayMs: config.plannedMoveDelayMs,
    });
    // The quotes take the units blocks hold out of what they offer by this module's count of rooms.
    deps.pricing.seeHeldUnits(bookings.heldUnits);
    return bookings;
  },
  events: [bookingCreated, bookingUpdated, bookingMoved],
  routes: (bookings) => bookingsRoutes(bookings),
  activities: (bookings, context, deps) => bookingActivities(bookings, context, deps),
  schedules: [
    { scheduleId: 'no-show-sweep', workflowType: 'noShowSweep', every: '10 minutes' },
    { scheduleId: 'auto-checkout-sweep', workflowType: 'autoCheckoutSweep', every: '10 minutes' },
  ],
});
