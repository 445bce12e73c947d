import { daysBetween } from '../../platform/http/schemas';
import { nightsFrom, type Inventory } from './bookings.inventory';

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

/** A stay of a category for a party, as the widget's offers read it. */
export interface SplitAsked {
  category_id: string;
  check_in: string;
  check_out: string;
  guests: number;
}

/**
 * The split stay the offers show for a category now (`bookings.offers.ts`: its open rooms large enough for the party,
 * the fewest moves), with its rooms: what the widget books when a guest takes the split stay offered.
 */
export function createSplitOffer(inventory: Inventory) {
  return async function splitOffered(hotelId: string, stay: SplitAsked): Promise<SplitSegment[] | undefined> {
    const count = daysBetween(stay.check_in, stay.check_out);
    const snapshot = await inventory.snapshot(hotelId);
    const rooms = (await snapshot.nights(stay.check_in, count)).filter(
      (room) => room.category_id === stay.category_id && !room.closed && room.max_guests >= stay.guests,
    );
    return splitStay(rooms, stay.check_in, count);
  };
}
