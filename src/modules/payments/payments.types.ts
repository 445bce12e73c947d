export const CHECKIN_PAYMENT_LEVELS = ['none', 'soft', 'hard'] as const;
export type CheckinPaymentLevel = (typeof CHECKIN_PAYMENT_LEVELS)[number];

export const PAYMENT_METHODS = ['cash', 'card', 'transfer', 'online', 'other'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

export interface PaymentSettings {
  hotel_id: string;
  require_payment_checkin: CheckinPaymentLevel;
  updated_at: Date;
}

/** One row of a booking's payment ledger; the booking's `paid_amount` is their sum. */
export interface BookingPayment {
  id: string;
  hotel_id: string;
  booking_id: string;
  amount: string;
  method: PaymentMethod;
  note: string;
  paid_at: Date;
  created_by: string | null;
  created_at: Date;
}

export interface PaymentInput {
  amount: string;
  method: PaymentMethod;
  note?: string;
  paid_at?: Date;
}
