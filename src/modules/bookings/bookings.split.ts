import type { Knex } from 'knex';
import { ConflictError } from '../../platform/errors';
import { daysBetween } from '../../platform/http/schemas';
import { inNumberOrder, nightsFrom, roomsFitting, sellableRooms } from './bookings.inventory';
import { bookingMessages } from './bookings.present';
import type { BookingsRepository } from './bookings.repository';
import { bodyError, type createStays } from './bookings.stays';
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
 * The rooms of a split stay taken as the offers show it (`offered_split`, the widget's): the category must be the
 * hotel's (400 as any booking's), the nights must run from the check-in to the check-out (400), and the split the
 * offers show for the category now (its open rooms large enough for the party, the fewest moves, as
 * `bookings.offers.ts` computes it) must cut the stay into those nights (409 `sold_out` otherwise); its rooms are the
 * ones booked. Read in the booking's transaction: no second connection is taken while it holds one.
 */
export function createOfferedSplit({
  repository: { bookings },
  stays,
}: {
  repository: Pick<BookingsRepository, 'bookings'>;
  stays: Pick<ReturnType<typeof createStays>, 'categoryOf'>;
}) {
  async function splitOffered(trx: Knex.Transaction, hotelId: string, input: BookingInput) {
    const count = daysBetween(input.check_in!, input.check_out!);
    const nights = nightsFrom(input.check_in!, count);
    const [rooms, rows] = await Promise.all([
      bookings.inventoryRooms(trx, hotelId),
      bookings.freeNights(trx, hotelId, { from: nights[0], last: nights.at(-1)! }),
    ]);
    const freeByRoom = new Map(rows.map((row) => [row.room_id, row.free]));
    const fitting = roomsFitting(sellableRooms(inNumberOrder(rooms), input.category_id!), input.guests_count ?? 1);
    // A room without nights read is shown taken, as the inventory shows it.
    const withNights = fitting.map((room) => {
      const free = freeByRoom.get(room.room_id) ?? '';
      return { ...room, free: nights.map((_, night) => free[night] === '1') };
    });
    return splitStay(withNights, input.check_in!, count);
  }

  return async function offeredRooms(
    trx: Knex.Transaction,
    hotelId: string,
    input: BookingInput,
  ): Promise<SplitSegment[]> {
    const asked = input.offered_split!;
    const contiguous =
      input.check_in !== undefined &&
      asked.every(
        (stretch, i) => stretch.from < stretch.to && stretch.from === (i ? asked[i - 1].to : input.check_in),
      ) &&
      asked.at(-1)!.to === input.check_out;
    if (!contiguous) throw bodyError('split', bookingMessages.splitNotContiguous);
    await stays.categoryOf(trx, hotelId, input.category_id!);
    const offered = await splitOffered(trx, hotelId, input);
    const same =
      offered?.length === asked.length &&
      offered.every((stretch, i) => stretch.from === asked[i].from && stretch.to === asked[i].to);
    if (!same) throw new ConflictError(bookingMessages.splitGone, 'sold_out');
    return offered;
  };
}
