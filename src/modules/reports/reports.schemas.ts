import Joi from 'joi';
import { calendarDate, moneyOut } from '../../platform/http/schemas';
import { openApiComponent } from '../../platform/http/components';
import { reportMonth } from '../tourist-tax';
import { FORMATS, GRANULARITIES, MAX_PICKUP_DAYS, REVENUE_GROUPS } from './reports.types';

const format = Joi.string()
  .valid(...FORMATS)
  .default('json')
  .description('`json` (default), `csv` (the main table, `;`-separated) or `xlsx` (every table, a sheet each)');
const range = {
  from: calendarDate.required().description('The first business date'),
  to: calendarDate.required().description('The last business date (at most 731 days after `from`: 422 beyond)'),
  format,
};

export const performanceQuery = Joi.object({
  ...range,
  granularity: Joi.string()
    .valid(...GRANULARITIES)
    .default('day')
    .description('Days, ISO weeks (from Monday) or months, each clipped to the range'),
});
export const revenueQuery = Joi.object({
  ...range,
  by: Joi.string()
    .valid(...REVENUE_GROUPS)
    .required(),
});
export const rangeQuery = Joi.object(range);
export const onTheBooksQuery = Joi.object({
  ...range,
  pickup_days: Joi.number()
    .integer()
    .min(1)
    .max(MAX_PICKUP_DAYS)
    .default(7)
    .description('Pickup: the change of the books over these last days'),
});
export const dateQuery = Joi.object({ date: calendarDate.required(), format });
export const formatQuery = Joi.object({ format });
export const monthQuery = Joi.object({ month: reportMonth, format });
export const dailyQuery = Joi.object({
  date: calendarDate.required(),
  format: Joi.string().valid('json', 'pdf').default('json'),
});
export const sendDailyBody = Joi.object({ date: calendarDate.required() });

const count = Joi.number().integer();
const performanceRow = Joi.object({
  period: Joi.string(),
  from: Joi.string(),
  to: Joi.string(),
  rooms_available: count,
  rooms_out_of_order: count,
  rooms_sold: count,
  occupancy: Joi.string().description('Percent, two decimals'),
  room_revenue: moneyOut,
  room_discounts: moneyOut.description('Discounts at the lodging VAT rate, beside room revenue (not taken off it)'),
  adr: moneyOut,
  revpar: moneyOut,
  day_use_stays: count,
  day_use_revenue: moneyOut,
}).meta(openApiComponent('ReportPerformance'));

export const performanceSchema = Joi.object({ periods: Joi.array().items(performanceRow) });
export const revenueSchema = Joi.object({
  by: Joi.string(),
  groups: Joi.array().items(
    Joi.object({
      key: Joi.string().allow(null),
      name: Joi.string().allow(null),
      nights: count,
      day_use_stays: count,
      revenue: moneyOut,
    }),
  ),
});
const nightSchema = Joi.object({
  date: Joi.string(),
  rooms_available: count,
  rooms: count.description('Night stays on the books'),
  occupancy: Joi.string(),
  revenue: moneyOut,
  pickup_rooms: count,
  pickup_revenue: moneyOut,
  last_year_date: Joi.string(),
  last_year_rooms: count,
  last_year_revenue: moneyOut,
  rooms_vs_last_year: count,
}).meta(openApiComponent('ReportNightOnTheBooks'));
export const onTheBooksSchema = Joi.object({ nights: Joi.array().items(nightSchema) });

const stayRow = Joi.object({
  booking_id: Joi.string(),
  room: Joi.string().allow(null).description("The room of the stay's segment then (room moves)"),
  category: Joi.string().allow(null),
  kind: Joi.string(),
  status: Joi.string(),
  guest: Joi.string(),
  guests_count: count,
  check_in: Joi.string().allow(null),
  check_out: Joi.string().allow(null),
  price: moneyOut,
}).meta(openApiComponent('ReportStay'));
export const staysSchema = Joi.object({
  date: Joi.string(),
  arrivals: Joi.array().items(stayRow),
  departures: Joi.array().items(stayRow),
  in_house: Joi.array().items(stayRow),
});
export const housekeepingSchema = Joi.object({
  rooms: Joi.array().items(
    Joi.object({
      room_id: Joi.string(),
      room: Joi.string(),
      category: Joi.string().allow(null),
      status: Joi.string(),
      occupied: Joi.boolean(),
    }),
  ),
  by_status: Joi.array().items(Joi.object({ status: Joi.string(), count })),
});
export const paymentsSchema = Joi.object({
  rows: Joi.array().items(
    Joi.object({
      date: Joi.string(),
      method: Joi.string(),
      staff_id: Joi.string().allow(null).description('Who posted the line (none known: null)'),
      staff_name: Joi.string().allow(null),
      payments: count,
      received: moneyOut,
      refunded: moneyOut,
      removed: moneyOut,
      net: moneyOut,
    }),
  ),
});
export const dailySchema = Joi.object({
  hotel: Joi.object({ name: Joi.string(), slug: Joi.string() }),
  date: Joi.string(),
  today: Joi.string(),
  figures: performanceRow,
  revenue_by_category: revenueSchema.extract('groups'),
  payments_by_method: Joi.array().items(Joi.object({ method: Joi.string(), net: moneyOut })),
  arrivals: count,
  departures: count,
  in_house: count,
  history: Joi.array().items(Joi.object({ date: Joi.string(), occupancy: Joi.string(), adr: moneyOut })),
  on_the_books: Joi.array().items(Joi.object({ date: Joi.string(), occupancy: Joi.string(), rooms: count })),
}).meta(openApiComponent('DailyReport'));
export const sentSchema = Joi.object({ workflow_id: Joi.string() });
