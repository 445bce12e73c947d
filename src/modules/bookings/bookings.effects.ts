import type { DbOrTrx } from '../../platform/db/knex';
import { enqueueOutbox, startWorkflowMessage, type WorkflowMemo } from '../../platform/db/outbox';
import { initials } from '../../platform/temporal/memo';
import {
  bookingStatusSignal,
  bookingWorkflowIds,
  type BookingStatusChange,
  type BookingWorkflow,
} from '../../../workflows/contracts/bookings';
import { bookingCreated, bookingUpdated } from './bookings.events';
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

/** The booking's workflow starts with the booking (searchable in Temporal by hotel and booking id). */
export function startBookingWorkflow(trx: DbOrTrx, booking: Booking, hotelSlug: string) {
  return enqueueOutbox(
    trx,
    startWorkflowMessage<BookingWorkflow>(
      'booking',
      bookingWorkflowIds.booking(booking.id),
      [{ hotelId: booking.hotel_id, bookingId: booking.id, status: booking.status }],
      { HotelSlug: hotelSlug, BookingId: booking.id },
      bookingMemo(booking, hotelSlug),
    ),
  );
}

/** Every status change reaches the workflow, starting it first if needed (so no signal can outrun its start). */
export function signalBookingStatus(trx: DbOrTrx, booking: Booking, change: BookingStatusChange, hotelSlug: string) {
  const start: Parameters<BookingWorkflow> = [
    { hotelId: booking.hotel_id, bookingId: booking.id, status: change.status },
  ];
  return enqueueOutbox(trx, {
    kind: 'signalWithStart',
    workflowType: 'booking',
    workflowId: bookingWorkflowIds.booking(booking.id),
    args: start,
    signal: bookingStatusSignal.name,
    signalArgs: [change],
    searchAttributes: { HotelSlug: hotelSlug, BookingId: booking.id },
    memo: bookingMemo(booking, hotelSlug),
  });
}

/** What a booking's change tells others, as one object the services receive (a unit test hands them a double). */
export const bookingEffects = {
  announce: announceBooking,
  startWorkflow: startBookingWorkflow,
  signalStatus: signalBookingStatus,
};

export type BookingEffects = typeof bookingEffects;
