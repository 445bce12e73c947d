import Joi from 'joi';
import { openApiComponent } from '../../platform/http/components';
import { CHANNEL_PROVIDERS } from './channels.types';
import { RECONCILIATION_SAMPLES } from './channels.reconcile';

/** A channel's id (Channex's are UUIDs; another provider's may not be): printable, no spaces. */
const channelId = Joi.string()
  .pattern(/^[\w.:-]+$/, 'id')
  .max(100);
const uuid = Joi.string().uuid();
const apiKey = Joi.string()
  .pattern(/^[\x21-\x7e]+$/, 'printable')
  .min(8)
  .max(200)
  .description('The channel manager’s API key (Channex: `user-api-key`); stored encrypted, never answered');

const roomTypes = Joi.array()
  .items(Joi.object({ room_type_id: channelId.required(), category_id: uuid.required() }))
  .max(200)
  .description('Our room categories and the channel’s room types, one to one');
const ratePlans = Joi.array()
  .items(Joi.object({ rate_plan_id: channelId.required(), tariff_id: uuid.required() }))
  .max(500)
  .description(
    'Our tariffs and the channel’s rate plans; a rate plan sells one room type, which must be mapped (its category ' +
      'gives the rate plan’s rooms and prices)',
  );

const reconciliationSchema = Joi.object({
  at: Joi.date().required(),
  differences: Joi.number()
    .integer()
    .min(0)
    .required()
    .description('Item-days (a room type’s or rate plan’s date) the channel held otherwise than they were sent'),
  samples: Joi.array()
    .items(
      Joi.object({
        kind: Joi.string().valid('availability', 'restrictions').required(),
        item_id: Joi.string().required().description('The room type (availability) or rate plan (restrictions)'),
        date: Joi.string().required(),
        sent: Joi.object().unknown(true).required().description('The differing values as they were sent'),
        held: Joi.object().unknown(true).required().description('The channel’s (a value it did not answer absent)'),
      }),
    )
    .max(RECONCILIATION_SAMPLES)
    .required()
    .description('The first few of them'),
  failed: Joi.string().description(
    'The channel failed or refused to answer what it holds: nothing was compared (the push went on as usual)',
  ),
}).description(
  'The last check of what the channel holds (nightly, or on request); the days that differed were sent again',
);

export const connectBody = Joi.object({
  provider: Joi.string()
    .valid(...CHANNEL_PROVIDERS)
    .required(),
  api_key: apiKey.required(),
  property_id: channelId.required().description('The hotel in the channel manager'),
  room_types: roomTypes.required(),
  rate_plans: ratePlans.required(),
});

export const connectionChanges = Joi.object({
  api_key: apiKey,
  property_id: channelId,
  room_types: roomTypes,
  rate_plans: ratePlans,
}).min(1);

export const connectionSchema = Joi.object({
  id: uuid.required(),
  provider: Joi.string()
    .valid(...CHANNEL_PROVIDERS)
    .required(),
  property_id: Joi.string().required(),
  api_key_hint: Joi.string().required().description('The key’s last four characters'),
  room_types: Joi.array()
    .items(Joi.object({ room_type_id: Joi.string().required(), category_id: uuid.required() }))
    .required(),
  rate_plans: Joi.array()
    .items(
      Joi.object({ rate_plan_id: Joi.string().required(), tariff_id: uuid.required(), room_type_id: Joi.string() }),
    )
    .required(),
  last_synced_at: Joi.date().allow(null).required().description('The last push the channel took'),
  last_error: Joi.string().allow(null).required().description('The last push’s failure, until one succeeds'),
  last_reconciliation: reconciliationSchema.allow(null).required(),
  created_at: Joi.date().required(),
  updated_at: Joi.date().required(),
}).meta(openApiComponent('ChannelConnection'));

export const syncQueuedSchema = Joi.object({ queued: Joi.boolean().valid(true).required() });
