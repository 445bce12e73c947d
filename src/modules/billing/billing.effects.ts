import type { Db, DbOrTrx } from '../../platform/db/knex';
import { enqueueCoalescedSignal, enqueueOutbox } from '../../platform/db/outbox';
import { bookingPaymentWorkflowId, type BookingPaymentWorkflow } from '../../../workflows/contracts/booking-payments';
import { moneyWorkflowStart, providerChangedSignal, type PaymentTimers } from '../payments';
import type { OnlinePayment } from './billing.types';

/** What an online payment's creation and the provider's notifications of it send its workflow, through the outbox. */

function onlinePaymentStart(payment: OnlinePayment, hotelSlug: string, timers: PaymentTimers, ttlMs: number) {
  const args: Parameters<BookingPaymentWorkflow> = [
    {
      hotelId: payment.hotel_id,
      onlinePaymentId: payment.id,
      timings: { confirmationTimeoutMs: ttlMs, pollIntervalMs: timers.pollIntervalMs },
    },
  ];
  const workflowId = bookingPaymentWorkflowId(payment.id);
  return moneyWorkflowStart('bookingPayment', workflowId, args, hotelSlug, payment);
}

export const onlinePaymentWorkflows = {
  start: (trx: DbOrTrx, payment: OnlinePayment, hotelSlug: string, timers: PaymentTimers, ttlMs: number) =>
    enqueueOutbox(trx, { kind: 'startWorkflow', ...onlinePaymentStart(payment, hotelSlug, timers, ttlMs) }),

  /** The provider says the payment changed: one re-read for every notification of the window (see coalesced). */
  providerChanged: (
    db: Db,
    payment: OnlinePayment,
    hotelSlug: string,
    timers: PaymentTimers,
    ttlMs: number,
    windowMs: number,
  ) =>
    enqueueCoalescedSignal(db, providerChangedSignal(onlinePaymentStart(payment, hotelSlug, timers, ttlMs)), windowMs),
};
