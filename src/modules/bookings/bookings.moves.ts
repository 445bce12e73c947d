import type { Knex } from 'knex';
import { BusinessRuleError, NotFoundError } from '../../platform/errors';
import { assertVersion, type ExpectedVersion } from '../../platform/http/concurrency';
import { daysBetween } from '../../platform/http/schemas';
import { fitsMoneyColumn, formatMoney, parseMoney } from '../../platform/money';
import type { Hotel } from '../hotels';
import type { Room, RoomCategory } from '../rooms';
import { createRoomWrites } from './bookings.clashes';
import type { Actor } from './bookings.lifecycle';
import { hotelToday } from './bookings.offers';
import type { MoveDependencies } from './bookings.move-dependencies';
import { createPlannedMoves, replanned } from './bookings.planned-moves';
import { bookingMessages, presentBooking, presentSegments } from './bookings.present';
import type { Span } from './bookings.repository';
import type { Segment, SegmentInput } from './bookings.segments-repository';
import { assertKindAllowed, assertRoomUsable, bodyError } from './bookings.stays';
import { BLOCKING_STATUSES, type Booking, type BookingMoveInput } from './bookings.types';

/** The booking's nights from `from` to its end go to another room. */
interface MovePlan {
  booking: Booking;
  hotel: Hotel;
  room: Room;
  category: RoomCategory;
  from: string;
  /** The guest in house changes rooms now (tonight's move): the room the in-room services follow changes with it. */
  now: boolean;
  /** Where the old rooms' time ends and the new room's begins. */
  cut: { oldEnd: Date; newStart: Date };
  /** The hotel's date. */
  today: string;
}

const holdsRoom = (booking: Booking) => (BLOCKING_STATUSES as readonly string[]).includes(booking.status);

/** The segments after the move: those before the cut (the last cut there), then the new room to the stay's end. */
export function movedSegments(segments: Segment[], plan: Pick<MovePlan, 'booking' | 'room' | 'cut'>): SegmentInput[] {
  const { oldEnd, newStart } = plan.cut;
  const kept: SegmentInput[] = segments
    .filter((segment) => segment.start_at < oldEnd)
    .map((segment) => ({
      room_id: segment.room_id,
      start: segment.start_at,
      end: segment.end_at < oldEnd ? segment.end_at : oldEnd,
    }));
  const last = kept.at(-1);
  // Back to the room of the nights before: one segment again.
  if (last && last.room_id === plan.room.id) {
    last.end = plan.booking.end_at;
    return kept;
  }
  return [...kept, { room_id: plan.room.id, start: newStart, end: plan.booking.end_at }];
}

/** The room the guest is in on the night `from` (in house tonight: the booking's own room). */
function roomOnNight(segments: Segment[], plan: Pick<MovePlan, 'booking' | 'from' | 'now'>): string {
  if (plan.now) return plan.booking.room_id;
  return segments.findLast((segment) => segment.from <= plan.from)?.room_id ?? plan.booking.room_id;
}

/**
 * A booking's nights move to another room (docs/decisions/room-moves.md): its segments are rewritten under its lock
 * (the exclusion constraint on segments refuses a night held by another stay: a 409 naming it), its room becomes the
 * one the guest is in now (or, before arrival, the first segment's), and, for a guest in house moving tonight, the
 * vacated room gets its turnover and the workflow tells the TV system; staff see `booking:moved` and a notification.
 */
export function createMoves(dependencies: MoveDependencies) {
  const { repository, effects, turnover, stays, rooms, holds, plannedMoveDelayMs } = dependencies;
  const writes = createRoomWrites(repository);

  async function plan(trx: Knex.Transaction, booking: Booking, input: BookingMoveInput): Promise<MovePlan> {
    if (!holdsRoom(booking)) throw new BusinessRuleError(bookingMessages.moveClosed, [], 'booking_closed');
    if (booking.kind !== 'nightly' || !booking.check_in || !booking.check_out)
      throw new BusinessRuleError(bookingMessages.moveHourly, [], 'hourly_stay');
    const hotel = await stays.hotelOf(trx, booking.hotel_id);
    const today = hotelToday(hotel.timezone);
    const inHouse = booking.status === 'checked_in';
    const earliest = inHouse && today > booking.check_in ? today : booking.check_in;
    const from = input.from ?? earliest;
    if (from < earliest || from >= booking.check_out)
      throw bodyError('from', bookingMessages.moveOutsideStay(earliest, booking.check_out));
    const found = await rooms.findRoomWithCategory(booking.hotel_id, input.room_id, trx);
    if (!found?.category) throw bodyError('room_id', bookingMessages.roomNotFound);
    assertKindAllowed(found.category, 'nightly');
    const now = inHouse && from === earliest;
    return {
      booking,
      hotel,
      room: found.room,
      category: found.category,
      from,
      now,
      cut: await nightCut(trx, hotel, from),
      today,
    };
  }

  /**
   * The old rooms are held to the check-out time of the move's day, the new one from its check-in time, as two stays
   * would be (a guest moved tonight leaves the room free for tonight's sale, whatever the hour of the move). A hotel
   * whose check-in time is earlier than its check-out time switches at the check-out time: one stay's segments never
   * overlap.
   */
  async function nightCut(trx: Knex.Transaction, hotel: Hotel, from: string) {
    const day = await repository.bookings.nightlySpan(trx, hotel, from, from);
    return { oldEnd: day.end, newStart: day.start < day.end ? day.end : day.start };
  }

  /** The price of the nights before the move kept (their share of the price), the rest quoted in the new room. */
  async function repriced(trx: Knex.Transaction, { booking, hotel, room, category, from }: MovePlan) {
    const nights = daysBetween(booking.check_in!, booking.check_out!);
    const kept = (parseMoney(booking.price) * BigInt(daysBetween(booking.check_in!, from))) / BigInt(nights);
    const tariff = await stays.tariffOf(trx, booking.hotel_id, booking.tariff_id);
    const stay = { ...booking, check_in: from, early_checkin: false };
    const rest = await stays.quotedPrice(trx, stay, { hotel, room, category, tariff });
    const total = kept + parseMoney(rest);
    if (!fitsMoneyColumn(total)) throw new BusinessRuleError(bookingMessages.priceTooHigh, [], 'amount_limit');
    return formatMoney(total);
  }

  /** What the booking row becomes: its room (now, or the first segment's before arrival), and its price if asked. */
  async function movedFields(trx: Knex.Transaction, move: MovePlan, segments: SegmentInput[], reprice: boolean) {
    const { booking, room } = move;
    const inHouse = booking.status === 'checked_in';
    const roomId = inHouse ? (move.now ? room.id : booking.room_id) : segments[0].room_id;
    // The room is the booking's or the new one: a new room brings its category.
    const fields: Partial<Booking> =
      roomId === booking.room_id ? {} : { room_id: roomId, category_id: move.category.id };
    if (reprice) fields.price = await repriced(trx, move);
    return fields;
  }

  return {
    async move(hotelId: string, id: string, input: BookingMoveInput, actor: Actor, expected?: ExpectedVersion) {
      return writes.namingClashes(() =>
        repository.transaction(async (trx) => {
          const booking = await repository.bookings.find(trx, hotelId, id, { forUpdate: true });
          if (!booking) throw new NotFoundError(bookingMessages.notFound);
          assertVersion(expected, booking.updated_at);
          const move = await plan(trx, booking, input);
          const before = await repository.segments.of(trx, hotelId, [id]);
          if (roomOnNight(before, move) === move.room.id)
            throw new BusinessRuleError(bookingMessages.sameRoom, [], 'same_room');
          const tail: Span = { start: move.cut.newStart, end: booking.end_at };
          assertRoomUsable(move.room, tail, booking.guests_count);
          const segments = movedSegments(before, move);
          // The nights moved, as a stay of the new room's category would take them (the one blocks check).
          const taken = { categoryId: move.category.id, span: tail, blockId: booking.block_id ?? undefined };
          const guarded = await holds.enter(trx, { hotelId, ...taken });
          await writes.replaceSegments(trx, booking, segments, [{ room_id: move.room.id, ...tail }]);
          if (guarded) {
            const stay = { ...booking, category_id: move.category.id, start_at: tail.start, check_in: move.from };
            await holds.guard(trx, stay);
          }
          const updated = await repository.bookings.update(
            trx,
            hotelId,
            id,
            await movedFields(trx, move, segments, input.reprice ?? false),
          );
          const after = await repository.segments.of(trx, hotelId, [id]);
          const fromRoomId = roomOnNight(before, move);
          if (move.now) await turnover(trx, hotelId, fromRoomId, id);
          const planned = replanned(booking, updated, { before, after }, move.today, plannedMoveDelayMs);
          const moved = { from: move.from, fromRoomId, toRoomId: move.room.id, reason: input.reason, now: move.now };
          await effects.moved(trx, updated, { ...moved, planned }, after, actor.hotelSlug);
          return { ...presentBooking(updated), rooms: presentSegments(after) };
        }),
      );
    },

    /** A planned move whose time has come, carried out once (the booking's workflow calls it). */
    carryOut: createPlannedMoves(dependencies),
  };
}
