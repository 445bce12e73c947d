import { condition, patched, setHandler, sleep } from '@temporalio/workflow';
import {
  accrueStayPoints,
  announceBooking,
  FINAL,
  guestEmail,
  loggedFailure,
  pushStayToTv,
  reviewInvitationDelay,
  reviewInvitationNow,
  serially,
  TV_EVENT_FOR,
} from './booking-steps';
import {
  GUEST_EMAIL_FOR,
  bookingStatusSignal,
  type BookingLifecycleStatus,
  type BookingStatusChange,
  type BookingWorkflowInput,
} from './contracts/bookings';

/** The steps of one kind that the statuses call for, one after the other (see `serially`). */
function sideEffects(what: string, effectOf: (status: BookingLifecycleStatus) => (() => Promise<unknown>) | undefined) {
  const steps = serially(what);
  return {
    on(status: BookingLifecycleStatus) {
      const effect = effectOf(status);
      if (effect) steps.add(effect, { status });
    },
    settled: steps.settled,
  };
}

/** The guest's e-mails; the activity decides whether the booking writes to its guest at all. */
const guestEmails = (hotelId: string, bookingId: string) =>
  sideEffects('Guest e-mail', (status) => {
    const kind = GUEST_EMAIL_FOR[status];
    return kind && (() => guestEmail(hotelId, bookingId, kind));
  });

/** The hotel's TV system greets the guest at check-in and forgets them at check-out (never blocking either). */
const tvPushes = (hotelId: string, bookingId: string) =>
  sideEffects('TV push', (status) => {
    const event = TV_EVENT_FOR[status];
    return event && (() => pushStayToTv({ hotelId, bookingId, event }));
  });

/**
 * After a check-out, side by side: the stay's loyalty points, and the review invitation after the hotel's delay (a
 * durable timer; the activities read the settings, so only ids and a duration pass through the history).
 */
function afterTheStay(hotelId: string, bookingId: string): Promise<unknown> {
  return Promise.all([
    loggedFailure('Loyalty accrual', bookingId, () => accrueStayPoints(hotelId, bookingId)),
    loggedFailure('Review invitation', bookingId, async () => {
      const delayMs = await reviewInvitationDelay(hotelId, bookingId);
      if (delayMs === null) return;
      if (delayMs > 0) await sleep(delayMs);
      await reviewInvitationNow(hotelId, bookingId);
    }),
  ]);
}

/**
 * The booking workflow's first version, kept for the bookings whose workflow began before `bookingLife` (their
 * histories replay against it): it announces every status by an activity and finds out by activities whether there is
 * anything to send. The in-app notifications are now made at the commit; its `announceBooking` finds them made.
 */
export async function booking(input: BookingWorkflowInput): Promise<string> {
  const changes: BookingStatusChange[] = [];
  setHandler(bookingStatusSignal, (change) => {
    changes.push(change);
  });
  // Decided once, at the start: a booking whose workflow began before the guest e-mails writes none, ever.
  const emails = patched('guest-emails') ? guestEmails(input.hotelId, input.bookingId) : undefined;
  // The same for the TV pushes: a booking whose workflow began before them tells the TV system nothing.
  const tv = patched('tv-pushes') ? tvPushes(input.hotelId, input.bookingId) : undefined;
  let status: string = input.status;
  emails?.on(input.status);
  tv?.on(input.status);
  await announceBooking(input.hotelId, input.bookingId, { event: 'created' });
  while (!FINAL.has(status)) {
    await condition(() => changes.length > 0);
    const change = changes.shift()!;
    status = change.status;
    emails?.on(change.status);
    tv?.on(change.status);
    await announceBooking(input.hotelId, input.bookingId, { event: 'status', ...change });
  }
  // The steps after the stay (loyalty points, the review invitation) are decided here, not at the start: a workflow
  // already running at their deploy takes them at a check-out after it; histories finished before replay without them.
  const afterStay = status === 'checked_out' && patched('after-stay');
  await Promise.all([emails?.settled(), tv?.settled(), afterStay && afterTheStay(input.hotelId, input.bookingId)]);
  return status;
}
