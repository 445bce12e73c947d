/**
 * The JSON tasks of the ATOL fiscal register driver ("Драйвер ККТ v10", `processJson`) that the desk's agent runs, and
 * the neutral receipt the service describes them from. Money in tasks is a number of roubles (the driver's format);
 * everywhere on our side it is a decimal string with two decimals, as in the rest of the service.
 */

/**
 * VAT rates of an item. `vat105`..`vat122` are the calculated rates (5/105 ... 22/122) that 54-FZ requires for
 * prepayments and advances. `vat22`/`vat122` are the 22% of 2026 (drivers from 10.10.7 know them; an older driver
 * refuses the task with its own words, which the receipt then shows). `vat18`/`vat118` are gone since 2019.
 */
export const ATOL_TAX_TYPES = [
  'none',
  'vat0',
  'vat5',
  'vat7',
  'vat10',
  'vat20',
  'vat22',
  'vat105',
  'vat107',
  'vat110',
  'vat120',
  'vat122',
] as const;
export type AtolTaxType = (typeof ATOL_TAX_TYPES)[number];

/** Taxation systems (tag 1055); `envd` left the law in 2021. */
export const ATOL_TAXATION_TYPES = ['osn', 'usnIncome', 'usnIncomeOutcome', 'esn', 'patent'] as const;
export type AtolTaxationType = (typeof ATOL_TAXATION_TYPES)[number];

/** Settlement method of an item (tag 1214). */
export const ATOL_PAYMENT_METHODS = [
  'fullPrepayment',
  'prepayment',
  'advance',
  'fullPayment',
  'partialPayment',
  'credit',
  'creditPayment',
] as const;
export type AtolPaymentMethod = (typeof ATOL_PAYMENT_METHODS)[number];

/** Settlement object of an item (tag 1212): the ones a hotel's desk meets. */
export const ATOL_PAYMENT_OBJECTS = ['service', 'commodity', 'excise', 'job', 'payment', 'deposit', 'another'] as const;
export type AtolPaymentObject = (typeof ATOL_PAYMENT_OBJECTS)[number];

/** How the receipt was paid (tags 1031, 1081, 1215, 1216, 1217). */
export const ATOL_PAYMENT_TYPES = ['cash', 'electronically', 'prepaid', 'credit', 'other'] as const;
export type AtolPaymentType = (typeof ATOL_PAYMENT_TYPES)[number];

export interface AtolOperator {
  name: string;
  /** The cashier's personal tax number (12 digits). */
  vatin?: string;
}

export interface AtolPosition {
  type: 'position';
  name: string;
  price: number;
  quantity: number;
  amount: number;
  tax: { type: AtolTaxType };
  paymentMethod: AtolPaymentMethod;
  paymentObject: AtolPaymentObject;
}

export interface AtolPayment {
  type: AtolPaymentType;
  sum: number;
}

export type AtolReceiptType = 'sell' | 'sellReturn';

export interface AtolReceiptTask {
  type: AtolReceiptType;
  taxationType: AtolTaxationType;
  operator: AtolOperator;
  /** true: not printed, only sent to `clientInfo` by the fiscal data operator. */
  electronically: boolean;
  clientInfo?: { emailOrPhone: string };
  items: AtolPosition[];
  payments: AtolPayment[];
  total: number;
}

export interface AtolShiftTask {
  type: 'openShift' | 'closeShift';
  operator: AtolOperator;
}

export type AtolTask = AtolReceiptTask | AtolShiftTask;

// ---- the neutral receipt other areas describe -------------------------------------------------------------------

/** VAT rate in percent; whether it is taken as the calculated rate follows from the settlement method. */
export const VAT_RATES = ['none', '0', '5', '7', '10', '20', '22'] as const;
export type VatRate = (typeof VAT_RATES)[number];

export const TAXATION_SYSTEMS = ['osn', 'usn_income', 'usn_income_outcome', 'esn', 'patent'] as const;
export type TaxationSystem = (typeof TAXATION_SYSTEMS)[number];

export const SETTLEMENT_METHODS = [
  'full_prepayment',
  'prepayment',
  'advance',
  'full_payment',
  'partial_payment',
  'credit',
  'credit_payment',
] as const;
export type SettlementMethod = (typeof SETTLEMENT_METHODS)[number];

/** The driver's objects are single words, spelled the same on our side. */
export const SETTLEMENT_OBJECTS = ATOL_PAYMENT_OBJECTS;
export type SettlementObject = AtolPaymentObject;

/** `prepaid`: an advance taken earlier and set off against this receipt. */
export const RECEIPT_PAYMENT_KINDS = ['cash', 'card', 'prepaid'] as const;
export type ReceiptPaymentKind = (typeof RECEIPT_PAYMENT_KINDS)[number];

export interface ReceiptLine {
  name: string;
  /** A decimal string such as `1500.50`, at most two decimals. */
  unitPrice: string;
  /** Positive, at most three decimals (fractions of a unit are allowed by the driver). */
  quantity: number;
  vat: VatRate;
  method: SettlementMethod;
  object: SettlementObject;
}

export interface ReceiptPayment {
  kind: ReceiptPaymentKind;
  /** A decimal string, at most two decimals. */
  amount: string;
}

export interface ReceiptInput {
  operator: AtolOperator;
  taxation: TaxationSystem;
  /** Where the electronic receipt goes (tag 1008); e-mail wins when both are given. */
  customer?: { email?: string; phone?: string };
  lines: ReceiptLine[];
  payments: ReceiptPayment[];
  /**
   * false: with a customer contact, the receipt is only sent electronically and not printed. The default prints it
   * and also sends it when there is a contact.
   */
  print?: boolean;
}

/** The fiscal attributes of a printed receipt, as we keep them (and as the agent answers `fiscal_receipt`). */
export interface FiscalAttributes {
  fiscal_document_number: number;
  /** The fiscal sign (ФПД), digits kept as text: leading zeros matter and it exceeds 32 bits. */
  fiscal_document_sign: string;
  fn_number: string;
  shift_number: number;
  receipt_number: number;
  /** ISO 8601 instant of the fiscal document. */
  datetime: string;
  /** Decimal string, two decimals. */
  total: string;
}
