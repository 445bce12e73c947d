import type { Knex } from 'knex';
import { BusinessRuleError } from '../../platform/errors';
import { fitsMoneyColumn, formatMoney, parseMoney } from '../../platform/money';
import type { Hotel } from '../hotels';
import type { Room, RoomCategory, RoomsService } from '../rooms';
import type { Tariff } from '../pricing';
import { createRoomWrites, type PrimaryGuest } from './bookings.clashes';
import { bookingMessages } from './bookings.present';
import type { BookingsRepository } from './bookings.repository';
import type { SegmentInput } from './bookings.segments-repository';
import type { SplitSegment } from './bookings.split';
import { assertKindAllowed, assertRoomUsable, bodyError, type createStays } from './bookings.stays';
import type { Booking, BookingInput } from './bookings.types';

/** A split stay's segments, each room checked on its own nights, with its category and span. */
export interface SplitPlan {
  segments: (SegmentInput & SplitSegment & { room: Room; category: RoomCategory })[];
}

interface SplitDependencies {
  repository: Pick<BookingsRepository, 'db' | 'bookings' | 'segments'>;
  stays: Pick<ReturnType<typeof createStays>, 'quotedPrice'>;
  rooms: Pick<RoomsService, 'findRoomWithCategory'>;
}

/** The segments follow each other from the check-in to the check-out, each in another room than the one before. */
function assertContiguous(input: BookingInput, segments: SplitSegment[]): void {
  const joined = segments.every(
    (segment, i) =>
      segment.from < segment.to &&
      (i === 0 ? segment.from === input.check_in : segment.from === segments[i - 1].to) &&
      (i === 0 || segment.room_id !== segments[i - 1].room_id),
  );
  if (!joined || segments.at(-1)!.to !== input.check_out) throw bodyError('rooms', bookingMessages.splitNotContiguous);
}

/**
 * A new booking over several rooms (`rooms`, as the availability's `split` offers it): written in its first room for
 * the first segment's nights (the trigger of migration 94 gives it that segment), then its segments replaced by all
 * of them and its stay stretched to the check-out, in one transaction; the exclusion constraint refuses a night held.
 */
export function createSplitStays({ repository, stays, rooms }: SplitDependencies) {
  const writes = createRoomWrites(repository);

  async function plan(trx: Knex.Transaction, hotel: Hotel, input: BookingInput): Promise<SplitPlan> {
    const asked = input.rooms!;
    assertContiguous(input, asked);
    const segments: SplitPlan['segments'] = [];
    for (const segment of asked) {
      const match = await rooms.findRoomWithCategory(hotel.id, segment.room_id, trx);
      if (!match?.category) throw bodyError('rooms', bookingMessages.roomNotFound);
      const span = await repository.bookings.nightlySpan(trx, hotel, segment.from, segment.to);
      assertRoomUsable(match.room, span, input.guests_count ?? 1);
      assertKindAllowed(match.category, 'nightly');
      segments.push({ ...segment, start: span.start, end: span.end, room: match.room, category: match.category });
    }
    return { segments };
  }

  /** The price of each segment's nights in its room, summed (arrival fees on the first, departure on the last). */
  async function price(trx: Knex.Transaction, input: BookingInput, split: SplitPlan, rows: PriceRows) {
    let total = 0n;
    for (const [i, { from, to, room, category }] of split.segments.entries()) {
      const nights = {
        ...input,
        check_in: from,
        check_out: to,
        early_checkin: i === 0 && (input.early_checkin ?? false),
        late_checkout: i === split.segments.length - 1 && (input.late_checkout ?? false),
      };
      total += parseMoney(await stays.quotedPrice(trx, nights, { ...rows, room, category }));
    }
    if (!fitsMoneyColumn(total)) throw new BusinessRuleError(bookingMessages.priceTooHigh, [], 'amount_limit');
    return formatMoney(total);
  }

  async function place(
    trx: Knex.Transaction,
    row: Partial<Booking> & { hotel_id: string },
    split: SplitPlan,
    guest: PrimaryGuest,
  ) {
    const [first] = split.segments;
    const firstNights = { ...row, room_id: first.room_id, check_out: first.to, end_at: first.end };
    const created = await writes.insertInto(trx, row.hotel_id, firstNights, first, guest);
    const written = split.segments.map(({ room_id, start, end }) => ({ room_id, start, end }));
    await writes.replaceSegments(trx, created, written, written);
    return repository.bookings.update(trx, row.hotel_id, created.id, { check_out: row.check_out, end_at: row.end_at });
  }

  return { plan, price, place };
}

/** The rows every segment's quote shares. */
interface PriceRows {
  hotel: Hotel;
  tariff?: Tariff;
}
