import Joi from 'joi';

/**
 * A decimal given as a number (rounded to cents, as JSON clients send floats) or as a string (exact: at most two
 * decimals), within [min, max] either way; stored as numeric and sent back as a string.
 */
function decimal(min: number, max: number, pattern: RegExp, example: string) {
  return Joi.alternatives()
    .conditional(Joi.string(), {
      then: Joi.string().pattern(pattern, 'decimal'),
      otherwise: Joi.number().min(min).max(max).precision(2),
    })
    .custom((value: number | string | null | undefined, helpers) => {
      if (value === undefined || value === null) return value;
      const amount = Number(value);
      return amount >= min && amount <= max ? String(value) : helpers.error('decimal.range', { min, max });
    })
    .messages({
      'string.pattern.name': `{{#label}} must be a decimal such as ${example}`,
      'decimal.range': '{{#label}} must be between {{#min}} and {{#max}}',
    });
}

/** Money out: as PostgreSQL's numeric(12,2) gives it, a string with two decimals. */
export const moneyOut = Joi.string().pattern(/^-?\d+\.\d{2}$/);

/** Money in, as an amount up to 1e9 with at most two decimals. */
export const money = decimal(0, 1e9, /^\d{1,10}(\.\d{1,2})?$/, '1500 or 1500.50');

/** Money in that must be more than nothing (a deposit, a refund, a deduction). */
export const positiveMoney = decimal(0.01, 1e9, /^\d{1,10}(\.\d{1,2})?$/, '1500 or 1500.50');

/** A signed decimal (percent or amount), up to 2 decimals. */
export const signedDecimal = decimal(-1e9, 1e9, /^-?\d{1,10}(\.\d{1,2})?$/, '-10 or 12.5');

/** A percentage from 0 to 100. */
export const percent = decimal(0, 100, /^(100(\.0{1,2})?|\d{1,2}(\.\d{1,2})?)$/, '10 or 12.5');

/**
 * The calendar every date and instant of a request must fall in. Wide enough for any birth date, stay or season, narrow
 * enough that no value overflows a JS Date or PostgreSQL (year 0, +275760) and no range can make the server loop for
 * seconds over its days.
 */
export const FIRST_DAY = '1900-01-01';
export const LAST_DAY = '2200-12-31';

/** The longest stay: nights, or days of an hourly stay. */
export const MAX_STAY_NIGHTS = 365;
/** The longest rate period (two years). */
export const MAX_RATE_SPAN_DAYS = 731;
/** The widest `from`..`to` window a list may ask for (two years). */
export const MAX_WINDOW_DAYS = 731;

const DAY_MS = 86_400_000;

function epochOf(value: string | Date): number {
  return value instanceof Date ? value.getTime() : Date.parse(`${value}T00:00:00Z`);
}

/** Days from `from` to `to` (calendar dates or instants), negative when `to` comes first: arithmetic, no loop. */
export function daysBetween(from: string | Date, to: string | Date): number {
  return (epochOf(to) - epochOf(from)) / DAY_MS;
}

function isCalendarDate(value: string): boolean {
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value);
}

/** A calendar date `YYYY-MM-DD` (no time, no zone): nights and seasons are days of the hotel's calendar. */
export const calendarDate = Joi.string()
  .pattern(/^\d{4}-\d{2}-\d{2}$/, 'YYYY-MM-DD')
  .custom((value: string, helpers) => {
    if (!isCalendarDate(value)) return helpers.error('any.invalid');
    return value >= FIRST_DAY && value <= LAST_DAY ? value : helpers.error('date.calendar');
  })
  .messages({
    'any.invalid': '{{#label}} must be a real calendar date (YYYY-MM-DD)',
    'date.calendar': `{{#label}} must be between ${FIRST_DAY} and ${LAST_DAY}`,
  });

/** An instant with its offset, e.g. `2026-12-01T22:00:00+03:00`, within the same calendar. */
export const instant = Joi.date()
  .iso()
  .min(`${FIRST_DAY}T00:00:00Z`)
  .max(`${LAST_DAY}T23:59:59.999Z`)
  .messages({
    'date.min': `{{#label}} must be between ${FIRST_DAY} and ${LAST_DAY}`,
    'date.max': `{{#label}} must be between ${FIRST_DAY} and ${LAST_DAY}`,
  });

/**
 * An object rule for a range given by two keys: when both are there, `toKey` is at most `maxDays` days after `fromKey`
 * (the refusal names `toKey`). Checked by arithmetic before any service work; whether `toKey` comes after `fromKey`
 * is left to the services, which word it for their kind of range.
 */
export function dateSpan(fromKey: string, toKey: string, { maxDays }: { maxDays: number }) {
  return (value: Record<string, unknown>, helpers: Joi.CustomHelpers) => {
    const from = value[fromKey];
    const to = value[toKey];
    if (!isDateValue(from) || !isDateValue(to) || !(daysBetween(from, to) > maxDays)) return value;
    const { state } = helpers;
    // Joi always gives a custom rule a state it can localize; the types leave both optional.
    const where = state.localize!([...(state.path ?? []), toKey]);
    return helpers.schema.$_createError('custom', value, { from: fromKey, to: toKey, maxDays }, where, helpers.prefs, {
      messages: { custom: '"{{#to}}" must be at most {{#maxDays}} days after "{{#from}}"' },
    });
  };
}

function isDateValue(value: unknown): value is string | Date {
  return typeof value === 'string' || value instanceof Date;
}

export const photoList = Joi.array()
  .items(
    Joi.string()
      .uri({ scheme: ['http', 'https'] })
      .max(500),
  )
  .max(20);

/**
 * The shape of every hotel's slug (lower-case Latin letters, digits and hyphens, as the slug rule makes them): a path
 * segment of another shape names no hotel, and is refused without a database lookup.
 */
export const HOTEL_SLUG_PATTERN = /^[a-z0-9-]{1,80}$/;
export const hotelSlug = Joi.string().pattern(HOTEL_SLUG_PATTERN, 'slug');

/** The path parameters of every hotel route, and of a hotel's record. */
export const slugParams = Joi.object({ slug: hotelSlug.required() });
export const idParams = slugParams.keys({ id: Joi.string().uuid().required() });

export const okResponse = Joi.object({ ok: Joi.boolean().valid(true).required() });
