import Joi from 'joi';
import { openApiComponent } from '../../platform/http/components';
import { credentialHeader } from '../../platform/http/credential-headers';
import { hotelSlug } from '../../platform/http/schemas';
import { normalizeMac, WIFI_AUTH_METHODS } from './wifi.rules';

export const settingsChanges = Joi.object({
  enabled: Joi.boolean(),
  auth_method: Joi.string().valid(...WIFI_AUTH_METHODS),
  session_hours: Joi.number().integer().min(1).max(720),
  devices_per_stay: Joi.number().integer().min(1).max(20),
})
  .min(1)
  .messages({ 'object.min': 'at least one field must be given' });

export const settingsSchema = Joi.object({
  hotel_id: Joi.string().uuid(),
  enabled: Joi.boolean(),
  auth_method: Joi.string().valid(...WIFI_AUTH_METHODS),
  session_hours: Joi.number().integer().description('How long a device stays online (never past the stay)'),
  devices_per_stay: Joi.number().integer(),
  portal_secret_set: Joi.boolean(),
  portal_secret_hint: Joi.string().allow(null).description("`…` and the secret's last 4 characters; null without one"),
  portal_secret_created_at: Joi.date().allow(null),
  updated_at: Joi.date(),
}).meta(openApiComponent('WifiSettings'));

export const portalSecretSchema = Joi.object({
  portal_secret: Joi.string().description('Shown this once: the captive-portal controller sends it as a bearer token'),
  portal_secret_hint: Joi.string(),
  portal_secret_created_at: Joi.date(),
}).meta(openApiComponent('WifiPortalSecret'));

/** `2024-02-29` is a day, `2023-02-29` is not (a Date would roll it over to March). */
function isCalendarDay(value: string): boolean {
  const day = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(day.getTime()) && day.toISOString().startsWith(value);
}

const MAC = /^[0-9A-Fa-f]{2}([:-]?[0-9A-Fa-f]{2}){5}$|^[0-9A-Fa-f]{4}\.[0-9A-Fa-f]{4}\.[0-9A-Fa-f]{4}$/;

export const verifyBody = Joi.object({
  hotel: hotelSlug.required().description("The hotel's slug"),
  room: Joi.string().trim().min(1).max(20).required().description('The room number as guests see it'),
  last_name: Joi.string().trim().max(100).allow(''),
  birth_date: Joi.string()
    .pattern(/^\d{4}-\d{2}-\d{2}$/, 'YYYY-MM-DD')
    .custom((value: string, helpers) => (isCalendarDay(value) ? value : helpers.error('date.base')))
    .messages({ 'date.base': '{{#label}} must be a calendar date (YYYY-MM-DD)' }),
  client_mac: Joi.string()
    .trim()
    .max(17)
    .pattern(MAC, 'MAC address')
    .custom((value: string) => normalizeMac(value))
    .description("The guest device's MAC: counted against the stay's device limit"),
});

export const portalHeaders = Joi.object({
  authorization: credentialHeader(
    Joi.string().max(300).description('`Bearer <portal secret>` of the hotel named in the body'),
  ),
}).unknown(true);

export const authorizationSchema = Joi.object({
  authorized: Joi.boolean().valid(true),
  until: Joi.date().description('When the device must be let off: the session length, never past the stay'),
  devices_allowed: Joi.number().integer(),
  devices_used: Joi.number().integer().description('Devices of this stay let in so far, this one included'),
}).meta(openApiComponent('WifiAuthorization'));
