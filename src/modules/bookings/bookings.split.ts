import { ConflictError } from '../../platform/errors';
import { daysBetween } from '../../platform/http/schemas';
import { nightsFrom, type Inventory } from './bookings.inventory';
import { bookingMessages } from './bookings.present';
import { bodyError } from './bookings.stays';
import type { BookingInput } from './bookings.types';

/** A stretch of a split stay: a room from the night `from` to the day `to`. */
export interface SplitSegment {
  room_id: string;
  from: string;
  to: string;
}

/**
 * A split stay over `count` nights from `from` when no one room is free for all of them: the fewest moves (each step
 * takes the room free the longest from the night it starts, which no other choice of rooms can beat), rooms in the
 * order given on a tie. Undefined when a night has no free room, or when one room is free every night (no split).
 */
export function splitStay(
  rooms: readonly { room_id: string; free: readonly boolean[] }[],
  from: string,
  count: number,
): SplitSegment[] | undefined {
  const days = nightsFrom(from, count + 1);
  const runFrom = (free: readonly boolean[], night: number) => {
    let end = night;
    while (end < count && free[end]) end += 1;
    return end;
  };
  const segments: SplitSegment[] = [];
  for (let night = 0; night < count;) {
    let best: { room_id: string; end: number } | undefined;
    for (const room of rooms) {
      const end = runFrom(room.free, night);
      if (end > night && (!best || end > best.end)) best = { room_id: room.room_id, end };
    }
    if (!best) return undefined;
    segments.push({ room_id: best.room_id, from: days[night], to: days[best.end] });
    night = best.end;
  }
  return segments.length > 1 ? segments : undefined;
}

/**
 * The rooms of a split stay taken as the offers show it (`offered_split`, the widget's): the nights must run from the
 * check-in to the check-out (400), and the split the offers show for the category now (its open rooms large enough
 * for the party, the fewest moves, as `bookings.offers.ts` computes it) must cut the stay into those nights (409
 * `sold_out` otherwise); its rooms are the ones booked.
 */
export function createOfferedSplit(inventory: Inventory) {
  async function splitOffered(hotelId: string, input: BookingInput): Promise<SplitSegment[] | undefined> {
    const count = daysBetween(input.check_in!, input.check_out!);
    const snapshot = await inventory.snapshot(hotelId);
    const rooms = (await snapshot.nights(input.check_in!, count)).filter(
      (room) => room.category_id === input.category_id && !room.closed && room.max_guests >= (input.guests_count ?? 1),
    );
    return splitStay(rooms, input.check_in!, count);
  }

  return async function offeredRooms(hotelId: string, input: BookingInput): Promise<SplitSegment[]> {
    const asked = input.offered_split!;
    const contiguous =
      input.check_in !== undefined &&
      asked.every(
        (stretch, i) => stretch.from < stretch.to && stretch.from === (i ? asked[i - 1].to : input.check_in),
      ) &&
      asked.at(-1)!.to === input.check_out;
    if (!contiguous) throw bodyError('split', bookingMessages.splitNotContiguous);
    const offered = await splitOffered(hotelId, input);
    const same =
      offered?.length === asked.length &&
      offered.every((stretch, i) => stretch.from === asked[i].from && stretch.to === asked[i].to);
    if (!same) throw new ConflictError(bookingMessages.splitGone, 'sold_out');
    return offered;
  };
}
