import { condition, proxyActivities, setHandler } from '@temporalio/workflow';
import {
  bookingStatusSignal,
  type BookingActivities,
  type BookingStatusChange,
  type BookingWorkflowInput,
} from './contracts/bookings';

const { announceBooking } = proxyActivities<BookingActivities>({
  // Short: an attempt lost with a crashed worker is retried after this, not a minute later.
  startToCloseTimeout: '20 seconds',
  retry: { initialInterval: '2 seconds', backoffCoefficient: 2, maximumInterval: '10 minutes' },
});

const FINAL = new Set(['checked_out', 'cancelled']);

/**
 * One per booking, from creation to its final status: receives every status change and owns the side effects
 * outside the booking's own transaction (today the in-app notifications; later TV, deposits and e-mails).
 */
export async function booking(input: BookingWorkflowInput): Promise<string> {
  const changes: BookingStatusChange[] = [];
  setHandler(bookingStatusSignal, (change) => {
    changes.push(change);
  });
  let status: string = input.status;
  await announceBooking(input.hotelId, input.bookingId, { event: 'created' });
  while (!FINAL.has(status)) {
    await condition(() => changes.length > 0);
    const change = changes.shift()!;
    status = change.status;
    await announceBooking(input.hotelId, input.bookingId, { event: 'status', ...change });
  }
  return status;
}
