import Joi from 'joi';

/**
 * A decimal given as a number (rounded to cents, as JSON clients send floats) or as a string (exact: at most two
 * decimals); stored as numeric and sent back as a string.
 */
function decimal(number: Joi.NumberSchema, pattern: RegExp, example: string) {
  return Joi.alternatives()
    .conditional(Joi.string(), { then: Joi.string().pattern(pattern, 'decimal'), otherwise: number.precision(2) })
    .custom((value: number | string | null | undefined) =>
      value === undefined || value === null ? value : String(value),
    )
    .messages({ 'string.pattern.name': `{{#label}} must be a decimal such as ${example}` });
}

/** Money in, as an amount up to 1e9 with at most two decimals. */
export const money = decimal(Joi.number().min(0).max(1e9), /^\d{1,10}(\.\d{1,2})?$/, '1500 or 1500.50');

/** A signed decimal (percent or amount), up to 2 decimals. */
export const signedDecimal = decimal(Joi.number().min(-1e9).max(1e9), /^-?\d{1,10}(\.\d{1,2})?$/, '-10 or 12.5');

/** A percentage from 0 to 100. */
export const percent = decimal(Joi.number().min(0).max(100), /^(100(\.0{1,2})?|\d{1,2}(\.\d{1,2})?)$/, '10 or 12.5');

function isCalendarDate(value: string): boolean {
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value);
}

/** A calendar date `YYYY-MM-DD` (no time, no zone): nights and seasons are days of the hotel's calendar. */
export const calendarDate = Joi.string()
  .pattern(/^\d{4}-\d{2}-\d{2}$/, 'YYYY-MM-DD')
  .custom((value: string, helpers) => (isCalendarDate(value) ? value : helpers.error('any.invalid')))
  .messages({ 'any.invalid': '{{#label}} must be a real calendar date (YYYY-MM-DD)' });

/** An instant with its offset, e.g. `2026-12-01T22:00:00+03:00`. */
export const instant = Joi.date().iso();

export const photoList = Joi.array()
  .items(
    Joi.string()
      .uri({ scheme: ['http', 'https'] })
      .max(500),
  )
  .max(20);

export const idParams = Joi.object({ slug: Joi.string().max(80).required(), id: Joi.string().uuid().required() });

export const okResponse = Joi.object({ ok: Joi.boolean().valid(true).required() });
