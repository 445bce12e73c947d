import { defineSignal } from '@temporalio/workflow';

/**
 * What every workflow that follows a payment at the provider shares (the deposit and the online payment of a booking,
 * each with its own contract beside this one): the outcome of a re-read, the timings, and the wake-up a provider's
 * notification sends. The payments module owns the provider and sends that wake-up.
 */

/** Where a payment at the provider stands, as our record of it has it after a sync. */
export type ProviderPaymentOutcome = 'awaiting_payment' | 'paid' | 'failed';

/** How long the money workflows wait; production defaults come from configuration, tests pass seconds. */
export interface PaymentTimings {
  /** A payment the payer never completes is given up after this (the provider's hour). */
  confirmationTimeoutMs: number;
  /** Between notifications the provider is re-read this often, so a lost notification delays nothing for long. */
  pollIntervalMs: number;
}

/** Something changed at the provider (a notification came): the workflow re-reads the payment. */
export const providerPaymentChangedSignal = defineSignal('providerPaymentChanged');
