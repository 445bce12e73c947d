import Joi from 'joi';
import { openApiComponent } from '../../platform/http/components';
import { pageQueryKeys } from '../../platform/http/pagination';
import { calendarDate, dateSpan, MAX_STAY_NIGHTS, money, moneyOut } from '../../platform/http/schemas';
import { bookingSchema } from '../bookings';
import { guestPhoneSchema } from '../guests';
import {
  BLOCK_STATUSES,
  MAX_ALLOTMENT_ITEMS,
  MAX_BLOCK_NIGHTS,
  MAX_PICKUP_GUESTS,
  RELEASE_KINDS,
} from './blocks.types';

/** The most units of one category a block may hold on a night (the category's rooms bound it further). */
const MAX_ROOMS = 1000;
const text = (max: number) => Joi.string().trim().max(max);
const name = Joi.string().trim().min(1).max(100);

const allotmentItem = Joi.object({
  category_id: Joi.string().uuid().required(),
  from: calendarDate.required().description('The first night held'),
  to: calendarDate.required().description('The last night held (inclusive)'),
  rooms: Joi.number()
    .integer()
    .min(0)
    .max(MAX_ROOMS)
    .required()
    .description("Units held each of those nights (at most the category's rooms)"),
}).custom(dateSpan('from', 'to', { maxDays: MAX_BLOCK_NIGHTS - 1 }));

const allotment = Joi.array()
  .items(allotmentItem)
  .max(MAX_ALLOTMENT_ITEMS)
  .description(
    `Per category, ranges of nights and the units held on each (per-night counts may differ: one item per range); ` +
      `at most ${MAX_ALLOTMENT_ITEMS} items, no night of a category twice, at most ${MAX_BLOCK_NIGHTS} nights from ` +
      'the first to the last. Replaces every night the block held.',
  );

const fields = {
  name: text(200).min(1),
  company: text(200).allow(null, ''),
  contact_name: text(200).allow(null, ''),
  contact_phone: guestPhoneSchema.allow(null),
  contact_email: Joi.string().trim().lowercase().email({ tlds: false }).max(254).allow(null),
  tariff_id: Joi.string().uuid().allow(null).description('The tariff its stays are priced by'),
  price_per_night: money.allow(null).description('Or the price of a night of its stays, whatever the category'),
  release_kind: Joi.string()
    .valid(...RELEASE_KINDS)
    .description(
      'When what was not picked up goes back on sale: `none`, `date` (every night at the start of `release_date`, ' +
        'the cut-off, hotel time) or `rolling` (each night at the start of the day `release_days` before it)',
    ),
  release_date: calendarDate.allow(null),
  release_days: Joi.number().integer().min(0).max(365).allow(null),
  notes: text(4000).allow(''),
};

/** A release rule is given whole: its kind, and the one value that kind needs. */
const releaseRule = (body: { release_kind?: string; release_date?: string | null; release_days?: number | null }) => {
  const { release_kind: kind, release_date: date, release_days: days } = body;
  if (kind === undefined) return date === undefined && days === undefined;
  if (kind === 'date') return date != null && days == null;
  if (kind === 'rolling') return days != null && date == null;
  return date == null && days == null;
};

const checkedRelease = (body: Record<string, unknown>, helpers: Joi.CustomHelpers) =>
  releaseRule(body) ? body : helpers.error('blocks.release');
const releaseMessages = {
  'blocks.release':
    'release_kind `date` takes a release_date, `rolling` a release_days, `none` neither; they are given together',
};

export const createBlockBody = Joi.object({
  ...fields,
  name: fields.name.required(),
  status: Joi.string().valid('inquiry', 'tentative', 'definite').default('inquiry'),
  allotment: allotment.min(1).required(),
})
  .oxor('tariff_id', 'price_per_night')
  .custom(checkedRelease)
  .messages(releaseMessages);

export const updateBlockBody = Joi.object({
  ...fields,
  status: Joi.string().valid(...BLOCK_STATUSES),
  allotment: allotment.min(1),
})
  .min(1)
  .oxor('tariff_id', 'price_per_night')
  .custom(checkedRelease)
  .messages(releaseMessages);

export const washBody = Joi.object({
  items: Joi.array()
    .items(allotmentItem.keys({ rooms: Joi.number().integer().min(1).max(MAX_ROOMS).required() }))
    .min(1)
    .max(MAX_ALLOTMENT_ITEMS)
    .required()
    .description('Units taken off each night `from`..`to` of a category'),
});

export const blockListQuery = Joi.object({ status: Joi.string().valid(...BLOCK_STATUSES), ...pageQueryKeys });

export const pickupGuestSchema = Joi.object({
  category_id: Joi.string().uuid().required(),
  check_in: calendarDate.required(),
  check_out: calendarDate.required(),
  room_id: Joi.string().uuid().description("A room of the category; without one it is assigned by the hotel's rule"),
  guest_last_name: name.required(),
  guest_first_name: name.required(),
  guest_middle_name: Joi.string().trim().max(100).allow(null, ''),
  guest_phone: guestPhoneSchema.allow(null),
  guest_email: Joi.string().trim().lowercase().email({ tlds: false }).max(254).allow(null),
  guests_count: Joi.number().integer().min(1).max(100),
  notes: text(4000).allow(''),
}).custom(dateSpan('check_in', 'check_out', { maxDays: MAX_STAY_NIGHTS }));

export const pickupBody = Joi.object({
  guests: Joi.array().items(pickupGuestSchema).min(1).max(MAX_PICKUP_GUESTS).required(),
});

const blockNightSchema = Joi.object({
  category_id: Joi.string().uuid(),
  night: Joi.string(),
  rooms: Joi.number().integer().description('Units held now (after release and wash)'),
  released: Joi.number().integer().description('Units the release took back'),
  washed: Joi.number().integer().description('Units staff took back by hand'),
  picked_up: Joi.number().integer().description("Units the block's stays hold"),
  free: Joi.number().integer().description('Units held and not picked up'),
}).meta(openApiComponent('BlockNight'));

const blockKeys = {
  id: Joi.string().uuid(),
  hotel_id: Joi.string().uuid(),
  name: Joi.string(),
  company: Joi.string().allow(null, ''),
  contact_name: Joi.string().allow(null, ''),
  contact_phone: Joi.string().allow(null),
  contact_email: Joi.string().allow(null),
  status: Joi.string().valid(...BLOCK_STATUSES),
  tariff_id: Joi.string().uuid().allow(null),
  price_per_night: moneyOut.allow(null),
  release_kind: Joi.string().valid(...RELEASE_KINDS),
  release_date: Joi.string().allow(null),
  release_days: Joi.number().integer().allow(null),
  notes: Joi.string().allow(''),
  created_by: Joi.string().uuid().allow(null),
  cancelled_at: Joi.date().allow(null),
  created_at: Joi.date(),
  updated_at: Joi.date(),
};

export const blockSummarySchema = Joi.object(blockKeys).meta(openApiComponent('BlockSummary'));

export const blockSchema = Joi.object(blockKeys)
  .keys({
    nights: Joi.array().items(blockNightSchema),
    bookings: Joi.array()
      .items(
        Joi.object({
          id: Joi.string().uuid(),
          category_id: Joi.string().uuid(),
          room_id: Joi.string().uuid(),
          check_in: Joi.string(),
          check_out: Joi.string(),
          status: Joi.string(),
          guest_last_name: Joi.string(),
          guest_first_name: Joi.string(),
        }).meta(openApiComponent('BlockBooking')),
      )
      .description("The block's stays (they stay when the block is cancelled, as ordinary bookings)"),
  })
  .meta(openApiComponent('Block'));

export const pickupResultSchema = Joi.object({
  block_id: Joi.string().uuid(),
  bookings: Joi.array().items(bookingSchema),
});

export const pickupReportSchema = Joi.array().items(blockNightSchema);
