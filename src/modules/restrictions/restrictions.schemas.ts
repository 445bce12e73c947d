import Joi from 'joi';
import { openApiComponent } from '../../platform/http/components';
import { calendarDate, dateSpan, daysBetween } from '../../platform/http/schemas';
import {
  ADVANCE_FIELDS,
  COUNT_FIELDS,
  FIRST_NIGHT,
  FLAG_FIELDS,
  LAST_NIGHT,
  MAX_ADVANCE_DAYS,
  MAX_COUNT,
  MAX_READ_NIGHTS,
  MAX_READ_NIGHTS_ALL,
  MAX_WRITE_ITEMS,
  MAX_WRITE_NIGHTS,
  RESTRICTION_FIELDS,
} from './restrictions.types';

const night = calendarDate
  .custom((value: string, helpers) =>
    value < FIRST_NIGHT || value > LAST_NIGHT ? helpers.error('date.restrictions') : value,
  )
  .messages({ 'date.restrictions': `{{#label}} must be between ${FIRST_NIGHT} and ${LAST_NIGHT}` });

const count = Joi.number().integer().min(1).max(MAX_COUNT).allow(null);
const advance = Joi.number().integer().min(0).max(MAX_ADVANCE_DAYS).allow(null);
const flag = Joi.boolean().allow(null);

const fieldValues = {
  ...Object.fromEntries(COUNT_FIELDS.map((field) => [field, count])),
  ...Object.fromEntries(FLAG_FIELDS.map((field) => [field, flag])),
  ...Object.fromEntries(ADVANCE_FIELDS.map((field) => [field, advance])),
};

const writeItem = Joi.object({
  category_id: Joi.string().uuid().required(),
  tariff_id: Joi.string().uuid().allow(null).description('None: every tariff of the category'),
  from: night.required(),
  to: night.required().description('The last night written (inclusive)'),
  weekdays: Joi.array()
    .items(Joi.number().integer().min(1).max(7))
    .min(1)
    .max(7)
    .unique()
    .description('ISO weekdays of the nights written (1 Monday .. 7 Sunday); default every day'),
  ...fieldValues,
})
  .or(...RESTRICTION_FIELDS)
  .custom(dateSpan('from', 'to', { maxDays: MAX_WRITE_NIGHTS - 1 }))
  .custom((item: Record<string, number | null | undefined>, helpers) => {
    const above = (low: string, high: string) => item[low] != null && item[high] != null && item[low]! > item[high]!;
    if (above('min_stay_arrival', 'max_stay'))
      return helpers.error('restrictions.contradiction', { low: 'min_stay_arrival', high: 'max_stay' });
    if (above('min_advance_days', 'max_advance_days'))
      return helpers.error('restrictions.contradiction', { low: 'min_advance_days', high: 'max_advance_days' });
    return item;
  })
  .messages({ 'restrictions.contradiction': '{{#label}}: {{#low}} may not exceed {{#high}}' });

export const writeRestrictionsBody = Joi.object({
  items: Joi.array().items(writeItem).min(1).max(MAX_WRITE_ITEMS).required(),
});

export const writeResultSchema = Joi.object({
  items: Joi.number().integer().description('Items written'),
  nights: Joi.number().integer().description('Nights of a category and tariff set or cleared'),
});

export const restrictionsQuery = Joi.object({
  from: night.required(),
  to: night.required().description('The last night read (inclusive)'),
  category_id: Joi.string().uuid(),
  tariff_id: Joi.string().uuid().description("Only this tariff's own restrictions"),
})
  .custom(dateSpan('from', 'to', { maxDays: MAX_READ_NIGHTS - 1 }))
  // The answer is bounded: every category's nights over a month at most, one category's over a year.
  .custom((query: { from: string; to: string; category_id?: string }, helpers) =>
    !query.category_id && daysBetween(query.from, query.to) >= MAX_READ_NIGHTS_ALL
      ? helpers.error('restrictions.wideRead')
      : query,
  )
  .messages({
    'restrictions.wideRead': `a read over more than ${MAX_READ_NIGHTS_ALL} nights must name a category_id`,
  });

/** A night and the value of each restriction on it, as answers show them. */
export const restrictionNightKeys = {
  night: Joi.string(),
  ...Object.fromEntries(COUNT_FIELDS.map((field) => [field, Joi.number().integer().allow(null)])),
  ...Object.fromEntries(FLAG_FIELDS.map((field) => [field, Joi.boolean()])),
  ...Object.fromEntries(ADVANCE_FIELDS.map((field) => [field, Joi.number().integer().allow(null)])),
};

export const restrictionNightSchema = Joi.object({
  category_id: Joi.string().uuid(),
  tariff_id: Joi.string().uuid().allow(null).description('None: every tariff of the category'),
  ...restrictionNightKeys,
}).meta(openApiComponent('RestrictionNight'));

/** A restriction a stay breaks, as a refusal and an offer name it. */
export const brokenRestrictionSchema = Joi.object({
  restriction: Joi.string().valid(...RESTRICTION_FIELDS),
  night: Joi.string().description('The night it is set on (the departure day for `closed_to_departure`)'),
  value: Joi.alternatives(Joi.number(), Joi.boolean()),
}).meta(openApiComponent('BrokenRestriction'));

/** What an answer offering a stay says of it: sellable or not, why, and the nearest shifts that can be sold. */
export const stayVerdictKeys = {
  sellable: Joi.boolean().description('The stay can be sold: rooms are free and it breaks no restriction'),
  restrictions: Joi.array()
    .items(brokenRestrictionSchema)
    .description('The restrictions the stay breaks, by night then restriction (empty when none)'),
  alternatives: Joi.array()
    .items(Joi.object({ check_in: Joi.string(), check_out: Joi.string() }).meta(openApiComponent('StayDates')))
    .description(
      'When not sellable: the same stay shifted by up to 3 days either way that can be sold, closest first ' +
        '(earlier first on a tie, never in the past). Split stays are not offered yet',
    ),
};
