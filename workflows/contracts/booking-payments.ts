import type { PaymentTimings, ProviderPaymentOutcome } from './payments';

/**
 * The online payment workflow's contract (`booking-payment:<onlinePaymentId>`). The payments module starts it and
 * implements its activities; what it shares with the deposit workflow is in `./payments`.
 */

export interface BookingPaymentWorkflowInput {
  hotelId: string;
  onlinePaymentId: string;
  timings: PaymentTimings;
}

export const bookingPaymentWorkflowId = (onlinePaymentId: string) => `booking-payment:${onlinePaymentId}`;

export interface BookingPaymentActivities {
  /** Creates the online payment at the provider once (keyed by its id); false when the provider refused. */
  createBookingPayment(hotelId: string, onlinePaymentId: string): Promise<boolean>;
  /** Re-reads the payment; a paid one is recorded in the booking's ledger exactly once (and may confirm it). */
  syncBookingPayment(hotelId: string, onlinePaymentId: string): Promise<ProviderPaymentOutcome>;
  /** Unpaid in time: the payment is given up and an unpaid online booking waiting for it is cancelled. */
  expireBookingPayment(hotelId: string, onlinePaymentId: string): Promise<ProviderPaymentOutcome>;
}

export type BookingPaymentWorkflow = (input: BookingPaymentWorkflowInput) => Promise<ProviderPaymentOutcome>;
