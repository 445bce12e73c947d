import Joi from 'joi';
import { openApiComponent } from '../../platform/http/components';
import { bookingSchema } from '../bookings';
import { credentialHeader } from '../../platform/http/credential-headers';
import { calendarDate, idParams, instant } from '../../platform/http/schemas';
import { REVISION_KINDS } from '../channels';
import { REVISION_OUTCOMES, UNPLACED_REASONS } from './channel-intake.types';
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
  roomTypeId: Joi.string().required(),
  ratePlanId: Joi.string().allow(null).required(),
  checkIn: calendarDate.required(),
  checkOut: calendarDate.required(),
  nights: Joi.object()
    .pattern(calendarDate, Joi.string())
    .required()
    .description('Per night (date) its price at the OTA'),
  amount: Joi.string().allow(null).required(),
  adults: Joi.number().integer().required(),
  children: Joi.number().integer().required(),
}).meta(openApiComponent('ChannelRevisionRoom'));

const revisionFields = {
  id: Joi.string().uuid().required(),
  revision_id: Joi.string().required().description('The revision’s id at the channel'),
  channel_booking_id: Joi.string().required(),
  kind: Joi.string()
    .valid(...REVISION_KINDS)
    .required(),
  outcome: Joi.string()
    .valid(...REVISION_OUTCOMES)
    .required(),
  unplaced_reason: Joi.string()
    .valid(...UNPLACED_REASONS)
    .allow(null)
    .required(),
  unplaced_detail: Joi.string().allow(null).required().description('What refused it, in its words'),
  booking_id: Joi.string().uuid().allow(null).required(),
  ota_name: Joi.string().allow('').required(),
  ota_reservation_code: Joi.string().allow('').required(),
  payment_collect: Joi.string().valid('ota', 'property').required().description('Who takes the guest’s payment'),
  currency: Joi.string().allow(null).required(),
  guest: Joi.object({
    name: Joi.string().allow('').required(),
    surname: Joi.string().allow('').required(),
    mail: Joi.string().allow(null).required(),
    phone: Joi.string().allow(null).required(),
  })
    .required()
    .meta(openApiComponent('ChannelRevisionGuest')),
  rooms: Joi.array().items(revisionRoom).required(),
  channel_at: instant.required().description('The revision’s time at the channel: their order'),
  created_at: instant.required(),
};

export const revisionSchema = Joi.object(revisionFields).meta(openApiComponent('ChannelRevision'));
export const revisionListSchema = Joi.object({ items: Joi.array().items(revisionSchema).required() });
export const placedSchema = Joi.object({
  ...revisionFields,
  booking: bookingSchema,
}).meta(openApiComponent('ChannelRevisionPlaced'));
export const webhookSchema = Joi.object({
  webhook_id: Joi.string().required().description('The webhook’s id at Channex'),
  path: Joi.string().required().description('The route of this service it calls'),
}).meta(openApiComponent('ChannelIntakeWebhook'));
