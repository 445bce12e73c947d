import Joi from 'joi';
import { instant } from '../../platform/http/schemas';
import { NOTIFICATION_ROLES, NOTIFICATION_TYPES } from './notifications.types';
import { openApiComponent } from '../../platform/http/components';

export const MAX_TITLE_LENGTH = 200;
export const MAX_BODY_LENGTH = 2000;

/** What `notify` accepts from other modules (checked, since the title travels in a size-limited event). */
export const notificationInput = Joi.object({
  type: Joi.string()
    .valid(...NOTIFICATION_TYPES)
    .required(),
  title: Joi.string().trim().min(1).max(MAX_TITLE_LENGTH).required(),
  body: Joi.string().trim().max(MAX_BODY_LENGTH).allow('').required(),
  data: Joi.object()
    .pattern(/^[a-z][a-z0-9_]{0,49}$/, Joi.alternatives(Joi.string().max(200), Joi.number(), Joi.boolean()).allow(null))
    .unknown(false)
    .max(20),
  userIds: Joi.array().items(Joi.string().uuid()).max(10000).unique(),
  dedupeKey: Joi.string().max(200),
});

/** What `revise` accepts: a notification's new words, checked as `notify` checks them. */
export const notificationRevision = Joi.object({
  id: Joi.string().uuid().required(),
  title: notificationInput.extract('title'),
  body: notificationInput.extract('body'),
  data: notificationInput.extract('data').required(),
});

/** What `notifyEach` accepts for each user. */
export const personalNotification = Joi.object({
  userId: Joi.string().uuid().required(),
  title: notificationInput.extract('title'),
  body: notificationInput.extract('body'),
  data: notificationInput.extract('data').required(),
});

export const notificationListQuery = Joi.object({
  unread: Joi.boolean().description('true: only unread ones'),
  limit: Joi.number().integer().min(1).max(200).default(50),
  before: instant.description('Only those created strictly before this instant: the `created_at` of the last one seen'),
  before_id: Joi.string()
    .uuid()
    .description(
      'With `before`: the `id` of the last one seen; ones created in the same millisecond are then not skipped',
    ),
}).with('before_id', 'before');

export const markReadBody = Joi.object({ read: Joi.boolean().required() });

const switches = Joi.object(Object.fromEntries(NOTIFICATION_TYPES.map((type) => [type, Joi.boolean()]))).unknown(false);

/** A partial change of the settings: `{ <role>: { <type>: boolean } }`; unknown roles and types are refused. */
export const settingsChangesBody = Joi.object(Object.fromEntries(NOTIFICATION_ROLES.map((role) => [role, switches])))
  .unknown(false)
  .min(1);

const completeSwitches = Joi.object(
  Object.fromEntries(NOTIFICATION_TYPES.map((type) => [type, Joi.boolean().required()])),
);

export const settingsSchema = Joi.object(
  Object.fromEntries(NOTIFICATION_ROLES.map((role) => [role, completeSwitches.required()])),
).meta(openApiComponent('NotificationSettings'));

export const inboxItemSchema = Joi.object({
  id: Joi.string().uuid(),
  type: Joi.string().valid(...NOTIFICATION_TYPES),
  title: Joi.string(),
  body: Joi.string().allow(''),
  data: Joi.object().unknown(true).description('Small ids to link to, e.g. `booking_id`, `room_id`'),
  created_at: Joi.date(),
  read: Joi.boolean().description('Read by you'),
  read_at: Joi.date().allow(null),
}).meta(openApiComponent('Notification'));

export const inboxSchema = Joi.object({
  items: Joi.array().items(inboxItemSchema),
  unread_count: Joi.number().integer().description('All your unread notifications, whatever the filter'),
}).meta(openApiComponent('NotificationInbox'));

export const readAllSchema = Joi.object({ ok: Joi.boolean().valid(true), updated: Joi.number().integer() });
