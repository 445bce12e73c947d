import type { LoyaltyActivities } from '../../../workflows/contracts/loyalty';
import type { LoyaltyExpiryActivities } from '../../../workflows/contracts/loyalty-expiry';
import type { LoyaltyService } from './loyalty.service';

/** The booking workflow's accrual after a stay, and the daily expiry of points: thin calls into the service. */
export function loyaltyActivities(loyalty: LoyaltyService): LoyaltyActivities & LoyaltyExpiryActivities {
  return {
    accrueStayPoints: (hotelId, bookingId) => loyalty.accrueStayPoints(hotelId, bookingId),
    expireLoyaltyPoints: () => loyalty.expirePoints(),
  };
}
