import Joi from 'joi';
import { VAT_RATES } from '../../integrations/atol';
import { openApiComponent } from '../../platform/http/components';
import { calendarDate, dateSpan, moneyOut, percent } from '../../platform/http/schemas';
import { EXEMPTION_CATEGORIES, EXEMPTION_CODES } from './tourist-tax.types';

/** At most this many seasons, each within a year. */
const MAX_SEASONS = 24;
const MAX_SEASON_NIGHTS = 366;

/** A rate as the law bounds it at most (5 % from 2029); each night's year is checked by the service. */
const rate = percent.description('Percent, at most two decimals; at most the legal maximum of each night’s year');

const season = Joi.object({
  from: calendarDate.required(),
  to: calendarDate.required().description('The last night of the season (inclusive)'),
  rate: rate.required(),
})
  .custom(dateSpan('from', 'to', { maxDays: MAX_SEASON_NIGHTS - 1 }))
  .meta(openApiComponent('TouristTaxSeason'));

export const updateSettingsBody = Joi.object({
  enabled: Joi.boolean(),
  rate,
  seasons: Joi.array().items(season).max(MAX_SEASONS).description('Replaces the stored list; seasons may not overlap'),
  vat_rate: Joi.string()
    .valid(...VAT_RATES)
    .allow(null)
    .description('The VAT the lodging prices include (`none`: none); null: the rate of the receipts (`fiscal_vat`)'),
}).min(1);

export const settingsSchema = Joi.object({
  enabled: Joi.boolean(),
  rate: Joi.string().description('Percent, the rate of the nights no season covers'),
  seasons: Joi.array().items(Joi.object({ from: Joi.string(), to: Joi.string(), rate: Joi.string() })),
  vat_rate: Joi.string().allow(null).description('As set; null: the rate of the receipts'),
  prices_include_vat: Joi.boolean(),
  applied_vat_rate: Joi.string()
    .valid(...VAT_RATES)
    .description('The VAT removed from prices to find the base'),
  updated_at: Joi.date(),
}).meta(openApiComponent('TouristTaxSettings'));

export const exemptionBody = Joi.object({
  category: Joi.string()
    .valid(...EXEMPTION_CODES)
    .required()
    .description(
      'Art. 418.4 of the Tax Code: ' +
        Object.entries(EXEMPTION_CATEGORIES)
          .map(([code, name]) => `\`${code}\` (${name})`)
          .join(', '),
    ),
  description: Joi.string()
    .trim()
    .min(1)
    .max(500)
    .allow(null)
    .when('category', { is: 'other_municipal', then: Joi.required().invalid(null) })
    .description('Required for `other_municipal`: the municipal act and category'),
  document_kind: Joi.string()
    .trim()
    .min(1)
    .max(100)
    .required()
    .description('The document named (an ID, a certificate)'),
  document_number: Joi.string().trim().min(1).max(50).required(),
  document_date: calendarDate.required().description('Its date of issue: the first night it covers'),
  valid_until: calendarDate.allow(null).description('The last night it covers; none: every night of the stay'),
});

export const exemptionSchema = Joi.object({
  booking_id: Joi.string().uuid(),
  category: Joi.string().valid(...EXEMPTION_CODES),
  category_name: Joi.string(),
  description: Joi.string().allow(null),
  document_kind: Joi.string(),
  document_number: Joi.string(),
  document_date: Joi.string(),
  valid_until: Joi.string().allow(null),
  recorded_by: Joi.string().uuid().allow(null),
  updated_at: Joi.date(),
}).meta(openApiComponent('TouristTaxExemption'));

const nightTaxSchema = Joi.object({
  date: Joi.string(),
  base: moneyOut.description('The price of the night without VAT'),
  rate: Joi.string().description('Percent applied (0.00: untaxed)'),
  tax: moneyOut,
  exempt: Joi.string()
    .valid(...EXEMPTION_CODES)
    .allow(null),
  minimum: Joi.boolean().description('The stay came below 100 roubles a taxed night: the night bears 100'),
}).meta(openApiComponent('TouristTaxNight'));

export const stayTaxSchema = Joi.object({
  per_night: Joi.array().items(nightTaxSchema),
  total: moneyOut,
})
  .description('The tourist tax (Tax Code ch. 33.1), charged on top of the price; none for an hourly stay')
  .meta(openApiComponent('TouristTax'));

/** A month of the report, `YYYY-MM`. */
export const reportMonth = Joi.string()
  .pattern(/^(20[2-9]\d)-(0[1-9]|1[0-2])$/, 'YYYY-MM')
  .required();
export const reportQuery = Joi.object({ month: reportMonth });

export const reportSchema = Joi.object({
  month: Joi.string(),
  base: moneyOut,
  tax: moneyOut,
  taxable_nights: Joi.number().integer(),
  exempt_nights: Joi.number().integer(),
  exempt_by_category: Joi.array().items(
    Joi.object({ category: Joi.string(), name: Joi.string(), nights: Joi.number().integer(), base: moneyOut }),
  ),
  stays: Joi.number().integer().description('Stays with a night in the month'),
}).meta(openApiComponent('TouristTaxReport'));
