import type { AtolReceiptTask, FiscalAttributes, ReceiptInput } from '../../integrations/atol';

/** What the money was: a booking's payment at the desk, a deposit's captured part, or money given back. */
export const SOURCE_KINDS = ['booking_payment', 'deposit_capture', 'refund'] as const;
export type SourceKind = (typeof SOURCE_KINDS)[number];

export const RECEIPT_OPERATIONS = ['sell', 'sellReturn'] as const;
export type ReceiptOperation = (typeof RECEIPT_OPERATIONS)[number];

export const RECEIPT_STATUSES = ['pending', 'printed', 'failed'] as const;
export type ReceiptStatus = (typeof RECEIPT_STATUSES)[number];

export interface FiscalReceipt {
  id: string;
  hotel_id: string;
  workstation_id: string;
  device_id: string;
  source_kind: SourceKind;
  source_id: string;
  operation: ReceiptOperation;
  status: ReceiptStatus;
  total: string;
  /** The ATOL driver task sent to the desk. */
  task: AtolReceiptTask;
  fiscal: FiscalAttributes | null;
  error_code: string | null;
  error_message: string | null;
  created_at: Date;
  updated_at: Date;
}

/** A receipt to print for one source at one desk's register. */
export interface PrepareReceipt {
  source_kind: SourceKind;
  source_id: string;
  operation: ReceiptOperation;
  workstation_id: string;
  device_id: string;
  receipt: ReceiptInput;
}

export interface ReceiptFailure {
  code: string;
  message: string;
}

export interface FiscalReceiptFilter {
  status?: ReceiptStatus;
  source_kind?: SourceKind;
  /** Calendar dates of `created_at` in the hotel's time zone, both inclusive. */
  from?: string;
  to?: string;
}
