import type { StayFollower } from '../bookings';
import { settingsRepository } from './tv.repository';
import { obstacle } from './tv.service';

/**
 * The TV system follows stays: a check-in or check-out is pushed to it when a push could go (the integration on, a
 * server, the desk of an `agent` connection, the room mapped); a hotel whose TV system only polls, or a room it does
 * not know, runs no push at all.
 */
export const tvStayFollower: StayFollower = {
  statuses: ['checked_in', 'checked_out'],
  async effectsOf(trx, booking) {
    const settings = await settingsRepository.find(trx, booking.hotel_id);
    if (!settings || obstacle(settings, booking.room_id, true)) return {};
    return { tv: booking.status === 'checked_in' ? 'check_in' : 'check_out' };
  },
};
