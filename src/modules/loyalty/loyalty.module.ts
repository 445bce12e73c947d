import { loyaltyFixtures } from './loyalty.fixtures';
import type { LoyaltyActivities } from '../../../workflows/contracts/loyalty';
import type { LoyaltyExpiryActivities } from '../../../workflows/contracts/loyalty-expiry';
import { defineModule } from '../../platform/modules';
import { loyaltyRoutes } from './loyalty.routes';
import { createLoyaltyService, type LoyaltyDependencies } from './loyalty.service';

/** Loyalty: the hotel's programme, its tiers and every guest's ledger of points. */
export const loyaltyModule = defineModule({
  name: 'loyalty',
  fixtures: loyaltyFixtures,
  uses: ['guests', 'bookings'],
  create: ({ db }, deps: LoyaltyDependencies) => createLoyaltyService(db, deps),
  routes: (loyalty) => loyaltyRoutes(loyalty),
  onHotelCreated: (loyalty, trx, hotelId) => loyalty.settings.onHotelCreated(trx, hotelId),
  activities: (loyalty): LoyaltyActivities & LoyaltyExpiryActivities => ({
    accrueStayPoints: (hotelId, bookingId) => loyalty.accrueStayPoints(hotelId, bookingId),
    expireLoyaltyPoints: () => loyalty.expirePoints(),
  }),
  schedules: [{ scheduleId: 'loyalty-expiry', workflowType: 'loyaltyExpiry', every: '1 day' }],
});
