import { condition, proxyActivities, setHandler } from '@temporalio/workflow';
import type { BookingPaymentActivities, BookingPaymentWorkflowInput } from './contracts/booking-payments';
import { providerPaymentChangedSignal, type ProviderPaymentOutcome } from './contracts/payments';
import { upcomingAt, upcomingQuery } from './contracts/upcoming';
import { MONEY_ACTIVITY_OPTIONS } from './money-activities';

const activities = proxyActivities<BookingPaymentActivities>(MONEY_ACTIVITY_OPTIONS);

/**
 * One per online payment of a booking: creates it at the provider, follows it (notifications wake it, the provider is
 * re-read, and re-read anyway every poll interval in case a notification is lost) until it is paid or failed, and
 * gives it up when the payer takes longer than the hotel allows, expiring the unpaid online booking behind it.
 */
export async function bookingPayment({
  hotelId,
  onlinePaymentId,
  timings,
}: BookingPaymentWorkflowInput): Promise<ProviderPaymentOutcome> {
  let providerChanged = false;
  setHandler(providerPaymentChangedSignal, () => {
    providerChanged = true;
  });
  if (!(await activities.createBookingPayment(hotelId, onlinePaymentId))) return 'failed';
  const deadline = Date.now() + timings.confirmationTimeoutMs;
  setHandler(upcomingQuery, () => upcomingAt('payment_expires', deadline));
  for (;;) {
    const remaining = deadline - Date.now();
    if (remaining <= 0) return activities.expireBookingPayment(hotelId, onlinePaymentId);
    await condition(() => providerChanged, Math.min(remaining, timings.pollIntervalMs));
    providerChanged = false;
    const outcome = await activities.syncBookingPayment(hotelId, onlinePaymentId);
    if (outcome !== 'awaiting_payment') return outcome;
  }
}
