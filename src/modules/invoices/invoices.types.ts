import type { VatRate } from '../../integrations/atol';
import type { LineKind } from '../folios';
import type { HotelRequisites } from '../hotels';

import type { PaymentMethod as LedgerMethod } from '../payments';

/** Accepted by the request, so cash and cards get a 422 naming the desk; only a bank transfer is taken here. */
export const PAYMENT_METHODS = ['bank_transfer', 'cash', 'card'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];
/** How an invoice payment is written in the booking's payment ledger (a transfer passes no fiscal register). */
export const LEDGER_METHODS: Partial<Record<PaymentMethod, LedgerMethod>> & { bank_transfer: LedgerMethod } = {
  bank_transfer: 'transfer',
};

export const INVOICE_STATUSES = ['issued', 'cancelled'] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];
export const PAYMENT_STATUSES = ['unpaid', 'partially_paid', 'paid'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

/** The numbering series: each gapless per hotel and calendar year. */
export type Series = 'invoice' | 'credit_note';

/** The folio line kinds an invoice never bills (money that settles the folio); it bills every other kind. */
export const NOT_INVOICEABLE_KINDS: readonly LineKind[] = ['payment', 'refund'];

export const MAX_INVOICE_LINES = 500;
export const MAX_REASON = 500;
/** E-mails asked per invoice: a retrying script or a slip of the finger does not flood a mailbox. */
export const MAX_EMAILS = 20;

/** The seller as it was at issue: the hotel's name and requisites. */
export type Seller = { [K in keyof HotelRequisites]: HotelRequisites[K] } & { hotel_name: string };

/** The payer as it was at issue: the company of a company folio (name, INN), or the guest of the guest folio. */
export interface Payer {
  kind: 'guest' | 'company';
  name: string;
  inn: string | null;
}

export interface InvoiceRow {
  id: string;
  hotel_id: string;
  booking_id: string;
  folio_id: string;
  year: number;
  sequence: number;
  number: string;
  issued_on: string;
  seller: Seller;
  payer: Payer;
  total: string;
  vat_total: string;
  paid_amount: string;
  status: InvoiceStatus;
  pdf_key: string | null;
  issued_by: string | null;
  issued_at: Date;
}

export interface InvoiceLine {
  id: string;
  folio_line_id: string;
  position: number;
  description: string;
  business_date: string;
  amount: string;
  vat_rate: VatRate;
  vat_amount: string;
}

export type NewInvoiceLine = Omit<InvoiceLine, 'id'>;

export interface CreditNote {
  id: string;
  invoice_id: string;
  year: number;
  sequence: number;
  number: string;
  issued_on: string;
  total: string;
  reason: string;
  issued_by: string | null;
  issued_at: Date;
}

export interface InvoicePayment {
  id: string;
  invoice_id: string;
  amount: string;
  method: PaymentMethod;
  booking_payment_id: string;
  folio_line_id: string;
  paid_by: string | null;
  paid_at: Date;
}

export interface InvoiceEmail {
  id: string;
  invoice_id: string;
  to: string;
  requested_by: string | null;
  requested_at: Date;
  sent_at: Date | null;
}

export interface IssueInput {
  folio_id: string;
  line_ids?: string[];
}

export interface PaymentInput {
  amount: string;
  method?: PaymentMethod;
}
