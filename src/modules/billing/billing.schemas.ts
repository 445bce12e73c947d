import Joi from 'joi';
import { openApiComponent } from '../../platform/http/components';
import { hotelSlug, instant, moneyOut, positiveMoney, signedDecimal } from '../../platform/http/schemas';
import { PAYMENT_METHODS, returnUrl } from '../payments';

export const onlinePaymentSchema = Joi.object({
  id: Joi.string().uuid(),
  hotel_id: Joi.string().uuid(),
  booking_id: Joi.string().uuid(),
  amount: moneyOut,
  currency: Joi.string(),
  status: Joi.string().valid('pending', 'succeeded', 'canceled'),
  provider_payment_id: Joi.string().allow(null),
  confirmation_url: Joi.string().allow(null),
  return_url: Joi.string().allow(null),
  cancel_reason: Joi.string().allow(null),
  ledger_payment_id: Joi.string().uuid().allow(null),
  created_by: Joi.string().uuid().allow(null),
  created_at: Joi.date(),
  updated_at: Joi.date(),
}).meta(openApiComponent('OnlinePayment'));

export const onlinePaymentBody = Joi.object({ amount: positiveMoney, return_url: returnUrl });

/** The provider's notification: only which payment it is about matters, since it is re-read, never believed. */
export const providerNotificationBody = Joi.object({
  type: Joi.string().valid('notification').required(),
  event: Joi.string().max(64).required(),
  object: Joi.object({ id: Joi.string().max(64).required(), payment_id: Joi.string().max(64) })
    .unknown(true)
    .required(),
}).unknown(true);

export const createPaymentBody = Joi.object({
  amount: signedDecimal.required(),
  method: Joi.string()
    .valid(...PAYMENT_METHODS)
    .default('cash'),
  note: Joi.string().trim().max(500).allow(''),
  paid_at: instant,
  workstation_id: Joi.string()
    .uuid()
    .description('The desk where it was taken: its fiscal register prints the receipt (cash or card only)'),
});

export const paymentParams = Joi.object({
  slug: hotelSlug.required(),
  id: Joi.string().uuid().required(),
  paymentId: Joi.string().uuid().required(),
});

export const paymentSchema = Joi.object({
  id: Joi.string().uuid(),
  hotel_id: Joi.string().uuid(),
  booking_id: Joi.string().uuid(),
  amount: moneyOut,
  method: Joi.string().valid(...PAYMENT_METHODS),
  note: Joi.string().allow(''),
  paid_at: Joi.date(),
  created_by: Joi.string().uuid().allow(null),
  created_at: Joi.date(),
}).meta(openApiComponent('BookingPayment'));
