import type { DepositKind, DepositOperation } from '../../../workflows/contracts/deposits';

export const DEPOSIT_STATUSES = [
  'hold_created',
  'hold_confirmed',
  'paid',
  'paid_cash',
  'captured',
  'released',
  'partially_refunded',
  'refunded',
  'cancelled',
  'expired',
] as const;
export type DepositStatus = (typeof DEPOSIT_STATUSES)[number];

/** A line of the guest's statement: money kept from the deposit (minibar, damage, a preset or a free amount). */
export interface Deduction {
  name: string;
  amount: string;
}

export interface Deposit {
  id: string;
  hotel_id: string;
  booking_id: string;
  kind: DepositKind;
  status: DepositStatus;
  amount: string;
  currency: string;
  captured_amount: string;
  refunded_amount: string;
  deductions: Deduction[];
  pending_operation: DepositOperation | null;
  card_last4: string | null;
  card_brand: string | null;
  provider_payment_id: string | null;
  confirmation_url: string | null;
  return_url: string | null;
  cancel_reason: string | null;
  guest_email: string | null;
  created_by: string | null;
  confirmed_at: Date | null;
  closed_at: Date | null;
  statement_sent_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export interface DepositRefund {
  id: string;
  hotel_id: string;
  deposit_id: string;
  amount: string;
  status: 'pending' | 'succeeded' | 'failed';
  provider_refund_id: string | null;
  failure_reason: string | null;
  created_by: string | null;
  created_at: Date;
  completed_at: Date | null;
}

/** A deposit in the hotel's history, with the stay it secures. */
export interface DepositHistoryRow extends Deposit {
  guest_name: string;
  room_id: string;
  room_number: string;
}
