import Joi from 'joi';
import { GUEST_LANGUAGES, ROOM_ASSIGNMENT_STRATEGIES } from './hotels.settings';
import { openApiComponent } from '../../platform/http/components';
import { REQUISITE_FIELDS } from './hotels.requisites';

/** The seller's requisites of the hotel's invoices: their format is checked by the service (422 naming what is wrong). */
const requisitesBody = Object.fromEntries(
  REQUISITE_FIELDS.map((field) => [
    field,
    Joi.string()
      .trim()
      .min(1)
      .max(['legal_name', 'legal_address', 'bank_name'].includes(field) ? 500 : 40)
      .allow(null),
  ]),
);
const requisitesShown = Object.fromEntries(REQUISITE_FIELDS.map((field) => [field, Joi.string().allow(null)]));

/** Any zone the runtime's time zone database knows, including aliases such as Asia/Kolkata. */
function isTimeZone(value: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: value });
    return value.includes('/') || value === 'UTC';
  } catch {
    return false;
  }
}

const timeOfDay = Joi.string().pattern(/^([01]\d|2[0-3]):[0-5]\d$/, 'HH:MM');
const currencies = Intl.supportedValuesOf('currency');

export const hotelSchema = Joi.object({
  id: Joi.string().uuid(),
  name: Joi.string(),
  slug: Joi.string(),
  address: Joi.string().allow(null),
  phone: Joi.string().allow(null),
  timezone: Joi.string(),
  currency: Joi.string(),
  plan: Joi.string(),
  is_active: Joi.boolean(),
  check_in_time: timeOfDay,
  check_out_time: timeOfDay,
  created_at: Joi.date(),
  updated_at: Joi.date(),
}).meta(openApiComponent('Hotel'));

export const updateHotelBody = Joi.object({
  name: Joi.string().trim().min(2).max(200),
  address: Joi.string().trim().min(2).max(500).allow(null),
  phone: Joi.string().trim().min(5).max(50).allow(null),
  timezone: Joi.string()
    .custom((value: string, helpers) => (isTimeZone(value) ? value : helpers.error('any.invalid')))
    .messages({ 'any.invalid': '"timezone" must be an IANA time zone such as Europe/Moscow' }),
  currency: Joi.string()
    .uppercase()
    .valid(...currencies)
    .messages({ 'any.only': '"currency" must be an ISO 4217 code such as RUB' }),
  check_in_time: timeOfDay,
  check_out_time: timeOfDay,
})
  .min(1)
  .messages({ 'object.min': 'at least one field must be given' });

export const updateSettingsBody = Joi.object({
  check_in_time: timeOfDay,
  check_out_time: timeOfDay,
  early_checkin_enabled: Joi.boolean(),
  late_checkout_enabled: Joi.boolean(),
  no_show_auto_cancel: Joi.boolean(),
  no_show_hours: Joi.number().integer().min(1).max(720),
  auto_checkout: Joi.boolean(),
  auto_checkout_hours: Joi.number().integer().min(0).max(720),
  room_assignment_strategy: Joi.string().valid(...ROOM_ASSIGNMENT_STRATEGIES),
  smtp_host: Joi.string().trim().hostname().max(253).allow(null),
  smtp_port: Joi.number().integer().min(1).max(65535).allow(null),
  smtp_secure: Joi.boolean(),
  smtp_user: Joi.string().trim().max(254).allow(null),
  smtp_password: Joi.string().max(256).allow(null),
  smtp_from: Joi.string().trim().max(254).allow(null),
  guest_language: Joi.string()
    .valid(...GUEST_LANGUAGES)
    .description('The language of the e-mails to guests of online bookings'),
  ...requisitesBody,
})
  .min(1)
  .messages({ 'object.min': 'at least one field must be given' });

export const settingsSchema = Joi.object({
  check_in_time: timeOfDay,
  check_out_time: timeOfDay,
  early_checkin_enabled: Joi.boolean(),
  late_checkout_enabled: Joi.boolean(),
  no_show_auto_cancel: Joi.boolean(),
  no_show_hours: Joi.number().integer(),
  auto_checkout: Joi.boolean(),
  auto_checkout_hours: Joi.number().integer(),
  room_assignment_strategy: Joi.string().valid(...ROOM_ASSIGNMENT_STRATEGIES),
  smtp_host: Joi.string().allow(null),
  smtp_port: Joi.number().integer().allow(null),
  smtp_secure: Joi.boolean(),
  smtp_user: Joi.string().allow(null),
  smtp_from: Joi.string().allow(null),
  smtp_password_set: Joi.boolean(),
  guest_language: Joi.string().valid(...GUEST_LANGUAGES),
  ...requisitesShown,
  updated_at: Joi.date(),
}).meta(openApiComponent('HotelSettings'));
