import { defineSignal } from '@temporalio/workflow';

/**
 * The money workflows' contract: deposits (`deposit:<depositId>`) and online payments of bookings
 * (`booking-payment:<onlinePaymentId>`). The deposits module starts and signals them and implements the activities.
 */

export const DEPOSIT_KINDS = ['hold', 'yookassa_charge', 'cash'] as const;
export type DepositKind = (typeof DEPOSIT_KINDS)[number];

/** Where a payment at the provider stands, as our record of it has it after a sync. */
export type ProviderPaymentOutcome = 'awaiting_payment' | 'paid' | 'failed';

/** How long the money workflows wait; production defaults come from configuration, tests pass seconds. */
export interface PaymentTimings {
  /** A payment the payer never completes is given up after this (the provider's hour). */
  confirmationTimeoutMs: number;
  /** Between notifications the provider is re-read this often, so a lost notification delays nothing for long. */
  pollIntervalMs: number;
}

export interface DepositWorkflowInput {
  hotelId: string;
  depositId: string;
  kind: DepositKind;
  timings: PaymentTimings & {
    /** A confirmed hold is settled (the hotel's rule: capture or release) this long after confirmation. */
    holdSettleAfterMs: number;
  };
}

export interface BookingPaymentWorkflowInput {
  hotelId: string;
  onlinePaymentId: string;
  timings: PaymentTimings;
}

/** Something changed at the provider (a notification came): the workflow re-reads the payment. */
export const providerPaymentChangedSignal = defineSignal('providerPaymentChanged');

export type DepositOperation = 'release' | 'cancel' | 'refund';

/** Staff asked for an operation; its details are recorded on the deposit (or its refund row) before the signal. */
export interface DepositCommand {
  operation: DepositOperation;
  refundId?: string;
}

export const depositCommandSignal = defineSignal<[DepositCommand]>('depositCommand');

export const paymentWorkflowIds = {
  deposit: (depositId: string) => `deposit:${depositId}`,
  bookingPayment: (onlinePaymentId: string) => `booking-payment:${onlinePaymentId}`,
};

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

export interface BookingPaymentActivities {
  /** Like createDepositPayment, for an online payment of a booking. */
  createBookingPayment(hotelId: string, onlinePaymentId: string): Promise<boolean>;
  /** Re-reads the payment; a paid one is recorded in the booking's ledger exactly once (and may confirm it). */
  syncBookingPayment(hotelId: string, onlinePaymentId: string): Promise<ProviderPaymentOutcome>;
  /** Unpaid in time: the payment is given up and an unpaid online booking waiting for it is cancelled. */
  expireBookingPayment(hotelId: string, onlinePaymentId: string): Promise<ProviderPaymentOutcome>;
}

export type DepositWorkflow = (input: DepositWorkflowInput) => Promise<string>;
export type BookingPaymentWorkflow = (input: BookingPaymentWorkflowInput) => Promise<ProviderPaymentOutcome>;
