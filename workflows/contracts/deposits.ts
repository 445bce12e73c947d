import { defineSignal } from '@temporalio/workflow';
import type { PaymentTimings, ProviderPaymentOutcome } from './payments';

/**
 * The deposit workflow's contract (`deposit:<depositId>`). The deposits module starts and signals it and implements
 * its activities; what it shares with the other workflows following a provider payment is in `./payments`.
 */

export const DEPOSIT_KINDS = ['hold', 'yookassa_charge', 'cash'] as const;
export type DepositKind = (typeof DEPOSIT_KINDS)[number];

export interface DepositWorkflowInput {
  hotelId: string;
  depositId: string;
  kind: DepositKind;
  timings: PaymentTimings & {
    /** A confirmed hold is settled (the hotel's rule: capture or release) this long after confirmation. */
    holdSettleAfterMs: number;
  };
}

export type DepositOperation = 'release' | 'cancel' | 'refund';

/** Staff asked for an operation; its details are recorded on the deposit (or its refund row) before the signal. */
export interface DepositCommand {
  operation: DepositOperation;
  refundId?: string;
}

export const depositCommandSignal = defineSignal<[DepositCommand]>('depositCommand');

export const depositWorkflowId = (depositId: string) => `deposit:${depositId}`;

/** What a deposit operation left: `open` while the deposit still holds money the hotel may act on. */
export type DepositStanding = 'open' | 'closed';

export interface DepositActivities {
  /** Creates the deposit's payment at the provider once (keyed by the deposit id); false when the provider refused. */
  createDepositPayment(hotelId: string, depositId: string): Promise<boolean>;
  /** Re-reads the deposit's payment at the provider and records what it says. */
  syncDepositPayment(hotelId: string, depositId: string): Promise<ProviderPaymentOutcome>;
  /** The payer did not pay in time: the deposit is cancelled (unless the provider says it was paid after all). */
  expireDepositPayment(hotelId: string, depositId: string): Promise<ProviderPaymentOutcome>;
  /** Carries out a staff operation recorded on the deposit; `closed` when nothing is left to act on. */
  performDepositOperation(hotelId: string, depositId: string, command: DepositCommand): Promise<DepositStanding>;
  /**
   * A confirmed hold is about to lapse at the provider: captured or released by the hotel's rule, staff told; `open`
   * when captured (the money may still be refunded).
   */
  settleLapsingHold(hotelId: string, depositId: string): Promise<DepositStanding>;
  /** The itemized e-mail to the guest after a release (at most once per deposit). */
  sendDepositStatement(hotelId: string, depositId: string): Promise<string>;
}

export type DepositWorkflow = (input: DepositWorkflowInput) => Promise<string>;
