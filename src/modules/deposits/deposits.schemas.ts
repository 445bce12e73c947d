import Joi from 'joi';
import { DEPOSIT_KINDS } from '../../../workflows/contracts/deposits';
import { openApiComponent } from '../../platform/http/components';
import { moneyOut, positiveMoney } from '../../platform/http/schemas';
import { consumptionSchema } from '../minibar';
import { returnUrl } from '../payments';
import { DEPOSIT_STATUSES } from './deposits.types';

const uuid = Joi.string().uuid();
const nullableText = Joi.string().allow(null);

const deduction = Joi.object({
  name: Joi.string().trim().min(1).max(100).required(),
  amount: positiveMoney.required(),
});

export const refundSchema = Joi.object({
  id: uuid,
  hotel_id: uuid,
  deposit_id: uuid,
  amount: moneyOut,
  status: Joi.string().valid('pending', 'succeeded', 'failed'),
  provider_refund_id: nullableText,
  failure_reason: nullableText,
  created_by: uuid.allow(null),
  created_at: Joi.date(),
  completed_at: Joi.date().allow(null),
}).meta(openApiComponent('DepositRefund'));

const depositFields = {
  id: uuid,
  hotel_id: uuid,
  booking_id: uuid,
  kind: Joi.string().valid(...DEPOSIT_KINDS),
  status: Joi.string().valid(...DEPOSIT_STATUSES),
  amount: moneyOut,
  currency: Joi.string(),
  captured_amount: moneyOut.description('Kept by the hotel: the deductions of a release'),
  refunded_amount: moneyOut,
  deductions: Joi.array().items(Joi.object({ name: Joi.string(), amount: moneyOut })),
  pending_operation: Joi.string().valid('release', 'cancel', 'refund').allow(null),
  card_last4: nullableText,
  card_brand: nullableText,
  provider_payment_id: nullableText,
  confirmation_url: nullableText.description('Where the guest pays (the provider page), once the payment exists'),
  return_url: nullableText,
  cancel_reason: nullableText,
  guest_email: nullableText,
  created_by: uuid.allow(null),
  confirmed_at: Joi.date().allow(null),
  closed_at: Joi.date().allow(null),
  statement_sent_at: Joi.date().allow(null),
  created_at: Joi.date(),
  updated_at: Joi.date(),
};

export const depositSchema = Joi.object({ ...depositFields, refunds: Joi.array().items(refundSchema) }).meta(
  openApiComponent('Deposit'),
);

export const depositHistorySchema = Joi.object({
  ...depositFields,
  guest_name: Joi.string(),
  room_id: uuid,
  room_number: Joi.string(),
}).meta(openApiComponent('DepositHistoryItem'));

export const createDepositBody = Joi.object({
  kind: Joi.string()
    .valid(...DEPOSIT_KINDS)
    .required(),
  amount: positiveMoney.required(),
  return_url: returnUrl,
  guest_email: Joi.string().trim().lowercase().email({ tlds: false }).max(254),
});

export const releaseBody = Joi.object({ items: Joi.array().items(deduction).max(50).default([]) });

export const refundBody = Joi.object({ amount: positiveMoney });

export const minibarSchema = Joi.object({
  items: Joi.array().items(consumptionSchema),
  total: moneyOut,
});
