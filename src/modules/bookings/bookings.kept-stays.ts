import type { Knex } from 'knex';
import { ConflictError } from '../../platform/errors';
import { exclusionViolation } from './bookings.clashes';
import type { MoveDependencies } from './bookings.move-dependencies';
import type { Segment, SegmentInput } from './bookings.segments-repository';
import type { OwnRoom } from './bookings.staff-notices';
import type { Booking } from './bookings.types';

/** The stay's segments with the planned one given back to the guest's room, joined to its neighbours there. */
export function keptSegments(segments: Segment[], planned: Segment, roomId: string): SegmentInput[] {
  const kept: SegmentInput[] = [];
  for (const segment of segments) {
    const room_id = segment.from === planned.from ? roomId : segment.room_id;
    const last = kept.at(-1);
    if (last?.room_id === room_id) last.end = segment.end_at;
    else kept.push({ room_id, start: segment.start_at, end: segment.end_at });
  }
  return kept;
}

/**
 * A planned move not carried out because its room cannot take the guest (docs/decisions/room-moves.md): the guest
 * stays in their room, so its nights go back to it, in a savepoint of the activity's transaction. The segments'
 * exclusion constraint decides whether the room is still free (sold meanwhile: the savepoint is rolled back and the
 * stay left as it was, the other booking named), and, when the room is of another category than the planned one, the
 * group blocks' holds as a move into it. The planned room's nights are freed by the same write.
 */
export function createStayKeeping({
  repository,
  holds,
  rooms,
}: Pick<MoveDependencies, 'repository' | 'holds' | 'rooms'>) {
  /** Why the room could not be kept: the stay holding it, or the hold refusing it. */
  async function takenBy(trx: Knex.Transaction, booking: Booking, span: SegmentInput, error: unknown) {
    if (error instanceof ConflictError) return error.message;
    if (!exclusionViolation(error)) throw error;
    const [clash] = await repository.bookings.clashes(trx, booking.hotel_id, [span.room_id], span, booking.id);
    return clash
      ? `бронирование ${clash.guest_last_name} ${clash.guest_first_name}, ${clash.check_in} — ${clash.check_out}`
      : 'другое бронирование';
  }

  return async function keep(
    trx: Knex.Transaction,
    booking: Booking,
    segments: Segment[],
    planned: Segment & { categoryId: string },
  ): Promise<OwnRoom | undefined> {
    const own = await rooms.findRoomWithCategory(booking.hotel_id, booking.room_id, trx);
    if (!own) return undefined;
    const written = keptSegments(segments, planned, booking.room_id);
    const span = written.find((segment) => segment.room_id === booking.room_id && segment.end >= planned.end_at)!;
    try {
      await trx.transaction(async (savepoint) => {
        // The nights kept, as a stay of the room's category would take them, when the plan took another's.
        const held = { categoryId: booking.category_id, span: { start: planned.start_at, end: planned.end_at } };
        const guarded =
          planned.categoryId !== booking.category_id &&
          (await holds.enter(savepoint, {
            hotelId: booking.hotel_id,
            ...held,
            blockId: booking.block_id ?? undefined,
          }));
        await repository.segments.replace(savepoint, booking.hotel_id, booking.id, written);
        if (guarded) await holds.guard(savepoint, { ...booking, start_at: planned.start_at, check_in: planned.from });
        // A new version, as a move's: the stay's rooms changed.
        await repository.bookings.update(savepoint, booking.hotel_id, booking.id, {});
      });
    } catch (error) {
      return { room: own.room, kept: false, taken: await takenBy(trx, booking, span, error) };
    }
    return { room: own.room, kept: true, rooms: await repository.segments.of(trx, booking.hotel_id, [booking.id]) };
  };
}
