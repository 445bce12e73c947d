import type { PlannedMove } from '../../../workflows/contracts/bookings';
import { hotelToday } from './bookings.offers';
import { bookingMessages } from './bookings.present';
import type { Segment } from './bookings.segments-repository';
import type { Booking } from './bookings.types';
import type { MoveDependencies } from './bookings.moves';

/**
 * The stay's next planned room change: for a guest in house, the first segment from tonight on in another room than
 * theirs (a move planned for tonight not yet carried out included), else the first after the stay's first night; to
 * be carried out at its start (the hotel's check-in hour of that day in its time zone, where the segments put the new
 * room), or `delayMs` from now where the setting asks it (tests). Null: none planned.
 */
export function nextPlannedMove(
  segments: Segment[],
  booking: Booking,
  today: string,
  delayMs?: number,
): PlannedMove | null {
  const next = segments.find((segment) =>
    booking.status === 'checked_in'
      ? segment.from >= today && segment.room_id !== booking.room_id
      : segment.from > booking.check_in!,
  );
  if (!next) return null;
  const at = delayMs === undefined ? next.start_at.getTime() : Date.now() + delayMs;
  return { from: next.from, roomId: next.room_id, at };
}

/**
 * A planned move carried out by the booking's workflow at its time (docs/decisions/room-moves.md), as a move from
 * tonight would be: under the booking's lock, only for a guest in house, not yet in the plan's room, whose stay still
 * plans it (a move changed or undone meanwhile is not carried out; one carried out is not again): the booking's room
 * becomes the new one, the room left gets its turnover, and the consequences of a move tonight follow (staff's event
 * and notification offering a new card, the workflow told what the TV system must hear).
 */
export function createPlannedMoves(
  { repository, effects, turnover, stays, rooms }: Omit<MoveDependencies, 'holds'>,
  delayMs?: number,
) {
  return async function carryOut(hotelId: string, bookingId: string, plan: PlannedMove): Promise<PlannedMove | null> {
    return repository.transaction(async (trx) => {
      const booking = await repository.bookings.find(trx, hotelId, bookingId, { forUpdate: true });
      if (!booking || booking.kind !== 'nightly') return null;
      const segments = await repository.segments.of(trx, hotelId, [bookingId]);
      const hotel = await stays.hotelOf(trx, hotelId);
      // Only later nights come next: a plan is never waited for twice.
      const nextAfter = (stay: Booking) =>
        nextPlannedMove(
          segments.filter((segment) => segment.from > plan.from),
          stay,
          hotelToday(hotel.timezone),
          delayMs,
        );
      const next = nextAfter(booking);
      const planned = segments.some((segment) => segment.from === plan.from && segment.room_id === plan.roomId);
      if (booking.status !== 'checked_in' || !planned || booking.room_id === plan.roomId) return next;
      const found = await rooms.findRoomWithCategory(hotelId, plan.roomId, trx);
      if (!found?.category) return next;
      const updated = await repository.bookings.update(trx, hotelId, bookingId, {
        room_id: plan.roomId,
        category_id: found.category.id,
      });
      await turnover(trx, hotelId, booking.room_id, bookingId);
      const move = {
        from: plan.from,
        fromRoomId: booking.room_id,
        toRoomId: plan.roomId,
        reason: bookingMessages.plannedMoveReason,
        now: true,
      };
      // The next plan is this answer's (the workflow waits for it), not a signal's.
      await effects.moved(trx, updated, move, segments, hotel.slug);
      return nextAfter(updated);
    });
  };
}

/** The stay's next planned move after a change of its segments (a move): to tell when there was or is one. */
export function replanned(
  before: Booking,
  after: Booking,
  segments: { before: Segment[]; after: Segment[] },
  today: string,
  delayMs?: number,
) {
  const was = nextPlannedMove(segments.before, before, today, delayMs);
  const next = nextPlannedMove(segments.after, after, today, delayMs);
  return was || next ? { next } : undefined;
}
