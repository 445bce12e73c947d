import { randomInt } from 'node:crypto';
import type { Db } from '../../platform/db/knex';
import { NotFoundError, RateLimitedError } from '../../platform/errors';
import { createGuessThrottle, roomGuessKey, type GuessBudget } from '../../platform/http/guess-throttle';
import type { SharedRateLimiter } from '../../platform/http/rate-limit';
import { inHouse, type Booking, type BookingsService } from '../bookings';
import type { Room, RoomsService } from '../rooms';
import { notAuthorized, refused, roomServiceMessages as messages } from './roomservice.messages';
import { stayCodesRepository } from './roomservice.repository';
import { roomKey } from './roomservice.rules';
import type { StayProof } from './roomservice.types';

export interface StayDependencies {
  bookings: Pick<BookingsService, 'get'>;
  rooms: Pick<RoomsService, 'findRoom'>;
}

/** The stay a guest proved: checked in and in house now, in the room they named. */
export interface ProvenStay {
  booking: Pick<Booking, 'id' | 'room_id'>;
  room: Room;
}

/** Who is asking, for the wrong-guess budgets. */
export interface GuestCaller {
  address: string;
}

/**
 * Wrong proofs allowed: 5 an hour per real room whoever asks, and 5 an hour shared by every room name the hotel does
 * not have (a guess there can never be right, and inventing names buys no fresh budget). That bounds a whole hotel at
 * (rooms + 1) × 5 wrong guesses an hour against a hundred million codes however many addresses guess. And 100 per
 * caller address in 15 minutes across rooms, generous because a hotel's guests share its Wi-Fi address. Right proofs
 * are given back, so a guest polling is never stopped by their own asking.
 */
const GUESSES = {
  room: { scope: 'room_service.room', quota: 5, windowSeconds: 3600 },
  address: { scope: 'room_service.address', quota: 100, windowSeconds: 900 },
} satisfies Record<string, GuessBudget>;

const newCode = () => String(randomInt(0, 100_000_000)).padStart(8, '0');

/** The stays' codes staff hand to guests, and the check of what a guest types against them. */
export function createStays(db: Db, limiter: SharedRateLimiter, deps: StayDependencies) {
  const throttle = createGuessThrottle(limiter, (retryAfter) => new RateLimitedError(retryAfter));

  /** A stay code is issued only for a stay still to come or under way. */
  async function openStay(hotelId: string, bookingId: string) {
    const booking = await deps.bookings.get(hotelId, bookingId).catch((error: unknown) => {
      throw error instanceof NotFoundError ? new NotFoundError(messages.stayNotFound) : error;
    });
    if (booking.status === 'cancelled' || booking.status === 'checked_out')
      throw refused('stay_closed', messages.stayClosed);
    return booking;
  }

  const present = (booking: Pick<Booking, 'room_id'>, row: { booking_id: string; code: string; created_at: Date }) => ({
    booking_id: row.booking_id,
    room_id: booking.room_id,
    code: row.code,
    created_at: row.created_at,
  });

  return {
    /** The stay's code, made on the first ask (staff print it on the key-card sleeve). */
    async code(hotelId: string, bookingId: string) {
      const booking = await openStay(hotelId, bookingId);
      return present(booking, await stayCodesRepository.ensure(db, hotelId, bookingId, newCode()));
    },

    /** A new code for the stay (the old one stops working at once), e.g. when a guest's sleeve is lost. */
    async newCode(hotelId: string, bookingId: string) {
      const booking = await openStay(hotelId, bookingId);
      const before = (await stayCodesRepository.find(db, hotelId, bookingId))?.code;
      // Never the code it replaces (one chance in a hundred million): a lost sleeve's code must stop working.
      let code = newCode();
      while (code === before) code = newCode();
      return present(booking, await stayCodesRepository.replace(db, hotelId, bookingId, code));
    },

    /** The stay the guest proved; one 403 for every way of not proving one, and 429 after too many wrong guesses. */
    async prove(hotelId: string, proof: StayProof, caller: GuestCaller): Promise<ProvenStay> {
      // Every refusal takes this one path: one query, both budgets counted, then the one 403.
      const found = await stayCodesRepository.proof(db, hotelId, roomKey(proof.room), proof.code);
      // The address first: one over its budget is refused before the room's counter is touched.
      const giveBack = await throttle.attempt([
        [GUESSES.address, `${hotelId}:${caller.address}`],
        [GUESSES.room, roomGuessKey(hotelId, found.room_id)],
      ]);
      // The stay's own hours are judged on what the one query read: no refusal reads more.
      if (found.booking_id === null || !inHouse(found, new Date())) throw notAuthorized();
      const room = await deps.rooms.findRoom(hotelId, found.room_id);
      if (!room) throw notAuthorized();
      await giveBack();
      return { booking: { id: found.booking_id, room_id: found.room_id }, room };
    },
  };
}
