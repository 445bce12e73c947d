import Joi from 'joi';
import { openApiComponent } from '../../platform/http/components';
import { pageQueryKeys } from '../../platform/http/pagination';
import { idParams, moneyOut } from '../../platform/http/schemas';
import { MAX_TIERS, TIER_BASES } from './loyalty.rules';

const decimalOut = Joi.string().pattern(/^\d+(\.\d+)?$/);

const tierInput = Joi.object({
  name: Joi.string().trim().min(1).max(50).required(),
  threshold: Joi.number()
    .min(0)
    .max(1e9)
    .precision(2)
    .required()
    .description('Nights (whole) or money in the qualifying window, by `tier_basis`; one tier must start at 0'),
  earn_rate: Joi.number().min(0).max(1000).precision(2).required().description('Points per 100 of a stay’s cost'),
});

export const settingsChanges = Joi.object({
  enabled: Joi.boolean(),
  tier_basis: Joi.string().valid(...TIER_BASES),
  point_value: Joi.number().min(0.01).max(10000).precision(2).description('Money one point takes off a bill'),
  expiry_months: Joi.number()
    .integer()
    .min(1)
    .max(120)
    .allow(null)
    .description('Months an earned point lives; null: never expires'),
  tiers: Joi.array().items(tierInput).min(1).max(MAX_TIERS).description('Replaces the whole list'),
})
  .min(1)
  .messages({ 'object.min': 'at least one field must be given' });

const tierSchema = Joi.object({
  id: Joi.string().uuid(),
  hotel_id: Joi.string().uuid(),
  name: Joi.string(),
  threshold: decimalOut,
  earn_rate: decimalOut,
}).meta(openApiComponent('LoyaltyTier'));

export const settingsSchema = Joi.object({
  hotel_id: Joi.string().uuid(),
  enabled: Joi.boolean(),
  tier_basis: Joi.string().valid(...TIER_BASES),
  point_value: moneyOut,
  expiry_months: Joi.number().integer().allow(null),
  tiers: Joi.array().items(tierSchema).description('By threshold, lowest first'),
  updated_at: Joi.date(),
}).meta(openApiComponent('LoyaltySettings'));

export const entriesQuery = Joi.object(pageQueryKeys);

export const entrySchema = Joi.object({
  id: Joi.string().uuid(),
  guest_id: Joi.string().uuid(),
  points: Joi.number().integer().description('Signed: earned positive, spent or expired negative'),
  reason: Joi.string().valid('stay', 'redemption', 'expiry', 'adjustment'),
  booking_id: Joi.string().uuid().allow(null).description('The stay it was earned on or redeemed against'),
  expired_entry_id: Joi.string().uuid().allow(null).description('For `expiry`: the earned row it closes'),
  reversed_entry_id: Joi.string()
    .uuid()
    .allow(null)
    .description('For a positive `redemption`: the redemption it takes back'),
  amount: moneyOut.allow(null).description('For a negative `redemption`: the money it took off the bill'),
  note: Joi.string().allow(null),
  tier: Joi.string().allow(null).description('For `stay`: the tier whose rate it earned at'),
  stay_nights: Joi.number().integer().allow(null),
  stay_spend: moneyOut.allow(null).description('For `stay`: what the stay cost (price and bill lines)'),
  expires_at: Joi.date().allow(null),
  created_by: Joi.string().uuid().allow(null),
  created_at: Joi.date(),
}).meta(openApiComponent('LoyaltyEntry'));

const tierRef = Joi.object({ name: Joi.string(), threshold: decimalOut, earn_rate: decimalOut })
  .allow(null)
  .meta(openApiComponent('LoyaltyTierRef'));

export const accountSchema = Joi.object({
  guest_id: Joi.string().uuid(),
  enabled: Joi.boolean().description('Whether the hotel runs its programme now'),
  balance: Joi.number().integer().description('The sum of the ledger'),
  balance_value: moneyOut.description('What the balance takes off a bill at the current point value'),
  tier: tierRef,
  next_tier: tierRef,
  qualifying: Joi.object({
    basis: Joi.string().valid(...TIER_BASES),
    nights: Joi.number().integer(),
    spend: moneyOut,
    since: Joi.date(),
    to_next_tier: Joi.number().allow(null).description('Nights or money still needed; null at the top tier'),
  }).meta(openApiComponent('LoyaltyQualifying')),
  next_expiry: Joi.object({ points: Joi.number().integer(), expires_at: Joi.date() })
    .allow(null)
    .meta(openApiComponent('LoyaltyExpiry')),
}).meta(openApiComponent('LoyaltyAccount'));

export const adjustmentBody = Joi.object({
  points: Joi.number().integer().min(-1_000_000).max(1_000_000).invalid(0).required(),
  note: Joi.string().trim().min(1).max(500).required().description('Why: shown in the ledger'),
});

export const redemptionBody = Joi.object({
  points: Joi.number().integer().min(1).max(1_000_000).required(),
});

export const reversalParams = idParams.keys({ entryId: Joi.string().uuid().required() });

export const accrualSchema = Joi.object({
  result: Joi.string()
    .valid('accrued', 'already_accrued', 'no_programme', 'not_eligible')
    .description('`accrued` now, `already_accrued` before, or why not'),
  entry: Joi.alternatives().try(entrySchema, Joi.valid(null)).description("The stay's ledger row, if it has one"),
}).meta(openApiComponent('LoyaltyAccrual'));

export const redemptionSchema = Joi.object({
  entry: entrySchema,
  amount: moneyOut.description('Taken off the bill (negative line)'),
  balance: Joi.number().integer().description("The guest's points left"),
  booking_balance: moneyOut.description('What the booking still owes'),
}).meta(openApiComponent('LoyaltyRedemption'));

export const reversalSchema = Joi.object({
  entry: entrySchema,
  balance: Joi.number().integer().description("The guest's points now"),
  booking_balance: moneyOut.description('What the booking still owes'),
}).meta(openApiComponent('LoyaltyReversal'));
