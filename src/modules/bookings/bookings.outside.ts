import type { Knex } from 'knex';
import {
  GUEST_EMAIL_FOR,
  type BookingLifecycleStatus,
  type BookingMoveEffects,
  type BookingOutsideEffects,
  type BookingStatusChange,
} from '../../../workflows/contracts/bookings';
import type { Booking } from './bookings.types';

/**
 * Another module that acts on stays outside the service (the TV system, loyalty points, review invitations): at the
 * commit of a status it names, it says in that transaction what of its own the booking's workflow must send, from
 * the hotel's settings as they are at that commit. Its activity still checks again before sending.
 */
export interface StayFollower {
  statuses: readonly BookingLifecycleStatus[];
  /** `reason`: why the status moved (`manual` for staff), absent for a booking made with it. */
  effectsOf(
    trx: Knex.Transaction,
    booking: Booking,
    reason?: BookingStatusChange['reason'],
  ): Promise<BookingOutsideEffects>;
  /** What a guest's move tonight from `fromRoomId` to the booking's room must send (the booking as moved). */
  moveEffectsOf?(trx: Knex.Transaction, booking: Booking, fromRoomId: string): Promise<BookingMoveEffects>;
}

/**
 * Only online bookings: their guests booked without talking to anyone and wait to hear back. The source decides, not
 * who keyed the booking in, so a request staff copy from the hotel's website counts too; a desk, phone or OTA guest
 * hears from the desk or the OTA.
 */
export function writesToGuest(booking: Booking | undefined): booking is Booking & { guest_email: string } {
  return booking?.source === 'online' && Boolean(booking.guest_email);
}

/** What a booking's status, just written, must send outside: its own guest e-mail, and what its followers ask for. */
export function createStayFollowers() {
  const followers: StayFollower[] = [];
  return {
    /** Called by a module that follows stays, when it is built (after bookings, whose service it uses). */
    add(follower: StayFollower): void {
      followers.push(follower);
    },
    async effectsOf(
      trx: Knex.Transaction,
      booking: Booking,
      reason?: BookingStatusChange['reason'],
    ): Promise<BookingOutsideEffects> {
      const kind = GUEST_EMAIL_FOR[booking.status];
      let effects: BookingOutsideEffects = kind && writesToGuest(booking) ? { guestEmail: kind } : {};
      for (const follower of followers) {
        if (follower.statuses.includes(booking.status))
          effects = { ...effects, ...(await follower.effectsOf(trx, booking, reason)) };
      }
      return effects;
    },
    async moveEffectsOf(trx: Knex.Transaction, booking: Booking, fromRoomId: string): Promise<BookingMoveEffects> {
      let effects: BookingMoveEffects = {};
      for (const follower of followers) {
        if (follower.moveEffectsOf)
          effects = { ...effects, ...(await follower.moveEffectsOf(trx, booking, fromRoomId)) };
      }
      return effects;
    },
  };
}

export type StayFollowers = ReturnType<typeof createStayFollowers>;
