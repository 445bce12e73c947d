import Joi from 'joi';
import { openApiComponent } from '../../platform/http/components';
import { idParams, instant } from '../../platform/http/schemas';
import { WEBHOOK_EVENT_TYPES } from './webhooks.types';

/** A URL with credentials (`user:pass@`) is refused: they would be stored and shown in clear. */
const noUserinfo = (value: string, helpers: Joi.CustomHelpers) => {
  const url = URL.parse(value);
  return url && (url.username || url.password) ? helpers.message({ custom: webhookUserinfoMessage }) : value;
};
export const webhookUserinfoMessage = 'Адрес получателя не должен содержать имя пользователя или пароль';

const endpoint = Joi.string()
  .uri({ scheme: ['https', 'http'] })
  .max(2000)
  .custom(noUserinfo)
  .description(
    'Where events are POSTed; an address inside this service’s networks, or with credentials, is refused (400)',
  );
const eventTypes = Joi.array()
  .items(Joi.string().valid(...WEBHOOK_EVENT_TYPES))
  .min(1)
  .max(WEBHOOK_EVENT_TYPES.length)
  .description('The event types wanted (those of `/ws` that are hotel-wide business facts)');

export const subscriptionBody = Joi.object({ endpoint: endpoint.required(), event_types: eventTypes.required() });
export const subscriptionChanges = Joi.object({ endpoint, event_types: eventTypes }).min(1);
export const subscriptionParams = idParams;

export const replayBody = Joi.object({
  from_seq: Joi.number().integer().min(1).max(Number.MAX_SAFE_INTEGER).description('Deliver again from this seq on'),
  from_time: instant.description('Deliver again from the first event at or after this instant'),
})
  .xor('from_seq', 'from_time')
  .description(
    'Moves the cursor back only (a later seq or time leaves it where it is). `from_time` further than 30 days back, ' +
      'or a `from_seq` no longer kept, is refused (422 `replay_too_old`); a `from_time` before the oldest kept ' +
      'event starts at that event.',
  );

const limit = (max: number) => Joi.number().integer().min(1).max(max).default(50);

export const deliveriesQuery = Joi.object({
  limit: limit(200),
  before: Joi.number().integer().min(1).max(Number.MAX_SAFE_INTEGER).description('`next_before` of the previous page'),
});

export const feedQuery = Joi.object({
  after: Joi.number()
    .integer()
    .min(0)
    .max(Number.MAX_SAFE_INTEGER)
    .default(0)
    .description(
      'The last `seq` received (`next_after` of the previous page); 0 (or any seq below the horizon) for the oldest kept',
    ),
  limit: limit(500),
});

const subscriptionFields = {
  id: Joi.string().uuid().required(),
  endpoint: Joi.string().required(),
  event_types: Joi.array().items(Joi.string()).required(),
  status: Joi.string().valid('active', 'paused').required(),
  paused_reason: Joi.string().allow(null).required(),
  secret_hint: Joi.string().required(),
  previous_secret_until: Joi.date().allow(null).required().description('Until then the rotated-out secret also signs'),
  cursor: Joi.number().integer().required().description('The last seq delivered'),
  created_at: Joi.date().required(),
  updated_at: Joi.date().required(),
};

export const subscriptionSchema = Joi.object(subscriptionFields).meta(openApiComponent('WebhookSubscription'));
export const subscriptionWithSecretSchema = Joi.object({
  ...subscriptionFields,
  secret: Joi.string()
    .required()
    .description('`whsec_<base64>`, shown this once: verify `webhook-signature` with it (Standard Webhooks)'),
}).meta(openApiComponent('WebhookSubscriptionWithSecret'));
export const subscriptionListSchema = Joi.object({ items: Joi.array().items(subscriptionSchema).required() });

export const deliveriesSchema = Joi.object({
  items: Joi.array()
    .items(
      Joi.object({
        id: Joi.number().integer().required(),
        seq: Joi.number().integer().required(),
        webhook_id: Joi.string().required(),
        attempt: Joi.number().integer().required(),
        status_code: Joi.number().integer().allow(null).required(),
        latency_ms: Joi.number().integer().required(),
        error: Joi.string().allow(null).required(),
        created_at: Joi.date().required(),
      }).meta(openApiComponent('WebhookDeliveryAttempt')),
    )
    .required(),
  next_before: Joi.number().integer().allow(null).required(),
});

export const eventSchema = Joi.object({
  seq: Joi.number().integer().required().description('The hotel’s sequence number: commit order'),
  type: Joi.string().required(),
  timestamp: Joi.string().isoDate().required(),
  data: Joi.object().unknown(true).required().description('The payload, as on `/ws`'),
}).meta(openApiComponent('WebhookEvent'));
export const feedSchema = Joi.object({
  items: Joi.array().items(eventSchema).required(),
  next_after: Joi.number().integer().required(),
  started_after: Joi.number()
    .integer()
    .required()
    .description('The seq this page starts after: `after`, or `horizon` when `after` was below it'),
  horizon: Joi.number()
    .integer()
    .required()
    .description('Events at or below this seq are no longer kept (30 days); `after` below it means events were missed'),
});
