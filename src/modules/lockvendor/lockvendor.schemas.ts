import Joi from 'joi';
import { openApiComponent } from '../../platform/http/components';
import { slugParams } from '../../platform/http/schemas';
import { API_SERVERS } from './lockvendor.types';

const atLeastOneField = { 'object.min': 'at least one field must be given' };

/** `AA:BB:CC:DD:EE:FF` from any of the ways a MAC is written (`aa-bb-…`, `aabbcc…`), so one lock is one row. */
export function normalizeMac(mac: string): string {
  return mac
    .replace(/[:-]/g, '')
    .toUpperCase()
    .replace(/(..)(?!$)/g, '$1:');
}

export const lockMac = Joi.string()
  .trim()
  .max(17)
  .pattern(/^[0-9A-Fa-f]{2}([:-]?[0-9A-Fa-f]{2}){5}$/, 'MAC address')
  .custom((value: string) => normalizeMac(value))
  .messages({ 'string.pattern.name': '{{#label}} must be a MAC address such as AA:BB:CC:DD:EE:FF' });

// Printable ASCII: a key pasted with a space or a line break would fail at TTLock, not here.
const printable = Joi.string()
  .trim()
  .min(1)
  .pattern(/^[\x21-\x7e]+$/, 'printable characters');

export const updateConfigBody = Joi.object({
  client_id: printable.max(100).allow(null),
  client_secret: printable.max(256).allow(null),
  username: Joi.string().trim().min(1).max(100).allow(null),
  // Not trimmed: a password may begin or end with a space.
  password: Joi.string().min(1).max(128).allow(null),
  api_server: Joi.string().valid(...API_SERVERS),
  enabled: Joi.boolean(),
})
  .min(1)
  .messages(atLeastOneField);

export const configSchema = Joi.object({
  hotel_id: Joi.string().uuid(),
  client_id: Joi.string().allow(null),
  client_secret_set: Joi.boolean(),
  client_secret_hint: Joi.string()
    .allow(null)
    .description('`…` and the last characters of the client secret (at most 4); null when none is set'),
  username: Joi.string().allow(null).description('The TTLock (TTHotel) account'),
  password_set: Joi.boolean(),
  api_server: Joi.string().valid(...API_SERVERS),
  enabled: Joi.boolean(),
  token_expires_at: Joi.date().allow(null).description('When the stored access token expires; null without one'),
  ttlock_uid: Joi.number().integer().allow(null),
  updated_at: Joi.date(),
}).meta(openApiComponent('LockConfig'));

export const tokenSchema = Joi.object({
  expires_at: Joi.date(),
  uid: Joi.number().integer(),
}).meta(openApiComponent('LockToken'));

export const testResultSchema = Joi.object({
  ok: Joi.boolean().valid(true),
  api_server: Joi.string().valid(...API_SERVERS),
  locks_count: Joi.number().integer().min(0),
}).meta(openApiComponent('LockConfigTest'));

export const findApiConfigBody = Joi.object({
  save: Joi.boolean().default(false).description('Store the server found (and the token it granted)'),
});

export const apiConfigSchema = Joi.object({
  api_server: Joi.string().valid(...API_SERVERS),
  saved: Joi.boolean(),
}).meta(openApiComponent('LockApiServer'));

export const cloudLockSchema = Joi.object({
  lock_id: Joi.number().integer(),
  lock_name: Joi.string().allow(''),
  lock_alias: Joi.string().allow(''),
  lock_mac: Joi.string(),
  battery: Joi.number().allow(null).description('Percent'),
  has_gateway: Joi.boolean().allow(null),
  build_no: Joi.number().integer().allow(null),
  floor_no: Joi.number().integer().allow(null),
  room_id: Joi.string().uuid().allow(null).description("The room our mapping puts the lock on (by the lock's MAC)"),
  room_lock_id: Joi.string().uuid().allow(null).description('That mapping'),
}).meta(openApiComponent('CloudLock'));

/** Building and floor numbers as written to hotel cards: one byte each. */
const cardNumber = Joi.number().integer().min(0).max(255);

export const roomLockBody = Joi.object({
  lock_mac: lockMac.required(),
  room_id: Joi.string().uuid().allow(null).required(),
  build_no: cardNumber.required(),
  floor_no: cardNumber.required(),
  lock_id: Joi.number().integer().min(1).max(2_147_483_647).allow(null),
  lock_alias: Joi.string().trim().max(100).allow(null, ''),
});

export const roomLockSchema = Joi.object({
  id: Joi.string().uuid(),
  hotel_id: Joi.string().uuid(),
  lock_mac: Joi.string(),
  room_id: Joi.string().uuid().allow(null),
  build_no: Joi.number().integer(),
  floor_no: Joi.number().integer(),
  lock_id: Joi.number().integer().allow(null),
  lock_alias: Joi.string().allow(null, ''),
  created_at: Joi.date(),
  updated_at: Joi.date(),
}).meta(openApiComponent('RoomLock'));

export const macParams = slugParams.keys({ mac: lockMac.required() });
