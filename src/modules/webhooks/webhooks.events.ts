import Joi from 'joi';
import { defineHotelEvent } from '../../platform/realtime/events';

export const webhookPaused = defineHotelEvent<{ subscription_id: string; seq: number; reason: string }>(
  'webhook_subscription_paused',
  'A webhook subscription was paused: its receiver failed one event (`seq`) for the whole retry horizon. To the owner and managers only.',
  Joi.object({
    subscription_id: Joi.string().uuid().required(),
    seq: Joi.number().integer().required(),
    reason: Joi.string().allow('').required(),
  }),
);
