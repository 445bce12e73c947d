import Joi from 'joi';
import { credentialHeader } from '../../platform/http/credential-headers';
import { calendarDate, idParams, instant } from '../../platform/http/schemas';
import { REVISION_KINDS, REVISION_OUTCOMES } from './channel-intake.types';
import { WEBHOOK_TOKEN_HEADER } from './channel-intake.service';

export const webhookHeaders = Joi.object({
  [WEBHOOK_TOKEN_HEADER]: credentialHeader(
    Joi.string().max(200).description('The hotel’s intake token (set as a custom header of the Channex webhook)'),
  ),
}).unknown(true);

/** Channex's webhook payload: only read to answer; the revision is always read from Channex itself. */
export const webhookBody = Joi.object({
  event: Joi.string().max(100),
  property_id: Joi.string().max(100),
  payload: Joi.object({ revision_id: Joi.string().max(100) }).unknown(true),
})
  .unknown(true)
  .description('Channex’s webhook call (`event`, `property_id`, `payload`); its content is not believed');

export const unplacedQuery = Joi.object({
  limit: Joi.number().integer().min(1).max(200).default(50),
  after: instant.description('`created_at` of the last item of the previous page'),
});

export const placeBody = Joi.object({
  room_id: Joi.string().uuid().description('The room to place it in (default: any free room of its category)'),
});

export const revisionParams = idParams;

const revisionRoom = Joi.object({
  roomTypeId: Joi.string(),
  ratePlanId: Joi.string().allow(null),
  checkIn: calendarDate,
  checkOut: calendarDate,
  nights: Joi.object().pattern(calendarDate, Joi.string()).description('Per night (date) its price at the OTA'),
  amount: Joi.string().allow(null),
  adults: Joi.number().integer(),
  children: Joi.number().integer(),
});

export const revisionSchema = Joi.object({
  id: Joi.string().uuid(),
  revision_id: Joi.string().description('The revision’s id at the channel'),
  channel_booking_id: Joi.string(),
  kind: Joi.string().valid(...REVISION_KINDS),
  outcome: Joi.string().valid(...REVISION_OUTCOMES),
  unplaced_reason: Joi.string().valid('no_free_room', 'unmapped_room_type', 'several_rooms', 'refused').allow(null),
  unplaced_detail: Joi.string().allow(null).description('What refused it, in its words'),
  booking_id: Joi.string().uuid().allow(null),
  ota_name: Joi.string().allow(''),
  ota_reservation_code: Joi.string().allow(''),
  payment_collect: Joi.string().valid('ota', 'property').description('Who takes the guest’s payment'),
  currency: Joi.string().allow(null),
  guest: Joi.object({
    name: Joi.string().allow(''),
    surname: Joi.string().allow(''),
    mail: Joi.string().allow(null),
    phone: Joi.string().allow(null),
  }),
  rooms: Joi.array().items(revisionRoom),
  channel_at: instant,
  created_at: instant,
}).label('ChannelRevision');

export const revisionListSchema = Joi.object({ items: Joi.array().items(revisionSchema) });
export const placedSchema = revisionSchema.keys({ booking: Joi.object().unknown(true) }).label('ChannelRevisionPlaced');
export const webhookSchema = Joi.object({
  webhook_id: Joi.string().description('The webhook’s id at Channex'),
  path: Joi.string().description('The route of this service it calls'),
});
