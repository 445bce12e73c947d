import type { VatRate } from '../../integrations/atol';

export const LINE_KINDS = [
  'room_night',
  'tourist_tax',
  'room_service',
  'minibar',
  'rental',
  'service',
  'discount',
  'correction',
  'payment',
  'refund',
] as const;
export type LineKind = (typeof LINE_KINDS)[number];

/** What staff may post by hand; every other kind comes from the flow that owns it (nights, payments, orders). */
export const MANUAL_KINDS = ['service', 'discount', 'correction'] as const satisfies readonly LineKind[];
export type ManualKind = (typeof MANUAL_KINDS)[number];

export const PAYER_KINDS = ['guest', 'company'] as const;
export type PayerKind = (typeof PAYER_KINDS)[number];

export const SETTLEMENT_DECISIONS = ['leave_open', 'write_off', 'bill_company'] as const;
export type SettlementDecision = (typeof SETTLEMENT_DECISIONS)[number];

/** A manual line's amount, either sign, at most this many roubles. */
export const MAX_MANUAL_AMOUNT = '1000000.00';
export const MAX_DESCRIPTION = 500;
export const MAX_SOURCE = 200;
export const MAX_COMPANY_FOLIOS = 10;

export interface Folio {
  id: string;
  hotel_id: string;
  booking_id: string;
  payer_kind: PayerKind;
  payer_name: string | null;
  payer_inn: string | null;
  created_by: string | null;
  created_at: Date;
}

/**
 * A line: what the payer owes is positive (nights, tax, charges, refunds given back), what settles it is negative
 * (payments, discounts); the balance is the sum. `posted_by` is the staff member, `posted_via` the flow that wrote it.
 */
export interface FolioLine {
  id: string;
  hotel_id: string;
  folio_id: string;
  kind: LineKind;
  amount: string;
  vat_rate: VatRate;
  business_date: string;
  description: string;
  posted_by: string | null;
  posted_via: string;
  source: string;
  corrects_line_id: string | null;
  created_at: Date;
}

/** A line to post: its `business_date` defaults to the hotel's current one (the day after the last closed). */
export type LineInput = Pick<FolioLine, 'kind' | 'amount' | 'vat_rate' | 'description' | 'source' | 'posted_via'> & {
  business_date?: string;
  posted_by?: string | null;
  corrects_line_id?: string | null;
  /** A payment's, refund's or removed payment's method (`folio_lines.payment_method`, read by the reports). */
  payment_method?: string | null;
};

export interface ManualLineInput {
  kind: ManualKind;
  amount: string;
  vat_rate?: VatRate;
  description: string;
  source?: string;
  folio_id?: string;
  corrects_line_id?: string;
}

export interface CompanyFolioInput {
  payer_name: string;
  payer_inn: string;
}

/** A line as a booking's timeline tells it. */
export type TimelineLine = Pick<
  FolioLine,
  'kind' | 'amount' | 'business_date' | 'description' | 'source' | 'posted_by' | 'created_at'
>;

/** A line's move onto or off a booking's folios, as its timeline tells it. */
export interface TimelineMove {
  kind: LineKind;
  amount: string;
  moved_by: string | null;
  moved_at: Date;
  from_booking_id: string;
  from_payer: PayerKind;
  to_booking_id: string;
  to_payer: PayerKind;
}

export interface LineMove {
  id: string;
  line_id: string;
  from_folio_id: string;
  to_folio_id: string;
  moved_by: string | null;
  moved_at: Date;
}

export interface FolioSettings {
  hotel_id: string;
  closed_through: string | null;
  checkout_needs_settlement: boolean;
  updated_at: Date;
}

export interface Settlement {
  id: string;
  booking_id: string;
  decision: SettlementDecision;
  balance: string;
  note: string | null;
  decided_by: string | null;
  decided_at: Date;
}
