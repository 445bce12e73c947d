import Joi from 'joi';
import { defineHotelEvent } from '../../platform/realtime/events';
import { NOTIFICATION_TYPES, type NotificationType } from './notifications.types';

/** The event travels by pg_notify (8000 bytes at most): beyond this many recipients, clients not listed refresh. */
export const EVENT_MAX_RECIPIENT_IDS = 150;

export const notificationCreated = defineHotelEvent<{
  notification_id: string;
  type: NotificationType;
  title: string;
  recipient_ids: string[];
  recipients_truncated: boolean;
}>(
  'notification:new',
  'An in-app notification was created; a client shows it when its user id is in `recipient_ids` (and refreshes its ' +
    'list when `recipients_truncated` is true and it is not listed).',
  Joi.object({
    notification_id: Joi.string().uuid().required(),
    type: Joi.string()
      .valid(...NOTIFICATION_TYPES)
      .required(),
    title: Joi.string().required(),
    recipient_ids: Joi.array().items(Joi.string().uuid()).max(EVENT_MAX_RECIPIENT_IDS).required(),
    recipients_truncated: Joi.boolean().required(),
  }),
);
