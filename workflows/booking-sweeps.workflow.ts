import { proxyActivities } from '@temporalio/workflow';
import type { BookingActivities } from './contracts/bookings';

const activities = proxyActivities<BookingActivities>({
  startToCloseTimeout: '2 minutes',
  retry: { initialInterval: '2 seconds', backoffCoefficient: 2, maximumInterval: '1 minute', maximumAttempts: 5 },
});

/** Every 10 minutes: confirmed bookings whose guest never came, past the hotel's no-show hours, are cancelled. */
export async function noShowSweep(): Promise<{ found: number; cancelled: number }> {
  const due = await activities.findNoShows();
  let cancelled = 0;
  for (const booking of due) if ((await activities.cancelNoShow(booking)) === 'done') cancelled += 1;
  return { found: due.length, cancelled };
}

/** Every 10 minutes: stays past their check-out by the hotel's hours are checked out (and their turnover starts). */
export async function autoCheckoutSweep(): Promise<{ found: number; checkedOut: number }> {
  const due = await activities.findOverdueStays();
  let checkedOut = 0;
  for (const booking of due) if ((await activities.autoCheckOut(booking)) === 'done') checkedOut += 1;
  return { found: due.length, checkedOut };
}
