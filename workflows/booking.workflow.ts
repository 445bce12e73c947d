import { ActivityFailure, condition, log, patched, proxyActivities, setHandler } from '@temporalio/workflow';
import {
  bookingStatusSignal,
  type BookingActivities,
  type BookingLifecycleStatus,
  type BookingStatusChange,
  type BookingWorkflowInput,
  type GuestEmailKind,
} from './contracts/bookings';

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

const FINAL = new Set(['checked_out', 'cancelled']);

/** The guest's e-mail a status calls for: a booking made confirmed at once gets the confirmation alone. */
const GUEST_EMAIL_FOR: Partial<Record<BookingLifecycleStatus, GuestEmailKind>> = {
  inquiry: 'received',
  confirmed: 'confirmed',
  cancelled: 'cancelled',
};

/**
 * The guest's e-mails, one after the other beside the status loop, so a relay that is down delays neither the staff
 * notifications nor the next status; the activity decides whether the booking writes to its guest at all.
 */
function guestEmails(hotelId: string, bookingId: string) {
  let queue = Promise.resolve();
  return {
    on(status: BookingLifecycleStatus) {
      const kind = GUEST_EMAIL_FOR[status];
      if (!kind) return;
      queue = queue
        .then(() => sendGuestBookingEmail(hotelId, bookingId, kind))
        .then(
          (outcome) => {
            if (outcome === 'in_doubt') log.warn('Guest e-mail in doubt, not sent again', { bookingId, kind });
          },
          (failure: unknown) => {
            const cause = failure instanceof ActivityFailure ? failure.cause?.message : String(failure);
            log.warn('Guest e-mail given up', { bookingId, kind, cause });
          },
        );
    },
    /** Every e-mail asked for so far has been sent or given up. */
    settled: () => queue,
  };
}

/**
 * One per booking, from creation to its final status: receives every status change and owns the side effects
 * outside the booking's own transaction (the in-app notifications and the guest's e-mails; later TV and deposits).
 */
export async function booking(input: BookingWorkflowInput): Promise<string> {
  const changes: BookingStatusChange[] = [];
  setHandler(bookingStatusSignal, (change) => {
    changes.push(change);
  });
  // Decided once, at the start: a booking whose workflow began before the guest e-mails writes none, ever.
  const emails = patched('guest-emails') ? guestEmails(input.hotelId, input.bookingId) : undefined;
  let status: string = input.status;
  emails?.on(input.status);
  await announceBooking(input.hotelId, input.bookingId, { event: 'created' });
  while (!FINAL.has(status)) {
    await condition(() => changes.length > 0);
    const change = changes.shift()!;
    status = change.status;
    emails?.on(change.status);
    await announceBooking(input.hotelId, input.bookingId, { event: 'status', ...change });
  }
  await emails?.settled();
  return status;
}
