import { invalidRequest } from './errors';
import { parseAmount, toAmount, type Money } from './money';

/** The request bodies of YooKassa's POST endpoints, checked the way YooKassa checks them. */

export interface PaymentRequest {
  amount: Money;
  capture: boolean;
  description?: string;
  metadata: Record<string, string>;
  returnUrl: string;
}

export interface RefundRequest {
  paymentId: string;
  amount: Money;
  description?: string;
}

type Fields = Record<string, unknown>;

const MAX_METADATA_KEYS = 16;
/** The receipt's `customer.phone`: ITU-T E.164, digits only with the country code, at most 15 (`79000000000`). */
const PHONE = /^[1-9]\d{6,14}$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** The values YooKassa documents for an item's `payment_subject` (tag 1212) and `payment_mode` (tag 1214). */
const PAYMENT_SUBJECTS = [
  'commodity',
  'excise',
  'job',
  'service',
  'gambling_bet',
  'gambling_prize',
  'lottery',
  'lottery_prize',
  'intellectual_activity',
  'payment',
  'agent_commission',
  'property_right',
  'non_operating_gain',
  'insurance_premium',
  'sales_tax',
  'resort_fee',
  'composite',
  'another',
  'fine',
  'tax',
  'lien',
  'cost',
  'pension_insurance_without_payouts',
  'pension_insurance_with_payouts',
  'health_insurance_without_payouts',
  'health_insurance_with_payouts',
  'health_insurance',
  'casino',
  'agent_withdrawals',
  'non_marked_excise',
  'marked_excise',
  'marked',
  'non_marked',
];
const PAYMENT_MODES = [
  'full_prepayment',
  'partial_prepayment',
  'advance',
  'full_payment',
  'partial_payment',
  'credit',
  'credit_payment',
];
const MAX_RECEIPT_ITEMS = 100;
const QUANTITY = /^\d{1,9}(\.\d{1,3})?$/;

export function parsePaymentRequest(input: unknown): PaymentRequest {
  const body = fields(input, 'body');
  const amount = parseAmount(body.amount);
  if (body.capture !== undefined && typeof body.capture !== 'boolean') {
    throw invalidRequest('capture must be true or false', 'capture');
  }
  const confirmation = fields(body.confirmation, 'confirmation');
  if (confirmation.type !== 'redirect')
    throw invalidRequest('Only redirect confirmation is supported', 'confirmation.type');
  const returnUrl = text(confirmation, 'return_url', 2048, 'confirmation.return_url');
  if (returnUrl === undefined) throw invalidRequest('return_url is required', 'confirmation.return_url');
  if (!/^https?:$/.test(URL.parse(returnUrl)?.protocol ?? '')) {
    throw invalidRequest('return_url must be an absolute http or https URL', 'confirmation.return_url');
  }
  checkReceipt(body.receipt, amount);
  return {
    amount,
    capture: body.capture === true,
    description: text(body, 'description', 128),
    metadata: metadata(body.metadata),
    returnUrl,
  };
}

/** What a capture takes: all of the held amount, or a part of it. */
export function parseCaptureRequest(input: unknown, held: Money): Money {
  const body = fields(input, 'body');
  let captured = held;
  if (body.amount !== undefined) {
    captured = parseAmount(body.amount);
    sameCurrency(captured, held, 'amount.currency');
    if (captured.minor > held.minor) {
      throw invalidRequest(`The capture amount exceeds the held ${toAmount(held).value}`, 'amount.value');
    }
  }
  checkReceipt(body.receipt, captured);
  return captured;
}

export function parseRefundRequest(input: unknown): RefundRequest {
  const body = fields(input, 'body');
  const paymentId = text(body, 'payment_id', 36);
  if (paymentId === undefined) throw invalidRequest('payment_id is required', 'payment_id');
  const amount = parseAmount(body.amount);
  checkReceipt(body.receipt, amount);
  return { paymentId, amount, description: text(body, 'description', 250) };
}

export function sameCurrency(amount: Money, expected: Money, parameter: string): void {
  if (amount.currency !== expected.currency) {
    throw invalidRequest(`The currency must be ${expected.currency}, as in the payment`, parameter);
  }
}

/** A 54-FZ receipt: a customer to send it to, well-formed items, and items adding up to the amount. */
function checkReceipt(input: unknown, total: Money): void {
  if (input === undefined) return;
  const receipt = fields(input, 'receipt');
  const customer = fields(receipt.customer, 'receipt.customer');
  const email = text(customer, 'email', 256, 'receipt.customer.email');
  if (email !== undefined && !EMAIL.test(email)) {
    throw invalidRequest('Invalid email: an e-mail address is expected', 'receipt.customer.email');
  }
  const phone = text(customer, 'phone', 15, 'receipt.customer.phone');
  if (phone !== undefined && !PHONE.test(phone)) {
    throw invalidRequest('Invalid phone: ITU-T E.164 digits without "+" are expected', 'receipt.customer.phone');
  }
  if (email === undefined && phone === undefined) {
    throw invalidRequest('The receipt needs the customer email or phone', 'receipt.customer');
  }
  text(customer, 'full_name', 256, 'receipt.customer.full_name');
  const items = receipt.items;
  if (!Array.isArray(items) || items.length === 0 || items.length > MAX_RECEIPT_ITEMS) {
    throw invalidRequest(`The receipt needs 1 to ${MAX_RECEIPT_ITEMS} items`, 'receipt.items');
  }
  const sum = items.reduce<number>((subtotal, item, index) => subtotal + itemTotal(item, index, total), 0);
  if (sum !== total.minor) {
    throw invalidRequest(
      `The receipt items add up to ${toAmount({ minor: sum, currency: total.currency }).value}, ` +
        `not to the amount ${toAmount(total).value}`,
      'receipt.items',
    );
  }
}

function itemTotal(input: unknown, index: number, total: Money): number {
  const at = `receipt.items[${index}]`;
  const item = fields(input, at);
  if (text(item, 'description', 128, `${at}.description`) === undefined) {
    throw invalidRequest('The item needs a description', `${at}.description`);
  }
  const quantity = typeof item.quantity === 'number' ? String(item.quantity) : item.quantity;
  if (typeof quantity !== 'string' || !QUANTITY.test(quantity) || Number(quantity) <= 0) {
    throw invalidRequest('The quantity must be a positive number with at most three decimals', `${at}.quantity`);
  }
  const price = parseAmount(item.amount, `${at}.amount`);
  sameCurrency(price, total, `${at}.amount.currency`);
  if (!Number.isInteger(item.vat_code) || (item.vat_code as number) < 1 || (item.vat_code as number) > 12) {
    throw invalidRequest('vat_code must be an integer from 1 to 12', `${at}.vat_code`);
  }
  oneOf(item, 'payment_subject', PAYMENT_SUBJECTS, `${at}.payment_subject`);
  oneOf(item, 'payment_mode', PAYMENT_MODES, `${at}.payment_mode`);
  const milliUnits = Math.round(Number(quantity) * 1000);
  return Math.round((price.minor * milliUnits) / 1000);
}

function fields(input: unknown, parameter: string): Fields {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) {
    throw invalidRequest(`${parameter} must be an object`, parameter);
  }
  return input as Fields;
}

function text(body: Fields, key: string, maxLength: number, parameter = key): string | undefined {
  const value = body[key];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value.length === 0 || value.length > maxLength) {
    throw invalidRequest(`${key} must be a string of 1 to ${maxLength} characters`, parameter);
  }
  return value;
}

function oneOf(body: Fields, key: string, values: string[], parameter: string): void {
  const value = body[key];
  if (value !== undefined && !values.includes(value as string)) {
    throw invalidRequest(`${key} must be one of the values YooKassa documents`, parameter);
  }
}

function metadata(input: unknown): Record<string, string> {
  if (input === undefined) return {};
  const entries = Object.entries(fields(input, 'metadata'));
  if (entries.length > MAX_METADATA_KEYS) {
    throw invalidRequest(`metadata holds at most ${MAX_METADATA_KEYS} keys`, 'metadata');
  }
  for (const [key, value] of entries) {
    if (typeof value !== 'string' || key.length > 32 || value.length > 512) {
      throw invalidRequest('metadata values are strings of at most 512 characters, keys at most 32', `metadata.${key}`);
    }
  }
  return Object.fromEntries(entries) as Record<string, string>;
}
