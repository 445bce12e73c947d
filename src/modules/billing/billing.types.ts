/** An online payment of a booking: created at the provider by its workflow, and a ledger row once paid. */
export interface OnlinePayment {
  id: string;
  hotel_id: string;
  booking_id: string;
  amount: string;
  currency: string;
  status: 'pending' | 'succeeded' | 'canceled';
  provider_payment_id: string | null;
  confirmation_url: string | null;
  return_url: string | null;
  cancel_reason: string | null;
  ledger_payment_id: string | null;
  created_by: string | null;
  created_at: Date;
  updated_at: Date;
}
