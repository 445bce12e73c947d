import type { Config } from '../../config';
import type { Db, DbOrTrx } from '../../platform/db/knex';
import {
  enqueueCoalescedSignal,
  enqueueOutbox,
  type OutboxMessage,
  type SignalMessage,
} from '../../platform/db/outbox';
import { bookingPaymentWorkflowId, type BookingPaymentWorkflow } from '../../../workflows/contracts/booking-payments';
import {
  depositCommandSignal,
  depositWorkflowId,
  type DepositCommand,
  type DepositWorkflow,
} from '../../../workflows/contracts/deposits';
import { providerPaymentChangedSignal } from '../../../workflows/contracts/payments';
import { depositUpdated } from './deposits.events';
import type { Deposit, OnlinePayment } from './deposits.types';

/** What a deposit's or online payment's change tells others, in the transaction that makes it. */

export function announceDeposit(trx: DbOrTrx, deposit: Deposit) {
  return depositUpdated.publish(trx, deposit.hotel_id, {
    deposit_id: deposit.id,
    booking_id: deposit.booking_id,
    kind: deposit.kind,
    status: deposit.status,
    pending_operation: deposit.pending_operation,
  });
}

type Start = Omit<Extract<OutboxMessage, { kind: 'startWorkflow' }>, 'kind'>;

/** A money workflow is found in Temporal by its hotel and booking; its memo names the record it follows. */
function moneyWorkflowStart(
  workflowType: string,
  workflowId: string,
  args: unknown[],
  hotelSlug: string,
  record: { id: string; booking_id: string },
): Start {
  return {
    workflowType,
    workflowId,
    args,
    searchAttributes: { HotelSlug: hotelSlug, BookingId: record.booking_id },
    memo: { hotel: hotelSlug, booking: record.booking_id, [workflowType]: record.id },
  };
}

function depositStart(deposit: Deposit, hotelSlug: string, timers: Config['paymentTimers']) {
  const { confirmationTimeoutMs, pollIntervalMs, holdSettleAfterMs } = timers;
  const args: Parameters<DepositWorkflow> = [
    {
      hotelId: deposit.hotel_id,
      depositId: deposit.id,
      kind: deposit.kind,
      timings: { confirmationTimeoutMs, pollIntervalMs, holdSettleAfterMs },
    },
  ];
  return moneyWorkflowStart('deposit', depositWorkflowId(deposit.id), args, hotelSlug, deposit);
}

function onlinePaymentStart(payment: OnlinePayment, hotelSlug: string, timers: Config['paymentTimers'], ttlMs: number) {
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

/** Signals the workflow, starting it again if it has finished (a late payment still gets handled, never lost). */
function signalWithStart(start: Start, signal: string, signalArgs: unknown[]): SignalMessage {
  return { kind: 'signalWithStart', ...start, signal, signalArgs, reviveFinished: true };
}

/** The wake-up a provider's notification asks for: the workflow re-reads the payment. */
const providerChangedSignal = (start: Start) => signalWithStart(start, providerPaymentChangedSignal.name, []);

export const depositWorkflows = {
  start: (trx: DbOrTrx, deposit: Deposit, hotelSlug: string, timers: Config['paymentTimers']) =>
    enqueueOutbox(trx, { kind: 'startWorkflow', ...depositStart(deposit, hotelSlug, timers) }),

  command: (
    trx: DbOrTrx,
    deposit: Deposit,
    hotelSlug: string,
    timers: Config['paymentTimers'],
    command: DepositCommand,
  ) =>
    enqueueOutbox(trx, signalWithStart(depositStart(deposit, hotelSlug, timers), depositCommandSignal.name, [command])),

  /** The provider says the payment changed: one re-read for every notification of the window (see coalesced). */
  providerChanged: (db: Db, deposit: Deposit, hotelSlug: string, timers: Config['paymentTimers'], windowMs: number) =>
    enqueueCoalescedSignal(db, providerChangedSignal(depositStart(deposit, hotelSlug, timers)), windowMs),
};

export const onlinePaymentWorkflows = {
  start: (trx: DbOrTrx, payment: OnlinePayment, hotelSlug: string, timers: Config['paymentTimers'], ttlMs: number) =>
    enqueueOutbox(trx, { kind: 'startWorkflow', ...onlinePaymentStart(payment, hotelSlug, timers, ttlMs) }),

  providerChanged: (
    db: Db,
    payment: OnlinePayment,
    hotelSlug: string,
    timers: Config['paymentTimers'],
    ttlMs: number,
    windowMs: number,
  ) =>
    enqueueCoalescedSignal(db, providerChangedSignal(onlinePaymentStart(payment, hotelSlug, timers, ttlMs)), windowMs),
};
