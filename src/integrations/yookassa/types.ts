/** The shop's API credentials: HTTP Basic auth with the shop id as the user name and the secret key as the password. */
export interface YooKassaCredentials {
  shopId: string;
  secretKey: string;
}

/** Money as YooKassa writes it: a decimal string with two decimals ("1500.00") and an ISO 4217 currency code. */
export interface Amount {
  value: string;
  currency: string;
}

/** A fiscal receipt (54-FZ) sent with a payment, a capture or a refund. */
export interface Receipt {
  customer: { email?: string; phone?: string; full_name?: string };
  items: ReceiptItem[];
}

export interface ReceiptItem {
  description: string;
  quantity: string;
  /** The price of one unit. */
  amount: Amount;
  vat_code: number;
  payment_subject?: string;
  payment_mode?: string;
}

export interface CreatePaymentRequest {
  amount: Amount;
  /** True charges at once; false only holds the money until a capture or a cancel. */
  capture: boolean;
  description?: string;
  metadata?: Record<string, string>;
  confirmation: { type: 'redirect'; return_url: string };
  receipt?: Receipt;
}

export interface CapturePaymentOptions {
  /** Less than the held amount captures part of it and releases the rest; absent captures all of it. */
  amount?: Amount;
  receipt?: Receipt;
}

export interface CreateRefundRequest {
  payment_id: string;
  amount: Amount;
  description?: string;
  receipt?: Receipt;
}

export type YooKassaPaymentStatus = 'pending' | 'waiting_for_capture' | 'succeeded' | 'canceled';

export interface YooKassaBankCard {
  first6?: string;
  last4: string;
  expiry_month: string;
  expiry_year: string;
  card_type: string;
  issuer_country?: string;
}

export interface YooKassaPaymentMethod {
  type: string;
  id: string;
  saved: boolean;
  title?: string;
  card?: YooKassaBankCard;
}

export interface YooKassaCancellationDetails {
  /** Who cancelled: merchant, yoo_money or payment_network. */
  party: string;
  /** Why, e.g. canceled_by_merchant, expired_on_confirmation, expired_on_capture, insufficient_funds. */
  reason: string;
}

export interface YooKassaPayment {
  id: string;
  status: YooKassaPaymentStatus;
  paid: boolean;
  amount: Amount;
  income_amount?: Amount;
  captured_at?: string;
  created_at: string;
  /** Until when a held payment may be captured; YooKassa cancels it afterwards. */
  expires_at?: string;
  description?: string;
  metadata?: Record<string, string>;
  payment_method?: YooKassaPaymentMethod;
  confirmation?: { type: 'redirect'; confirmation_url: string; return_url?: string };
  cancellation_details?: YooKassaCancellationDetails;
  refunded_amount?: Amount;
  test: boolean;
  refundable: boolean;
}

export type YooKassaRefundStatus = 'pending' | 'succeeded' | 'canceled';

export interface YooKassaRefund {
  id: string;
  payment_id: string;
  status: YooKassaRefundStatus;
  amount: Amount;
  created_at: string;
  description?: string;
}

export type YooKassaNotificationEvent =
  'payment.succeeded' | 'payment.waiting_for_capture' | 'payment.canceled' | 'refund.succeeded';

/** The body YooKassa posts to the shop's notification URL when a payment or a refund changes status. */
export interface YooKassaNotification {
  type: 'notification';
  event: YooKassaNotificationEvent;
  object: YooKassaPayment | YooKassaRefund;
}

/** YooKassa's error body for 4xx and 5xx answers. */
export interface YooKassaErrorBody {
  type: 'error';
  id: string;
  code: string;
  description?: string;
  parameter?: string;
}
