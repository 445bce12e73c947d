import Joi from 'joi';
import { openApiComponent } from '../../platform/http/components';
import { pushMessages } from './push.messages';

export const MAX_ENDPOINT_LENGTH = 1024;

const base64url = (max: number) =>
  Joi.string()
    .trim()
    .max(max)
    .pattern(/^[A-Za-z0-9_-]+={0,2}$/, 'base64url');

const endpoint = Joi.string()
  .trim()
  .max(MAX_ENDPOINT_LENGTH)
  .uri({ scheme: ['https'] })
  .required()
  .messages({ 'string.uriCustomScheme': pushMessages.endpointHttps, 'string.uri': pushMessages.endpointHttps })
  .description('The push service address the browser gave (`https://`, at most 1024 characters)');

/** The browser's `PushSubscription.toJSON()`. */
export const subscribeBody = Joi.object({
  endpoint,
  keys: Joi.object({
    p256dh: base64url(100).required().description('The browser’s P-256 public key (65 bytes, base64url)'),
    auth: base64url(50).required().description('The browser’s authentication secret (16 bytes, base64url)'),
  })
    .required()
    .unknown(false),
  expirationTime: Joi.number().allow(null).description('Accepted and ignored'),
}).unknown(false);

export const unsubscribeBody = Joi.object({ endpoint }).unknown(false);

export const vapidKeySchema = Joi.object({
  public_key: Joi.string().description('The VAPID public key (base64url): `applicationServerKey` for `subscribe()`'),
});

export const subscriptionSchema = Joi.object({
  id: Joi.string().uuid(),
  endpoint: Joi.string(),
  created_at: Joi.date(),
  updated_at: Joi.date(),
}).meta(openApiComponent('PushSubscription'));

export const unsubscribeSchema = Joi.object({
  ok: Joi.boolean().valid(true),
  removed: Joi.boolean().description('false when you had no subscription with this endpoint'),
});
