import type { StayFollower } from '../bookings';
import { settingsRepository } from './loyalty.repository';

/** Loyalty follows stays: a check-out in a hotel that runs a programme credits the stay's points after it. */
export const loyaltyStayFollower: StayFollower = {
  statuses: ['checked_out'],
  async effectsOf(trx, booking) {
    const programme = await settingsRepository.find(trx, booking.hotel_id);
    return programme?.enabled ? { loyalty: true } : {};
  },
};
