import Joi from 'joi';
import { openApiComponent } from '../../platform/http/components';
import { pageQueryKeys } from '../../platform/http/pagination';
import { hotelSlug } from '../../platform/http/schemas';
import { CONNECTION_TYPES, PUSH_EVENTS, TV_LANGUAGES } from './tv.types';

/** A mapping of a whole hotel fits (the largest have a few hundred rooms); more is a mistake or an attack. */
export const MAX_MAPPED_ROOMS = 2000;

const uuidKey = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

// Printable ASCII without spaces: a token travels in a header or a URL, and one pasted with a line break must fail here.
const token = Joi.string()
  .trim()
  .min(16)
  .max(128)
  .pattern(/^[\x21-\x7e]+$/, 'printable characters without spaces')
  .messages({ 'string.min': '{{#label}} must be at least 16 characters: it is the only lock on /tvpms' });

export const updateSettingsBody = Joi.object({
  enabled: Joi.boolean(),
  connection_type: Joi.string().valid(...CONNECTION_TYPES),
  agent_workstation_id: Joi.string().uuid().allow(null),
  server_url: Joi.string()
    .trim()
    .max(2000)
    .uri({ scheme: ['http', 'https'] })
    .allow(null),
  default_language: Joi.string().valid(...TV_LANGUAGES),
  netup_room_number: Joi.object()
    .pattern(Joi.string(), Joi.string().trim().min(1).max(32).required())
    .max(MAX_MAPPED_ROOMS)
    // Checked here, not by a key pattern: a key off the pattern would be dropped as an unknown field, not refused.
    .custom((mapping: Record<string, string>, helpers) =>
      Object.keys(mapping).every((key) => uuidKey.test(key)) ? mapping : helpers.error('object.roomIds'),
    )
    .messages({ 'object.roomIds': '{{#label}} keys must be room ids (UUIDs)' })
    .description('Our room id → the TV system room number; the whole mapping is replaced'),
  tl_token: token
    .allow(null)
    .description("A TV vendor's own token the TV system polls `/tvpms` with (set, replace, or null)"),
})
  .min(1)
  .messages({ 'object.min': 'at least one field must be given' });

export const settingsSchema = Joi.object({
  hotel_id: Joi.string().uuid(),
  enabled: Joi.boolean(),
  connection_type: Joi.string().valid(...CONNECTION_TYPES),
  agent_workstation_id: Joi.string().uuid().allow(null),
  server_url: Joi.string().allow(null),
  default_language: Joi.string(),
  netup_room_number: Joi.object()
    .pattern(Joi.string(), Joi.string())
    .description('Our room id → the TV system room number')
    .meta(openApiComponent('TvRoomNumbers')),
  tl_token_set: Joi.boolean(),
  tl_token_hint: Joi.string().allow(null).description('`…` and the last 4 characters of the token; null without one'),
  tl_token_kind: Joi.string()
    .valid('issued', 'vendor')
    .allow(null)
    .description('`issued` here (`POST tl-token`) or a `vendor` token set by staff; null without one'),
  tl_token_created_at: Joi.date().allow(null),
  updated_at: Joi.date(),
}).meta(openApiComponent('TvSettings'));

export const issuedTokenSchema = Joi.object({
  tl_token: Joi.string().description('Shown this once: the TV system polls `/tvpms` with it as a bearer token'),
  tl_token_hint: Joi.string(),
  tl_token_created_at: Joi.date(),
}).meta(openApiComponent('TvIssuedToken'));

export const pushLogSchema = Joi.object({
  id: Joi.string().uuid(),
  hotel_id: Joi.string().uuid(),
  booking_id: Joi.string().uuid().allow(null),
  event: Joi.string().valid(...PUSH_EVENTS),
  status: Joi.string().valid('ok', 'error', 'skipped'),
  detail: Joi.string().allow(''),
  attempt: Joi.number().integer().min(1),
  via: Joi.string()
    .valid(...CONNECTION_TYPES)
    .allow(null),
  http_status: Joi.number().integer().allow(null),
  created_at: Joi.date(),
}).meta(openApiComponent('TvPushAttempt'));

export const logQuery = Joi.object(pageQueryKeys);

export const testCheckinBody = Joi.object({
  room_id: Joi.string().uuid().description('A mapped room (default: the first mapped room)'),
});

export const testResultSchema = Joi.object({
  status: Joi.string().valid('ok', 'error', 'skipped'),
  detail: Joi.string().allow(''),
  http_status: Joi.number().integer().allow(null),
}).meta(openApiComponent('TvTestResult'));

export const reservationSchema = Joi.object({
  room: Joi.string().description('The TV system room number'),
  guest_name: Joi.string(),
  language: Joi.string(),
  arrival: Joi.date(),
  departure: Joi.date(),
}).meta(openApiComponent('TvReservation'));

export const pollAnswerSchema = Joi.object({
  reservations: Joi.array().items(reservationSchema),
}).meta(openApiComponent('TvPollAnswer'));

export const pollQuery = Joi.object({
  token: Joi.string().max(256).description('The hotel tl_token, for TV middleware that cannot set a header'),
  hotel: hotelSlug.description("The hotel polling (required with a vendor's own token)"),
}).unknown(true);

export const pollLogQuery = Joi.object({
  hotel: hotelSlug.description('super_admin only: whose polls'),
});

export const pollLogEntrySchema = Joi.object({
  at: Joi.date(),
  method: Joi.string(),
  address: Joi.string(),
  status: Joi.number().integer(),
  reservations: Joi.number().integer().min(0),
}).meta(openApiComponent('TvPoll'));
