import type { StayFollower } from '../bookings';
import { settingsRepository } from './tv.repository';

/**
 * The TV system follows stays: a check-in or check-out in a hotel whose integration is on is pushed to it (the push
 * logs why when the room is not mapped or the server is missing); a hotel without it runs no push at all.
 */
export const tvStayFollower: StayFollower = {
  statuses: ['checked_in', 'checked_out'],
  async effectsOf(trx, booking) {
    const settings = await settingsRepository.find(trx, booking.hotel_id);
    if (!settings?.enabled) return {};
    return { tv: booking.status === 'checked_in' ? 'check_in' : 'check_out' };
  },
};
