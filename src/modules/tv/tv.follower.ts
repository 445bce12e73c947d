import type { StayFollower } from '../bookings';
import { settingsRepository } from './tv.repository';
import { obstacle } from './tv.service';

/**
 * The TV system follows stays: a check-in or check-out is pushed to it when a push could go (the integration on, a
 * server, the desk of an `agent` connection, the room mapped); a hotel whose TV system only polls, or a room it does
 * not know, runs no push at all. A guest moved tonight is checked out of the room left and into the new one.
 */
export const tvStayFollower: StayFollower = {
  statuses: ['checked_in', 'checked_out'],
  async effectsOf(trx, booking) {
    const settings = await settingsRepository.find(trx, booking.hotel_id);
    if (!settings || obstacle(settings, booking.room_id, true)) return {};
    return { tv: booking.status === 'checked_in' ? 'check_in' : 'check_out' };
  },
  /** A guest moved tonight: the check-out of the room left and the check-in of the new one, each if it is mapped. */
  async moveEffectsOf(trx, booking, fromRoomId) {
    const settings = await settingsRepository.find(trx, booking.hotel_id);
    if (!settings) return {};
    const pushable = (roomId: string) => (obstacle(settings, roomId, true) ? undefined : roomId);
    const rooms = { checkOutRoomId: pushable(fromRoomId), checkInRoomId: pushable(booking.room_id) };
    return rooms.checkOutRoomId || rooms.checkInRoomId ? { tv: rooms } : {};
  },
};
