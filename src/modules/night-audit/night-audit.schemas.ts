import Joi from 'joi';
import { openApiComponent } from '../../platform/http/components';
import { calendarDate, moneyOut, slugParams } from '../../platform/http/schemas';

export const settingsBody = Joi.object({
  enabled: Joi.boolean().required().description('Whether the audit runs on its own every night'),
  hour: Joi.number()
    .integer()
    .min(0)
    .max(23)
    .required()
    .description('The hour (0–23) of the hotel’s own clock (its time zone) at which it runs'),
});

export const settingsSchema = Joi.object({
  hotel_id: Joi.string(),
  enabled: Joi.boolean(),
  hour: Joi.number().integer(),
  updated_at: Joi.date(),
}).meta(openApiComponent('NightAuditSettings'));

export const runSchema = Joi.object({
  hotel_id: Joi.string(),
  business_date: Joi.string(),
  status: Joi.string().valid('running', 'succeeded', 'failed'),
  trigger: Joi.string().valid('schedule', 'manual'),
  workflow_id: Joi.string(),
  error: Joi.string().allow(null),
  report_error: Joi.string()
    .allow(null)
    .description('The daily report’s recipients not reached, and why (the run succeeded: the day is closed)'),
  started_at: Joi.date(),
  finished_at: Joi.date().allow(null),
}).meta(openApiComponent('NightAuditRun'));

export const overviewSchema = Joi.object({
  business_date: Joi.string().description('The hotel’s business date: postings go to it'),
  closed_through: Joi.string().allow(null).description('The last closed business day'),
  day_to_close: Joi.string().description('The day the audit closes next'),
  day_ended: Joi.boolean().description('Whether that day has ended on the hotel’s clock (a run by hand may start)'),
  runs: Joi.array().items(runSchema).description('The last runs, latest day first'),
}).meta(openApiComponent('NightAudit'));

export const snapshotParams = slugParams.keys({ date: calendarDate.required() });

export const snapshotSchema = Joi.object({
  hotel_id: Joi.string(),
  business_date: Joi.string(),
  rooms: Joi.number().integer(),
  out_of_order: Joi.number().integer().description('Under maintenance or closed'),
  available: Joi.number().integer().description('Rooms less those out of order'),
  sold: Joi.number().integer().description('Stays with a room night on the day'),
  occupancy: Joi.string().description('Sold / available, a fraction with 4 decimals'),
  room_revenue: moneyOut.description('The day’s room night lines'),
  adr: moneyOut.description('Room revenue / sold'),
  revpar: moneyOut.description('Room revenue / available'),
  arrivals: Joi.number().integer(),
  departures: Joi.number().integer(),
  no_shows: Joi.number().integer(),
  tourist_tax: moneyOut.description('The day’s tourist tax lines'),
  created_at: Joi.date(),
}).meta(openApiComponent('NightAuditSnapshot'));
