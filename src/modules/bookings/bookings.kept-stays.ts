import type { Knex } from 'knex';
import { BusinessRuleError, ConflictError } from '../../platform/errors';
import type { Room } from '../rooms';
import { exclusionViolation } from './bookings.clashes';
import type { HeldStay } from './bookings.holds';
import type { MoveDependencies } from './bookings.move-dependencies';
import type { Span } from './bookings.repository';
import type { Segment, SegmentInput } from './bookings.segments-repository';
import type { OwnRoom } from './bookings.staff-notices';
import { assertRoomUsable } from './bookings.stays';
import type { Booking } from './bookings.types';

/** Why a room cannot take the guest for the rest of a segment's nights (from now), if it cannot. */
export function unusable(room: Room, segment: Pick<Segment, 'start_at' | 'end_at'>, guests: number) {
  const now = new Date();
  try {
    assertRoomUsable(room, { start: now > segment.start_at ? now : segment.start_at, end: segment.end_at }, guests);
  } catch (error) {
    if (error instanceof BusinessRuleError) return error.message;
    throw error;
  }
  return undefined;
}

const samePlace = (segment: Segment, planned: Pick<Segment, 'start_at'>) =>
  segment.start_at.getTime() === planned.start_at.getTime();

/** The stay's segments with the planned one given back to the guest's room, joined to its neighbours there. */
export function keptSegments(segments: Segment[], planned: Segment, roomId: string): SegmentInput[] {
  const kept: SegmentInput[] = [];
  for (const segment of segments) {
    const room_id = samePlace(segment, planned) ? roomId : segment.room_id;
    const last = kept.at(-1);
    if (last?.room_id === room_id) last.end = segment.end_at;
    else kept.push({ room_id, start: segment.start_at, end: segment.end_at });
  }
  return kept;
}

/**
 * The time the keep gives the guest's room that the stay did not hold there: from the end of its segment in that room
 * just before the planned one (the day's gap between check-out and check-in hours), else from the planned start.
 */
function claimedSpan(segments: Segment[], planned: Segment, roomId: string): Span {
  const before = segments[segments.findIndex((segment) => samePlace(segment, planned)) - 1];
  return { start: before?.room_id === roomId ? before.end_at : planned.start_at, end: planned.end_at };
}

/** Another stay held the guest's room in the time the keep gives it that is already past: the keep rolled back. */
class UsedMeanwhile extends Error {
  constructor(readonly by: Booking) {
    super('room used meanwhile');
  }
}

/** The block refused a stay of it (cancelled, or back to an inquiry): the stay is then any stay (`guard` agrees). */
const blockNotHolding = (error: unknown) => error instanceof ConflictError && error.code === 'block_not_holding';

/**
 * A planned move not carried out because its room cannot take the guest (docs/decisions/room-moves.md): the guest
 * stays in their room, so its nights go back to it, in a savepoint of the activity's transaction, when that room can
 * take them on those nights (not closed nor under maintenance) and no other stay has used the time already past that
 * the keep gives it (a stay checked out since: the exclusion constraint ignores it). The segments' exclusion
 * constraint decides whether the room is still free (sold meanwhile: the savepoint is rolled back and the stay left as
 * it was, the other booking named), and, when the room is of another category than the planned one, the group
 * blocks' holds as a move into it on the planned segment's nights. The planned room's nights are freed by the same
 * write. Called only for a plan whose first night is not before the hotel's today (no night audit has posted it).
 */
export function createStayKeeping({
  repository,
  holds,
  rooms,
}: Pick<MoveDependencies, 'repository' | 'holds' | 'rooms'>) {
  /** The units blocks hold entered as for a stay of the booking's block, or of none once the block no longer holds. */
  async function enter(savepoint: Knex.Transaction, stay: HeldStay) {
    try {
      return await holds.enter(savepoint, stay);
    } catch (error) {
      if (!stay.blockId || !blockNotHolding(error)) throw error;
      return holds.enter(savepoint, { ...stay, blockId: undefined });
    }
  }

  /**
   * Why the room could not be kept: the stay holding it (the exclusion constraint) or having held it in the past time,
   * or the holds' refusal.
   */
  async function refusalOf(trx: Knex.Transaction, booking: Booking, claimed: Span, error: unknown) {
    if (error instanceof UsedMeanwhile) return { outcome: 'taken' as const, by: error.by };
    if (error instanceof ConflictError) return { outcome: 'refused' as const, reason: error.message };
    if (!exclusionViolation(error)) throw error;
    const [by] = await repository.bookings.clashes(trx, booking.hotel_id, [booking.room_id], claimed, booking.id);
    return { outcome: 'taken' as const, by };
  }

  /**
   * Another stay that held the guest's room in the claimed time already past, checked out since included (read after
   * the write: a check-out committing meanwhile, which the exclusion constraint waited for, is seen).
   */
  async function assertUnused(savepoint: Knex.Transaction, booking: Booking, claimed: Span) {
    const now = new Date();
    if (now <= claimed.start) return;
    const past = { start: claimed.start, end: now < claimed.end ? now : claimed.end };
    const [by] = await repository.bookings.clashes(
      savepoint,
      booking.hotel_id,
      [booking.room_id],
      past,
      booking.id,
      true,
    );
    if (by) throw new UsedMeanwhile(by);
  }

  return async function keep(
    trx: Knex.Transaction,
    booking: Booking,
    segments: Segment[],
    planned: Segment & { categoryId: string },
  ): Promise<OwnRoom> {
    const own = (await rooms.findRoomWithCategory(booking.hotel_id, booking.room_id, trx))!;
    const reason = unusable(own.room, planned, booking.guests_count);
    if (reason) return { room: own.room, outcome: 'unusable', reason };
    const claimed = claimedSpan(segments, planned, booking.room_id);
    const categoryId = own.category?.id;
    const nights = {
      start_at: planned.start_at,
      end_at: planned.end_at,
      check_in: planned.from,
      check_out: planned.to,
    };
    try {
      await trx.transaction(async (savepoint) => {
        // The plan's nights, as a stay of the room's category would take them, when the plan took another's.
        const guarded =
          categoryId !== undefined &&
          planned.categoryId !== categoryId &&
          (await enter(savepoint, {
            hotelId: booking.hotel_id,
            categoryId,
            span: { start: planned.start_at, end: planned.end_at },
            blockId: booking.block_id ?? undefined,
          }));
        await repository.segments.replace(
          savepoint,
          booking.hotel_id,
          booking.id,
          keptSegments(segments, planned, booking.room_id),
        );
        await assertUnused(savepoint, booking, claimed);
        if (guarded) await holds.guard(savepoint, { ...booking, category_id: categoryId, ...nights });
        // A new version, as a move's: the stay's rooms changed.
        await repository.bookings.update(savepoint, booking.hotel_id, booking.id, {});
      });
    } catch (error) {
      return { room: own.room, ...(await refusalOf(trx, booking, claimed, error)) };
    }
    return {
      room: own.room,
      outcome: 'kept',
      rooms: await repository.segments.of(trx, booking.hotel_id, [booking.id]),
    };
  };
}
