import { randomInt } from 'node:crypto';
import type { Db } from '../../platform/db/knex';
import { NotFoundError, RateLimitedError } from '../../platform/errors';
import { createGuessThrottle, type GuessBudget } from '../../platform/http/guess-throttle';
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
 * Wrong proofs allowed: 5 per room an hour whoever asks, which bounds a whole hotel at rooms × 5 guesses an hour
 * against a hundred million codes however many addresses guess; and 100 per caller address in 15 minutes across
 * rooms, generous because a hotel's guests share its Wi-Fi address. Right proofs are given back, so a guest polling
 * is never stopped by their own asking.
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
      return present(booking, await stayCodesRepository.replace(db, hotelId, bookingId, newCode()));
    },

    /** The stay the guest proved; one 403 for every way of not proving one, and 429 after too many wrong guesses. */
    async prove(hotelId: string, proof: StayProof, caller: GuestCaller): Promise<ProvenStay> {
      // The address first: one over its budget is refused before a counter is made for whatever room it names.
      const giveBack = await throttle.attempt([
        [GUESSES.address, `${hotelId}:${caller.address}`],
        [GUESSES.room, `${hotelId}:${roomKey(proof.room)}`],
      ]);
      const now = new Date();
      for (const bookingId of await stayCodesRepository.bookingsWithCode(db, hotelId, proof.code)) {
        const booking = await deps.bookings.get(hotelId, bookingId);
        if (!inHouse(booking, now)) continue;
        const room = await deps.rooms.findRoom(hotelId, booking.room_id);
        if (room && roomKey(room.number) === roomKey(proof.room)) {
          await giveBack();
          return { booking, room };
        }
      }
      throw notAuthorized();
    },
  };
}
