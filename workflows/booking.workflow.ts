import { ActivityFailure, condition, log, patched, proxyActivities, setHandler } from '@temporalio/workflow';
import {
  bookingStatusSignal,
  type BookingActivities,
  type BookingLifecycleStatus,
  type BookingStatusChange,
  type BookingWorkflowInput,
  type GuestEmailKind,
} from './contracts/bookings';
import { TV_PUSH_OPTIONS, type TvActivities, type TvPushInput } from './contracts/tv';

const { announceBooking } = proxyActivities<BookingActivities>({
  // Short: an attempt lost with a crashed worker is retried after this, not a minute later.
  startToCloseTimeout: '20 seconds',
  retry: { initialInterval: '2 seconds', backoffCoefficient: 2, maximumInterval: '10 minutes' },
});

const { sendGuestBookingEmail } = proxyActivities<BookingActivities>({
  startToCloseTimeout: '20 seconds',
  // Retried while the relay is down; a day later the news is stale, and the booking goes on without it.
  scheduleToCloseTimeout: '1 day',
  retry: { initialInterval: '2 seconds', backoffCoefficient: 2, maximumInterval: '10 minutes' },
});

const { pushStayToTv } = proxyActivities<TvActivities>(TV_PUSH_OPTIONS);

const FINAL = new Set(['checked_out', 'cancelled']);

const TV_EVENT_FOR: Partial<Record<BookingLifecycleStatus, TvPushInput['event']>> = {
  checked_in: 'check_in',
  checked_out: 'check_out',
};

/** The guest's e-mail a status calls for: a booking made confirmed at once gets the confirmation alone. */
const GUEST_EMAIL_FOR: Partial<Record<BookingLifecycleStatus, GuestEmailKind>> = {
  inquiry: 'received',
  confirmed: 'confirmed',
  cancelled: 'cancelled',
};

/**
 * Side effects of the statuses, one after the other beside the status loop, so an outside system that is down delays
 * neither the staff notifications nor the next status; one given up is logged and the next goes on.
 */
function sideEffects(what: string, effectOf: (status: BookingLifecycleStatus) => (() => Promise<unknown>) | undefined) {
  let queue = Promise.resolve();
  return {
    on(status: BookingLifecycleStatus) {
      const effect = effectOf(status);
      if (!effect) return;
      queue = queue.then(effect).then(
        () => undefined,
        (failure: unknown) => {
          const cause = failure instanceof ActivityFailure ? failure.cause?.message : String(failure);
          log.warn(`${what} given up`, { status, cause });
        },
      );
    },
    /** Every effect asked for so far has been done or given up. */
    settled: () => queue,
  };
}

/** The guest's e-mails; the activity decides whether the booking writes to its guest at all. */
const guestEmails = (hotelId: string, bookingId: string) =>
  sideEffects('Guest e-mail', (status) => {
    const kind = GUEST_EMAIL_FOR[status];
    return (
      kind &&
      (async () => {
        const outcome = await sendGuestBookingEmail(hotelId, bookingId, kind);
        if (outcome === 'in_doubt') log.warn('Guest e-mail in doubt, not sent again', { bookingId, kind });
      })
    );
  });

/** The hotel's TV system greets the guest at check-in and forgets them at check-out (never blocking either). */
const tvPushes = (hotelId: string, bookingId: string) =>
  sideEffects('TV push', (status) => {
    const event = TV_EVENT_FOR[status];
    return event && (() => pushStayToTv({ hotelId, bookingId, event }));
  });

/**
 * One per booking, from creation to its final status: receives every status change and owns the side effects
 * outside the booking's own transaction (the in-app notifications, the guest's e-mails, the TV system's greeting).
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
  await Promise.all([emails?.settled(), tv?.settled()]);
  return status;
}
