import type { BookingStatus } from './bookings.types';

/**
 * Booking status moves: an inquiry is confirmed or dropped; a confirmed stay checks in or is cancelled (also a
 * no-show); a stay in the house checks out. checked_out and cancelled are final.
 */
const MOVES: Record<BookingStatus, readonly BookingStatus[]> = {
  inquiry: ['confirmed', 'cancelled'],
  confirmed: ['checked_in', 'cancelled'],
  checked_in: ['checked_out'],
  checked_out: [],
  cancelled: [],
};

export function canMoveBooking(from: BookingStatus, to: BookingStatus): boolean {
  return from === to || MOVES[from].includes(to);
}

export function allowedMoves(from: BookingStatus): readonly BookingStatus[] {
  return MOVES[from];
}

export interface RoomCandidate {
  id: string;
  category_id: string;
  number: string;
  floor: string | null;
  /** Booked nights of this room around the requested stay (±30 days). */
  nearbyLoad: number;
  /** A booking of this room ends exactly when the new one starts, or starts when it ends. */
  touches: boolean;
}

function naturalOrder(a: RoomCandidate, b: RoomCandidate): number {
  return a.number.localeCompare(b.number, 'ru', { numeric: true });
}

/**
 * The hotel's room assignment strategy, among rooms free for the whole stay:
 * `sequential` the lowest room number; `spread` the least booked room around those dates (wear spread evenly);
 * `together` a room whose neighbouring booking the stay continues (no gaps), else the busiest room.
 */
export function orderCandidates<Candidate extends RoomCandidate>(
  strategy: 'spread' | 'together' | 'sequential',
  rooms: Candidate[],
): Candidate[] {
  const byNumber = [...rooms].sort(naturalOrder);
  if (strategy === 'sequential') return byNumber;
  if (strategy === 'spread') return byNumber.sort((a, b) => a.nearbyLoad - b.nearbyLoad);
  return byNumber.sort((a, b) => Number(b.touches) - Number(a.touches) || b.nearbyLoad - a.nearbyLoad);
}
