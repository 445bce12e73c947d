import Joi from 'joi';
import { stayVerdictKeys } from '../restrictions';
import { stayTaxSchema } from '../tourist-tax';
import {
  calendarDate,
  dateSpan,
  instant,
  MAX_RATE_SPAN_DAYS,
  MAX_STAY_NIGHTS,
  MAX_WINDOW_DAYS,
  money,
  moneyOut,
  percent,
  signedDecimal,
} from '../../platform/http/schemas';
import { MAX_OVERRIDE_DAYS, MEAL_PLANS } from './pricing.types';
import { openApiComponent } from '../../platform/http/components';

const tariffFields = {
  name: Joi.string().trim().min(1).max(100),
  description: Joi.string().trim().max(2000).allow(''),
  adjustment_type: Joi.string().valid('percent', 'fixed'),
  adjustment_value: signedDecimal,
  min_nights: Joi.number().integer().min(1).max(365),
  refundable: Joi.boolean(),
  meals: Joi.string().valid(...MEAL_PLANS),
  is_active: Joi.boolean(),
};

/** A percent adjustment stays within -100 % (free) and +1000 %. */
function percentInRange(value: { adjustment_type?: string; adjustment_value?: string }, helpers: Joi.CustomHelpers) {
  const percent = Number(value.adjustment_value ?? 0);
  if ((value.adjustment_type ?? 'percent') === 'percent' && (percent < -100 || percent > 1000)) {
    return helpers.message({ custom: 'a percent adjustment must be between -100 and 1000' });
  }
  return value;
}

export const createTariffBody = Joi.object({ ...tariffFields, name: tariffFields.name.required() }).custom(
  percentInRange,
);
export const updateTariffBody = Joi.object(tariffFields).min(1);
export const tariffListQuery = Joi.object({ is_active: Joi.boolean() });

export const tariffSchema = Joi.object({
  id: Joi.string().uuid(),
  hotel_id: Joi.string().uuid(),
  name: Joi.string(),
  description: Joi.string().allow(''),
  adjustment_type: Joi.string().valid('percent', 'fixed'),
  adjustment_value: moneyOut,
  min_nights: Joi.number().integer(),
  refundable: Joi.boolean(),
  meals: Joi.string().valid(...MEAL_PLANS),
  is_active: Joi.boolean(),
  created_at: Joi.date(),
  updated_at: Joi.date(),
}).meta(openApiComponent('Tariff'));

const periodPrice = Joi.object({
  category_id: Joi.string().uuid().required(),
  price: money.allow(null),
  hourly_price: money.allow(null),
}).or('price', 'hourly_price');

const periodFields = {
  name: Joi.string().trim().min(1).max(100),
  date_from: calendarDate,
  date_to: calendarDate,
  prices: Joi.array().items(periodPrice).min(1).max(200).unique('category_id'),
};

const periodSpan = dateSpan('date_from', 'date_to', { maxDays: MAX_RATE_SPAN_DAYS });

export const createPeriodBody = Joi.object({
  name: periodFields.name.required(),
  date_from: periodFields.date_from.required(),
  date_to: periodFields.date_to.required(),
  prices: periodFields.prices.required(),
}).custom(periodSpan);
export const updatePeriodBody = Joi.object(periodFields).min(1).custom(periodSpan);

export const dateWindowQuery = Joi.object({
  from: calendarDate,
  to: calendarDate,
  category_id: Joi.string().uuid(),
}).custom(dateSpan('from', 'to', { maxDays: MAX_WINDOW_DAYS }));

export const periodSchema = Joi.object({
  id: Joi.string().uuid(),
  hotel_id: Joi.string().uuid(),
  name: Joi.string(),
  date_from: Joi.string(),
  date_to: Joi.string(),
  prices: Joi.array().items(
    Joi.object({ category_id: Joi.string().uuid(), price: moneyOut.allow(null), hourly_price: moneyOut.allow(null) }),
  ),
  created_at: Joi.date(),
  updated_at: Joi.date(),
}).meta(openApiComponent('RatePeriod'));

export const setOverrideBody = Joi.object({
  category_id: Joi.string().uuid().required(),
  date: calendarDate,
  date_from: calendarDate,
  date_to: calendarDate,
  price: money.allow(null),
  hourly_price: money.allow(null),
})
  .xor('date', 'date_from')
  .and('date_from', 'date_to')
  .or('price', 'hourly_price')
  .custom(dateSpan('date_from', 'date_to', { maxDays: MAX_OVERRIDE_DAYS - 1 }));

export const overrideSchema = Joi.object({
  id: Joi.string().uuid(),
  hotel_id: Joi.string().uuid(),
  category_id: Joi.string().uuid(),
  date: Joi.string(),
  price: moneyOut.allow(null),
  hourly_price: moneyOut.allow(null),
  created_at: Joi.date(),
  updated_at: Joi.date(),
}).meta(openApiComponent('RateOverride'));

export const quoteQuery = Joi.object({
  category_id: Joi.string().uuid(),
  room_id: Joi.string().uuid(),
  check_in: calendarDate,
  check_out: calendarDate,
  start_at: instant,
  end_at: instant,
  tariff_id: Joi.string().uuid(),
  discount: percent,
  early_checkin: Joi.boolean().default(false),
  late_checkout: Joi.boolean().default(false),
})
  .xor('category_id', 'room_id')
  .xor('check_in', 'start_at')
  .and('check_in', 'check_out')
  .and('start_at', 'end_at')
  .custom(dateSpan('check_in', 'check_out', { maxDays: MAX_STAY_NIGHTS }))
  .custom(dateSpan('start_at', 'end_at', { maxDays: MAX_STAY_NIGHTS }));

const quoteLine = Joi.object({
  date: Joi.string().required(),
  hour: Joi.number().integer().optional().description('Hourly stays only'),
  starts_at: Joi.string().optional().description('Hourly stays only'),
  source: Joi.string().valid('base', 'period', 'override').required(),
  source_id: Joi.string().uuid().allow(null).required(),
  base_price: moneyOut.required(),
  tariff_adjustment: moneyOut.required(),
  price: moneyOut.required(),
});

export const quoteSchema = Joi.object({
  currency: Joi.string().required(),
  kind: Joi.string().valid('nightly', 'hourly').required(),
  category_id: Joi.string().uuid().required(),
  room_id: Joi.string().uuid().allow(null).required(),
  tariff_id: Joi.string().uuid().allow(null).required(),
  units: Joi.number().integer().required(),
  lines: Joi.array().items(quoteLine).required(),
  subtotal: moneyOut.required(),
  discount_percent: Joi.string().required(),
  discount_amount: moneyOut.required(),
  fees: Joi.array()
    .items(Joi.object({ kind: Joi.string().valid('early_checkin', 'late_checkout'), amount: moneyOut }))
    .required(),
  fees_total: moneyOut.required(),
  total: moneyOut.required(),
  tourist_tax: stayTaxSchema,
  ...stayVerdictKeys,
}).meta(openApiComponent('Quote'));
