import Joi from 'joi';
import { VAT_RATES } from '../../integrations/atol';
import { openApiComponent } from '../../platform/http/components';
import { calendarDate, moneyOut, positiveMoney } from '../../platform/http/schemas';
import { INVOICE_STATUSES, MAX_INVOICE_LINES, MAX_REASON, PAYMENT_METHODS, PAYMENT_STATUSES } from './invoices.types';

export const issueBody = Joi.object({
  folio_id: Joi.string().uuid().required().description('The folio invoiced: its payer is the invoice’s'),
  line_ids: Joi.array()
    .items(Joi.string().uuid())
    .min(1)
    .max(MAX_INVOICE_LINES)
    .description('Lines of that folio to invoice; without: every charge of it on no live invoice'),
});

export const listQuery = Joi.object({
  booking_id: Joi.string().uuid(),
  year: Joi.number().integer().min(2000).max(2200),
  limit: Joi.number().integer().min(1).max(200).default(50),
});

export const emailBody = Joi.object({
  to: Joi.string().trim().lowercase().email({ tlds: false }).max(254).required(),
});

export const cancelBody = Joi.object({
  reason: Joi.string().trim().min(1).max(MAX_REASON).required(),
});

export const paymentBody = Joi.object({
  amount: positiveMoney.required().description('Roubles; at most what is left to pay'),
  method: Joi.string()
    .valid(...PAYMENT_METHODS)
    .description('Default `bank_transfer`, the only one taken here: cash and cards are the desk’s (422)'),
});

const party = (fields: Record<string, Joi.Schema>) => Joi.object(fields);
const nullableText = Joi.string().allow(null);

export const creditNoteSchema = Joi.object({
  id: Joi.string().uuid(),
  invoice_id: Joi.string().uuid(),
  year: Joi.number().integer(),
  sequence: Joi.number().integer(),
  number: Joi.string().description('`CN-<year>-<sequence>`: its own gapless series per hotel and year'),
  issued_on: calendarDate,
  total: moneyOut,
  reason: Joi.string(),
  issued_by: Joi.string().uuid().allow(null),
  issued_at: Joi.date(),
}).meta(openApiComponent('CreditNote'));

const invoicePaymentSchema = Joi.object({
  id: Joi.string().uuid(),
  invoice_id: Joi.string().uuid(),
  amount: moneyOut,
  method: Joi.string().valid(...PAYMENT_METHODS),
  booking_payment_id: Joi.string().uuid().description('Its row in the booking’s payment ledger (method `transfer`)'),
  folio_line_id: Joi.string().uuid().description('The `payment` line the ledger posted, on the invoice’s folio'),
  paid_by: Joi.string().uuid().allow(null),
  paid_at: Joi.date(),
}).meta(openApiComponent('InvoicePayment'));

export const emailSchema = Joi.object({
  id: Joi.string().uuid(),
  invoice_id: Joi.string().uuid(),
  to: Joi.string(),
  requested_by: Joi.string().uuid().allow(null),
  requested_at: Joi.date(),
  sent_at: Joi.date().allow(null),
}).meta(openApiComponent('InvoiceEmail'));

const invoiceLineSchema = Joi.object({
  id: Joi.string().uuid(),
  folio_line_id: Joi.string().uuid(),
  position: Joi.number().integer(),
  description: Joi.string(),
  business_date: calendarDate,
  amount: moneyOut,
  vat_rate: Joi.string().valid(...VAT_RATES),
  vat_amount: moneyOut.description('The VAT the amount includes'),
}).meta(openApiComponent('InvoiceLine'));

export const invoiceSchema = Joi.object({
  id: Joi.string().uuid(),
  booking_id: Joi.string().uuid(),
  folio_id: Joi.string().uuid(),
  year: Joi.number().integer(),
  number: Joi.string().description('`<year>-<sequence>`, gapless per hotel and calendar year'),
  issued_on: calendarDate,
  seller: party({
    hotel_name: Joi.string(),
    legal_name: nullableText,
    inn: nullableText,
    kpp: nullableText,
    legal_address: nullableText,
    bank_name: nullableText,
    bik: nullableText,
    settlement_account: nullableText,
    correspondent_account: nullableText,
  }).description('The hotel’s requisites as they were at issue'),
  payer: party({
    kind: Joi.string().valid('guest', 'company'),
    name: Joi.string(),
    inn: nullableText,
  }).description('The folio’s payer as it was at issue'),
  total: moneyOut,
  vat_total: moneyOut,
  paid_amount: moneyOut,
  status: Joi.string().valid(...INVOICE_STATUSES),
  payment_status: Joi.string().valid(...PAYMENT_STATUSES),
  issued_by: Joi.string().uuid().allow(null),
  issued_at: Joi.date(),
  lines: Joi.array().items(invoiceLineSchema),
  vat: Joi.array().items(
    Joi.object({ vat_rate: Joi.string().valid(...VAT_RATES), amount: moneyOut, vat_amount: moneyOut }),
  ),
  credit_note: Joi.alternatives()
    .try(creditNoteSchema, Joi.valid(null))
    .description('The credit note that cancelled it'),
  payments: Joi.array().items(invoicePaymentSchema),
  emails: Joi.array().items(emailSchema),
}).meta(openApiComponent('Invoice'));

export const invoiceListSchema = Joi.array().items(invoiceSchema);
export const paidSchema = Joi.object({ payment: invoicePaymentSchema, invoice: invoiceSchema });
