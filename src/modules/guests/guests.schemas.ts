import Joi from 'joi';
import { pageQueryKeys } from '../../platform/http/pagination';
import { calendarDate } from '../../platform/http/schemas';
import { openApiComponent } from '../../platform/http/components';

/**
 * Today's date where the calendar is furthest ahead (UTC+14): a date is "not in the future" when it is not after it,
 * so a hotel in any time zone can enter its own today.
 */
export function latestToday(now = Date.now()): string {
  return new Date(now + 14 * 3_600_000).toISOString().slice(0, 10);
}

const EARLIEST_DATE = '1900-01-01';

const birthDate = calendarDate
  .custom((value: string, helpers) =>
    value < EARLIEST_DATE || value >= latestToday() ? helpers.error('guest.birthDate') : value,
  )
  .messages({ 'guest.birthDate': `{{#label}} must be a date in the past (from ${EARLIEST_DATE})` });

const issueDate = calendarDate
  .custom((value: string, helpers) =>
    value < EARLIEST_DATE || value > latestToday() ? helpers.error('guest.issueDate') : value,
  )
  .messages({ 'guest.issueDate': `{{#label}} must be a date not in the future (from ${EARLIEST_DATE})` });

/** A phone as staff type it: digits, spaces, ( ) . - and a leading +, with at least 5 digits. */
export const phone = Joi.string()
  .trim()
  .min(5)
  .max(30)
  .pattern(/^\+?[\d\s().-]+$/, 'phone')
  .custom((value: string, helpers) => (value.replace(/\D/g, '').length >= 5 ? value : helpers.error('guest.phone')))
  .messages({
    'string.pattern.name': '{{#label}} must be a phone number: digits, spaces, ( ) . - and a leading +',
    'guest.phone': '{{#label}} must contain at least 5 digits',
  });

const name = Joi.string().trim().min(1).max(100);
/** An optional text: `''` and `null` both leave it empty. */
const optionalText = (max: number) => Joi.string().trim().max(max).allow(null, '');

const guestFields = {
  last_name: name,
  first_name: name,
  middle_name: optionalText(100),
  phone: phone.allow(null, ''),
  email: Joi.string().trim().lowercase().email({ tlds: false }).max(254).allow(null, ''),
  birth_date: birthDate.allow(null),
  citizenship: optionalText(100),
  passport_series: optionalText(20),
  passport_number: optionalText(30),
  passport_issued_by: optionalText(300),
  passport_issue_date: issueDate.allow(null),
  notes: Joi.string().trim().max(2000).allow(''),
  is_blacklisted: Joi.forbidden().messages({
    // Braces start a joi template (`{id}` would be read as a reference and print empty): escaped to stay text.
    'any.unknown': '{{#label}} is set with POST /api/hotels/\\{slug}/guests/\\{id}/blacklist (hotel_admin, manager)',
  }),
};

export const createGuestBody = Joi.object({
  ...guestFields,
  last_name: name.required(),
  first_name: name.required(),
});

export const updateGuestBody = Joi.object(guestFields).min(1);

export const guestListQuery = Joi.object({
  q: Joi.string()
    .trim()
    .max(100)
    .allow('')
    .description('Name parts (every word must match), phone digits in any format, or part of the e-mail'),
  blacklisted: Joi.boolean(),
  ...pageQueryKeys,
});

export const blacklistBody = Joi.object({
  is_blacklisted: Joi.boolean().required(),
  reason: Joi.string()
    .trim()
    .max(500)
    .allow(null, '')
    .description('Why the guest is blacklisted; required when blacklisting (400 without it)'),
});

export const guestSchema = Joi.object({
  id: Joi.string().uuid(),
  hotel_id: Joi.string().uuid(),
  last_name: Joi.string(),
  first_name: Joi.string(),
  middle_name: Joi.string().allow(null),
  phone: Joi.string().allow(null),
  email: Joi.string().allow(null),
  birth_date: Joi.string().allow(null).description('YYYY-MM-DD'),
  citizenship: Joi.string().allow(null),
  passport_series: Joi.string().allow(null),
  passport_number: Joi.string().allow(null),
  passport_issued_by: Joi.string().allow(null),
  passport_issue_date: Joi.string().allow(null).description('YYYY-MM-DD'),
  passport_on_file: Joi.boolean().description(
    'Whether passport data is stored; the passport fields themselves are shown only to hotel_admin, manager ' +
      'and receptionist (null for other roles)',
  ),
  notes: Joi.string().allow(''),
  is_blacklisted: Joi.boolean(),
  blacklist_reason: Joi.string().allow(null),
  blacklisted_at: Joi.date().allow(null),
  blacklisted_by: Joi.string().uuid().allow(null).description('The staff member who blacklisted the guest'),
  created_at: Joi.date(),
  updated_at: Joi.date(),
}).meta(openApiComponent('Guest'));
