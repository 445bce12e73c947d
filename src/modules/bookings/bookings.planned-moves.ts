import type { Knex } from 'knex';
import type { PlannedMove } from '../../../workflows/contracts/bookings';
import type { BookingEffects } from './bookings.effects';
import { hotelToday } from './bookings.offers';
import { bookingMessages } from './bookings.present';
import type { Segment } from './bookings.segments-repository';
import type { Booking } from './bookings.types';
import type { MoveDependencies } from './bookings.move-dependencies';
import type { BookingsRepository } from './bookings.repository';
import { createStayKeeping, unusable } from './bookings.kept-stays';
import type { createStays } from './bookings.stays';

/**
 * The stay's next planned room change: for a guest in house, the first segment holding tonight or a later night in
 * another room than theirs (a move planned for tonight, or begun before the guest was in, not yet carried out
 * included: due at once), else the first after the stay's first night; to
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
      ? segment.to > today && segment.room_id !== booking.room_id
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
 * and notification offering a new card, the workflow told what the TV system must hear). A plan whose nights are
 * over (a worker down meanwhile) or whose room can no longer take the guest (closed, under maintenance) is not
 * carried out: the desk is told. In the second case the guest stays in their room, whose nights are theirs again
 * when it is still free and can take them, the plan begun today or later (the planned room's freed); a second attempt
 * finds the plan undone and does nothing.
 */
export function createPlannedMoves(dependencies: MoveDependencies) {
  const { repository, effects, turnover, stays, rooms, plannedMoveDelayMs } = dependencies;
  const keep = createStayKeeping(dependencies);
  return async function carryOut(hotelId: string, bookingId: string, plan: PlannedMove): Promise<PlannedMove | null> {
    return repository.transaction(async (trx) => {
      const booking = await repository.bookings.find(trx, hotelId, bookingId, { forUpdate: true });
      if (!booking || booking.kind !== 'nightly') return null;
      const segments = await repository.segments.of(trx, hotelId, [bookingId]);
      const hotel = await stays.hotelOf(trx, hotelId);
      const today = hotelToday(hotel.timezone);
      // Only later nights come next: a plan is never waited for twice.
      const nextAfter = (stay: Booking) =>
        nextPlannedMove(
          segments.filter((segment) => segment.from > plan.from),
          stay,
          today,
          plannedMoveDelayMs,
        );
      const next = nextAfter(booking);
      const planned = segments.find((segment) => segment.from === plan.from && segment.room_id === plan.roomId);
      if (booking.status !== 'checked_in' || !planned || booking.room_id === plan.roomId) return next;
      const found = await rooms.findRoomWithCategory(hotelId, plan.roomId, trx);
      if (!found?.category) return next;
      const skipped = { roomId: plan.roomId, from: plan.from };
      if (planned.end_at <= new Date()) {
        await effects.moveSkipped(trx, booking, { ...skipped, why: bookingMessages.plannedMoveOver });
        return next;
      }
      const why = unusable(found.room, planned, booking.guests_count);
      if (why) {
        // The guest stays in their room: its nights held for them again if it is still free, unless the plan began
        // before the hotel's today (a night audit may have posted its first night, the room sold and left since).
        const own =
          planned.from >= today
            ? await keep(trx, booking, segments, { ...planned, categoryId: found.category.id })
            : undefined;
        await effects.moveSkipped(trx, booking, { ...skipped, why, own });
        return next;
      }
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

/**
 * The stay's next planned move told to its workflow where a commit made or found a split stay the workflow was not
 * told of: the creation of a split stay and the check-in (a plan passed before the guest was in house was dropped;
 * tonight's segment in another room is due at once). Nothing for a stay in one room.
 */
export function createMovePlans({
  repository,
  effects,
  stays,
  plannedMoveDelayMs,
}: {
  repository: Pick<BookingsRepository, 'segments'>;
  effects: Pick<BookingEffects, 'planMove'>;
  stays: Pick<ReturnType<typeof createStays>, 'hotelOf'>;
  plannedMoveDelayMs?: number;
}) {
  return async function tellPlan(trx: Knex.Transaction, booking: Booking, hotelSlug: string): Promise<void> {
    if (booking.kind !== 'nightly') return;
    const segments = await repository.segments.of(trx, booking.hotel_id, [booking.id]);
    if (segments.length < 2) return;
    const hotel = await stays.hotelOf(trx, booking.hotel_id);
    const next = nextPlannedMove(segments, booking, hotelToday(hotel.timezone), plannedMoveDelayMs);
    if (next) await effects.planMove(trx, booking, next, hotelSlug);
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
