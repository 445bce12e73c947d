import { loyaltyFixtures } from './loyalty.fixtures';
import { defineModule } from '../../platform/modules';
import { loyaltyActivities } from './loyalty.activities';
import { loyaltyStayFollower } from './loyalty.follower';
import { loyaltyRoutes } from './loyalty.routes';
import { createLoyaltyService, type LoyaltyDependencies } from './loyalty.service';
import { scrubbed } from '../../platform/personal-data';

/** Loyalty: the hotel's programme, its tiers and every guest's ledger of points. */
export const loyaltyModule = defineModule({
  name: 'loyalty',
  fixtures: loyaltyFixtures,
  uses: ['guests', 'bookings'],
  personalData: [scrubbed('loyalty_entries', 'guest', [{ name: 'note' }])],
  create: ({ db }, deps: LoyaltyDependencies) => {
    deps.bookings.followStays(loyaltyStayFollower);
    return createLoyaltyService(db, deps);
  },
  routes: (loyalty) => loyaltyRoutes(loyalty),
  onHotelCreated: (loyalty, trx, hotelId) => loyalty.settings.onHotelCreated(trx, hotelId),
  activities: loyaltyActivities,
  schedules: [{ scheduleId: 'loyalty-expiry', workflowType: 'loyaltyExpiry', every: '1 day' }],
});
