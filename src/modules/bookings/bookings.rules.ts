import type { Booking, BookingStatus } from './bookings.types';

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

/** How early a check-in may begin a stay: the morning of the arrival day, not days before (those dates are wrong). */
const EARLY_ARRIVAL_MS = 24 * 3_600_000;

/**
 * A guest in the room now: checked in and the stay not over. Begun at the planned hour, or at an early check-in up to a
 * day before it; a checked-out or not-yet-arrived stay never counts, nor one past its end the desk forgot to close.
 */
export function inHouse(stay: Pick<Booking, 'status' | 'start_at' | 'end_at' | 'checked_in_at'>, now: Date): boolean {
  if (stay.status !== 'checked_in') return false;
  const arrived = stay.checked_in_at?.getTime() ?? Infinity;
  const begun = Math.min(stay.start_at.getTime(), Math.max(arrived, stay.start_at.getTime() - EARLY_ARRIVAL_MS));
  return begun <= now.getTime() && now < stay.end_at;
}

export function canMoveBooking(from: BookingStatus, to: BookingStatus): boolean {
  return from === to || MOVES[from].includes(to);
}

/** Why a booking may not move from its status to `to`, or undefined when it may (final bookings never change). */
export function refusedMove(from: BookingStatus, to: BookingStatus): 'illegal' | 'final' | undefined {
  if (!canMoveBooking(from, to)) return 'illegal';
  if (from === 'checked_out' || from === 'cancelled') return 'final';
  return undefined;
}

/**
 * The fields a status move sets at `now`: when the guest came in, left (leaving early frees the room for sale from
 * now on) or was cancelled, and why (the reason given, else the one it had).
 */
export function movedFields(
  booking: Pick<Booking, 'start_at' | 'end_at' | 'cancel_reason'>,
  to: BookingStatus,
  now: Date,
  cancelReason: string | undefined,
): Partial<Booking> {
  if (to === 'checked_in') return { checked_in_at: now };
  if (to === 'checked_out') {
    const leftEarly = booking.end_at > now;
    return leftEarly
      ? { checked_out_at: now, end_at: now > booking.start_at ? now : booking.end_at }
      : { checked_out_at: now };
  }
  if (to === 'cancelled') return { cancelled_at: now, cancel_reason: cancelReason ?? booking.cancel_reason };
  return {};
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
