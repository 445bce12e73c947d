import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { DbOrTrx } from '../../platform/db/knex';
import { enqueueOutbox, startWorkflowMessage, type WorkflowMemo } from '../../platform/db/outbox';
import { initials } from '../../platform/temporal/memo';
import {
  bookingMovedSignal,
  bookingStatusSignal,
  bookingWorkflowIds,
  movePlannedSignal,
  type BookingAnnouncement,
  type BookingMoveEffects,
  type BookingStatusChange,
  type BookingWorkflow,
  type PlannedMove,
} from '../../../workflows/contracts/bookings';
import type { NotificationsService } from '../notifications';
import { bookingCreated, bookingMoved, bookingUpdated } from './bookings.events';
import type { Segment } from './bookings.segments-repository';
import { bookingMessages } from './bookings.present';
import { notifyMoved, notifyMoveSkipped, notifyStaff, type SkippedMove } from './bookings.staff-notices';
import type { StayFollowers } from './bookings.outside';
import type { Booking } from './bookings.types';

/** What a booking's change tells others, in the transaction that makes it: staff screens, and its workflow. */

export function announceBooking(
  trx: DbOrTrx,
  booking: Booking,
  type: 'booking_created' | 'booking_updated',
  changes: object = {},
) {
  const payload = {
    booking_id: booking.id,
    room_id: booking.room_id,
    status: booking.status,
    check_in: booking.check_in,
    check_out: booking.check_out,
    start_at: booking.start_at,
    end_at: booking.end_at,
  };
  return type === 'booking_created'
    ? bookingCreated.publish(trx, booking.hotel_id, payload)
    : bookingUpdated.publish(trx, booking.hotel_id, { ...payload, changes });
}

/** What an operator sees of the booking in the Temporal UI: its hotel, its id and the guest's initials. */
function bookingMemo(booking: Booking, hotelSlug: string): WorkflowMemo {
  return { hotel: hotelSlug, booking: booking.id, guest: initials(booking.guest_first_name, booking.guest_last_name) };
}

/** A move as its consequences read it. */
export interface BookingMove {
  from: string;
  fromRoomId: string;
  toRoomId: string;
  reason: string;
  now: boolean;
  /** The stay's next planned move, when it had or has one: its workflow carries it out on its day. */
  planned?: { next: PlannedMove | null };
}

/**
 * A signal to the booking's workflow through the outbox, starting it first if needed (so no signal can outrun its
 * start; started so, it is told nothing at its start and everything by the signal).
 */
function signalWithStart(
  trx: Knex.Transaction,
  booking: Booking,
  status: BookingStatusChange['status'],
  hotelSlug: string,
  signal: string,
  argument: object,
) {
  const start: Parameters<BookingWorkflow> = [
    { hotelId: booking.hotel_id, bookingId: booking.id, status, effects: {} },
  ];
  return enqueueOutbox(trx, {
    kind: 'signalWithStart',
    workflowType: 'bookingLife',
    workflowId: bookingWorkflowIds.booking(booking.id),
    args: start,
    signal,
    signalArgs: [argument],
    searchAttributes: { HotelSlug: hotelSlug, BookingId: booking.id },
    memo: bookingMemo(booking, hotelSlug),
  });
}

/** Staff screens told of a move: `booking:moved` with the stay's segments after it. */
function publishMoved(trx: Knex.Transaction, booking: Booking, move: BookingMove, rooms: Segment[]) {
  return bookingMoved.publish(trx, booking.hotel_id, {
    booking_id: booking.id,
    room_id: booking.room_id,
    from_room_id: move.fromRoomId,
    to_room_id: move.toRoomId,
    from: move.from,
    reason: move.reason,
    now: move.now,
    rooms: rooms.map(({ room_id, from, to }) => ({ room_id, from, to })),
  });
}

export interface BookingEffectsDependencies {
  notifications: Pick<NotificationsService, 'notify'>;
  followers: Pick<StayFollowers, 'effectsOf' | 'moveEffectsOf'>;
}

/**
 * What a booking's change tells others in its transaction, as one object the services receive (a unit test hands them
 * a double): the staff screens, the staff's in-app notifications, and its workflow, told what the change must send.
 */
export function createBookingEffects({ notifications, followers }: BookingEffectsDependencies) {
  /** The booking's workflow told the stay's next planned move (`movePlanned`, replacing the one it waits for). */
  const planMove = (trx: Knex.Transaction, booking: Booking, next: PlannedMove | null, hotelSlug: string) =>
    signalWithStart(trx, booking, booking.status, hotelSlug, movePlannedSignal.name, { next });

  return {
    announce: announceBooking,
    notifyStaff: (trx: Knex.Transaction, booking: Booking, announcement: BookingAnnouncement) =>
      notifyStaff(notifications, trx, booking, announcement),

    /**
     * The booking's workflow (`bookingLife`) starts with the booking, told what its creation must send (searchable
     * in Temporal by hotel and booking id).
     */
    async startWorkflow(trx: Knex.Transaction, booking: Booking, hotelSlug: string) {
      const effects = await followers.effectsOf(trx, booking);
      return enqueueOutbox(
        trx,
        startWorkflowMessage<BookingWorkflow>(
          'bookingLife',
          bookingWorkflowIds.booking(booking.id),
          [{ hotelId: booking.hotel_id, bookingId: booking.id, status: booking.status, effects }],
          { HotelSlug: hotelSlug, BookingId: booking.id },
          bookingMemo(booking, hotelSlug),
        ),
      );
    },

    /**
     * A move, in its transaction: staff screens (`booking:moved`) and their notification; for a guest moved
     * tonight, the workflow told what the move must send outside (only when there is something); and the workflow
     * told the stay's next planned move when it had or has one (`movePlanned`, replacing the one it waits for).
     */
    async moved(trx: Knex.Transaction, booking: Booking, move: BookingMove, rooms: Segment[], hotelSlug: string) {
      await publishMoved(trx, booking, move, rooms);
      await notifyMoved(notifications, trx, booking, move);
      const effects = move.now ? await followers.moveEffectsOf(trx, booking, move.fromRoomId) : {};
      if (effects.tv) {
        const signalled: BookingMoveEffects = { ...effects, moveId: randomUUID() };
        await signalWithStart(trx, booking, booking.status, hotelSlug, bookingMovedSignal.name, signalled);
      }
      if (move.planned) await planMove(trx, booking, move.planned.next, hotelSlug);
    },

    planMove,
    /**
     * The desk told that a planned move was not carried out at its time, and why; when the guest's room was kept for
     * them, staff screens see its nights move back from the planned room (`booking:moved`, not `now`).
     */
    async moveSkipped(trx: Knex.Transaction, booking: Booking, skipped: SkippedMove) {
      if (skipped.own?.outcome === 'kept') {
        const back = { from: skipped.from, fromRoomId: skipped.roomId, toRoomId: booking.room_id, now: false };
        await publishMoved(trx, booking, { ...back, reason: bookingMessages.plannedMoveKept }, skipped.own.rooms);
      }
      await notifyMoveSkipped(notifications, trx, booking, skipped);
    },

    /**
     * Every status change reaches the workflow with what it must send, starting it first if needed (so no signal can
     * outrun its start; started so, it is told nothing at its start and everything by the signal).
     */
    async signalStatus(trx: Knex.Transaction, booking: Booking, change: BookingStatusChange, hotelSlug: string) {
      const signalled = { ...change, effects: await followers.effectsOf(trx, booking, change.reason) };
      return signalWithStart(trx, booking, change.status, hotelSlug, bookingStatusSignal.name, signalled);
    },
  };
}

export type BookingEffects = ReturnType<typeof createBookingEffects>;
