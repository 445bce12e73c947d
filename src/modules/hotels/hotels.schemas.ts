import Joi from 'joi';

const timeOfDay = Joi.string().pattern(/^([01]\d|2[0-3]):[0-5]\d$/, 'HH:MM');
const timeZones = new Set([...Intl.supportedValuesOf('timeZone'), 'UTC']);
const currencies = Intl.supportedValuesOf('currency');

export const slugParams = Joi.object({ slug: Joi.string().max(80).required() });

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
});

export const updateHotelBody = Joi.object({
  name: Joi.string().trim().min(2).max(200),
  address: Joi.string().trim().min(2).max(500).allow(null),
  phone: Joi.string().trim().min(5).max(50).allow(null),
  timezone: Joi.string()
    .custom((value: string, helpers) => (timeZones.has(value) ? value : helpers.error('any.invalid')))
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
