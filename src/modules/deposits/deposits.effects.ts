import type { Db, DbOrTrx } from '../../platform/db/knex';
import { enqueueCoalescedSignal, enqueueOutbox } from '../../platform/db/outbox';
import {
  depositCommandSignal,
  depositWorkflowId,
  type DepositCommand,
  type DepositWorkflow,
} from '../../../workflows/contracts/deposits';
import { moneyWorkflowStart, providerChangedSignal, signalWithStart, type PaymentTimers } from '../payments';
import { depositUpdated } from './deposits.events';
import type { Deposit } from './deposits.types';

/** What a deposit's change tells others, in the transaction that makes it. */

export function announceDeposit(trx: DbOrTrx, deposit: Deposit) {
  return depositUpdated.publish(trx, deposit.hotel_id, {
    deposit_id: deposit.id,
    booking_id: deposit.booking_id,
    kind: deposit.kind,
    status: deposit.status,
    pending_operation: deposit.pending_operation,
  });
}

function depositStart(deposit: Deposit, hotelSlug: string, timers: PaymentTimers) {
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

export const depositWorkflows = {
  start: (trx: DbOrTrx, deposit: Deposit, hotelSlug: string, timers: PaymentTimers) =>
    enqueueOutbox(trx, { kind: 'startWorkflow', ...depositStart(deposit, hotelSlug, timers) }),

  command: (trx: DbOrTrx, deposit: Deposit, hotelSlug: string, timers: PaymentTimers, command: DepositCommand) =>
    enqueueOutbox(trx, signalWithStart(depositStart(deposit, hotelSlug, timers), depositCommandSignal.name, [command])),

  /** The provider says the payment changed: one re-read for every notification of the window (see coalesced). */
  providerChanged: (db: Db, deposit: Deposit, hotelSlug: string, timers: PaymentTimers, windowMs: number) =>
    enqueueCoalescedSignal(db, providerChangedSignal(depositStart(deposit, hotelSlug, timers)), windowMs),
};
