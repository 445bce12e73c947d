import { TAXATION_SYSTEMS, VAT_RATES } from '../../integrations/atol';
import Joi from 'joi';
import { openApiComponent } from '../../platform/http/components';
import { money, moneyOut } from '../../platform/http/schemas';
import { formatMoney, parseMoney } from '../../platform/money';
import {
  CHECKIN_PAYMENT_LEVELS,
  GATEWAY_PROVIDERS,
  HOLD_EXPIRY_ACTIONS,
  PAYMENT_METHODS,
  type DeductionPreset,
} from './payments.types';

const atLeastOneField = { 'object.min': 'at least one field must be given' };
const currencies = Intl.supportedValuesOf('currency');

export const MAX_DEDUCTION_PRESETS = 50;
export const MAX_PRESET_AMOUNTS = 20;

/** A deduction is some money kept: more than zero, in its one spelling with two decimals (`1500.00`). */
const deductionAmount = money
  .custom((value: string, helpers) => {
    const cents = parseMoney(value);
    return cents > 0n ? formatMoney(cents) : helpers.error('amount.positive');
  })
  .messages({ 'amount.positive': '{{#label}} must be greater than 0' });

const deductionPreset = Joi.object<DeductionPreset>({
  name: Joi.string().trim().min(1).max(100).required(),
  amounts: Joi.array().items(deductionAmount).min(1).max(MAX_PRESET_AMOUNTS).required(),
});

const settingsFields = {
  require_payment_checkin: Joi.string().valid(...CHECKIN_PAYMENT_LEVELS),
  release_requires_checkout: Joi.boolean(),
  long_stay_charge_enabled: Joi.boolean(),
  long_stay_threshold_days: Joi.number().integer().min(1).max(365),
  hold_expiry_action: Joi.string().valid(...HOLD_EXPIRY_ACTIONS),
  online_payment_ttl_minutes: Joi.number().integer().min(5).max(10080),
  deduction_presets: Joi.array().items(deductionPreset).max(MAX_DEDUCTION_PRESETS),
  fiscal_taxation: Joi.string().valid(...TAXATION_SYSTEMS),
  fiscal_vat: Joi.string().valid(...VAT_RATES),
  fiscal_vat_room_service: Joi.string().valid(...VAT_RATES),
};

export const updateSettingsBody = Joi.object(settingsFields).min(1).messages(atLeastOneField);

export const settingsSchema = Joi.object({
  hotel_id: Joi.string().uuid(),
  ...settingsFields,
  deduction_presets: Joi.array().items(
    Joi.object({ name: Joi.string(), amounts: Joi.array().items(moneyOut) }).meta(openApiComponent('DeductionPreset')),
  ),
  updated_at: Joi.date(),
}).meta(openApiComponent('PaymentSettings'));

const methodFields = {
  name: Joi.string().trim().min(1).max(100),
  currency: Joi.string()
    .uppercase()
    .valid(...currencies)
    .messages({ 'any.only': '"currency" must be an ISO 4217 code such as RUB' }),
  type: Joi.string().valid(...PAYMENT_METHODS),
  is_active: Joi.boolean(),
  sort_order: Joi.number().integer().min(0).max(10000),
};

export const createMethodBody = Joi.object({
  ...methodFields,
  name: methodFields.name.required(),
  type: methodFields.type.required(),
});

export const updateMethodBody = Joi.object(methodFields).min(1).messages(atLeastOneField);

export const methodListQuery = Joi.object({ is_active: Joi.boolean(), type: methodFields.type });

export const methodSchema = Joi.object({
  id: Joi.string().uuid(),
  hotel_id: Joi.string().uuid(),
  name: Joi.string(),
  currency: Joi.string(),
  type: Joi.string().valid(...PAYMENT_METHODS),
  is_active: Joi.boolean(),
  sort_order: Joi.number().integer(),
  created_at: Joi.date(),
  updated_at: Joi.date(),
}).meta(openApiComponent('PaymentMethod'));

/**
 * Where the provider sends the payer after paying: an http(s) address, kept as the URL parser spells it (`HTTPS://Host`
 * is stored as `https://host/`). Checked by hand rather than with `uri()`: it names no record of ours, and whether its
 * host is public is the service's check.
 */
const RETURN_URL_MAX_LENGTH = 2000;
export const returnUrl = Joi.string()
  .trim()
  .max(RETURN_URL_MAX_LENGTH)
  .custom((value: string, helpers) => {
    const url = URL.parse(value);
    if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) return helpers.error('url.http');
    return url.href.length <= RETURN_URL_MAX_LENGTH
      ? url.href
      : helpers.error('string.max', { limit: RETURN_URL_MAX_LENGTH });
  })
  .messages({ 'url.http': '{{#label}} must be an http or https address' });

const gatewayFields = {
  provider: Joi.string().valid(...GATEWAY_PROVIDERS),
  // YooKassa's shop ids are numbers; the only provider so far.
  shop_id: Joi.string()
    .trim()
    .pattern(/^\d{1,64}$/, 'digits'),
  // Printable characters only: a key pasted with a space or a line break would fail at the provider, not here.
  secret_key: Joi.string()
    .trim()
    .min(1)
    .max(256)
    .pattern(/^[\x21-\x7e]+$/, 'printable characters'),
  auto_confirm_on_payment: Joi.boolean(),
  test_mode: Joi.boolean(),
  is_active: Joi.boolean(),
  return_url: returnUrl.allow(null),
};

export const createGatewayBody = Joi.object({
  ...gatewayFields,
  provider: gatewayFields.provider.required(),
  shop_id: gatewayFields.shop_id.required(),
  secret_key: gatewayFields.secret_key.required(),
});

export const updateGatewayBody = Joi.object(gatewayFields).min(1).messages(atLeastOneField);

export const gatewaySchema = Joi.object({
  id: Joi.string().uuid(),
  hotel_id: Joi.string().uuid(),
  provider: Joi.string().valid(...GATEWAY_PROVIDERS),
  shop_id: Joi.string(),
  secret_key_set: Joi.boolean().valid(true),
  secret_key_hint: Joi.string().description('`…` and the last characters of the secret key (at most 4)'),
  auto_confirm_on_payment: Joi.boolean(),
  test_mode: Joi.boolean(),
  is_active: Joi.boolean(),
  return_url: Joi.string().allow(null),
  created_at: Joi.date(),
  updated_at: Joi.date(),
}).meta(openApiComponent('PaymentGateway'));
