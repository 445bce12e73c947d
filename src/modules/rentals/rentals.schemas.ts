import Joi from 'joi';
import { openApiComponent } from '../../platform/http/components';
import { calendarDate, dateSpan, instant, money, moneyOut } from '../../platform/http/schemas';
import { guestPhoneSchema } from '../guests';
import { MAX_RENTAL_DAYS } from './rentals.messages';
import { RENTAL_BOOKING_KINDS, RENTAL_BOOKING_SOURCES, RENTAL_BOOKING_STATUSES } from './rentals.types';

const hexColour = Joi.string()
  .pattern(/^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/, 'hex colour')
  .messages({ 'string.pattern.name': '{{#label}} must be a hex colour such as #1e88e5' });

const openHour = Joi.number().integer().min(0).max(23);
const closeHour = Joi.number().integer().min(1).max(24);

const objectFields = {
  name: Joi.string().trim().min(1).max(100),
  icon: Joi.string().trim().max(50).allow(null, ''),
  color: hexColour.allow(null),
  text_color: hexColour.allow(null),
  price_per_hour: money,
  price_per_day: money,
  open_hour: openHour.description('The first hour it can be booked from, hotel time (0-23)'),
  close_hour: closeHour.description('The hour it closes, hotel time (1-24, after open_hour)'),
  sort_order: Joi.number().integer().min(-10000).max(10000),
  is_active: Joi.boolean().description('false: a draft, not bookable and not shown by the widget'),
  buffer_minutes: Joi.number()
    .integer()
    .min(0)
    .max(720)
    .description('Kept free after each booking (cleaning, airing), up to 12 hours'),
};

export const createRentalObjectBody = Joi.object({ ...objectFields, name: objectFields.name.required() });
export const updateRentalObjectBody = Joi.object(objectFields).min(1);
export const rentalObjectListQuery = Joi.object({ is_active: Joi.boolean() });

const bookingFields = {
  rental_object_id: Joi.string().uuid(),
  kind: Joi.string().valid(...RENTAL_BOOKING_KINDS),
  start_at: instant.description('hourly: on a whole hour of the hotel clock, from the opening hour'),
  end_at: instant.description('hourly: on a whole hour, by the closing hour of the same day'),
  date_from: calendarDate.description('daily: the first day'),
  date_to: calendarDate.description('daily: the last day (inclusive)'),
  guest_name: Joi.string().trim().min(1).max(200),
  guest_phone: guestPhoneSchema,
  guest_email: Joi.string().trim().lowercase().email({ tlds: false }).max(254).allow(null),
  comment: Joi.string().trim().max(2000).allow(''),
  booking_id: Joi.string()
    .uuid()
    .allow(null)
    .description(
      'The room booking the rental is charged to: its guest folio gets a `rental` line of the price, and a change or ' +
        'the cancellation a `correction` line',
    ),
  source: Joi.string().valid(...RENTAL_BOOKING_SOURCES),
};

const daysLimit = dateSpan('date_from', 'date_to', { maxDays: MAX_RENTAL_DAYS - 1 });

export const createRentalBookingBody = Joi.object({
  ...bookingFields,
  rental_object_id: bookingFields.rental_object_id.required(),
  kind: bookingFields.kind.required(),
  guest_name: bookingFields.guest_name.required(),
  guest_phone: bookingFields.guest_phone.required(),
  status: Joi.string().valid('confirmed'),
})
  .xor('start_at', 'date_from')
  .and('start_at', 'end_at')
  .and('date_from', 'date_to')
  .custom(daysLimit);

export const updateRentalBookingBody = Joi.object({
  ...bookingFields,
  status: Joi.string()
    .valid(...RENTAL_BOOKING_STATUSES)
    .description('`cancelled` cancels the booking (final) and frees its time'),
})
  .min(1)
  .custom(daysLimit);

/** The widest calendar window a list may ask for, in days. */
export const MAX_CALENDAR_DAYS = 93;

export const rentalBookingListQuery = Joi.object({
  from: calendarDate.required(),
  to: calendarDate.required(),
  rental_object_id: Joi.string().uuid(),
  status: Joi.string().valid(...RENTAL_BOOKING_STATUSES),
}).custom(dateSpan('from', 'to', { maxDays: MAX_CALENDAR_DAYS - 1 }));

export const rentalObjectSchema = Joi.object({
  id: Joi.string().uuid(),
  hotel_id: Joi.string().uuid(),
  name: Joi.string(),
  icon: Joi.string().allow(null, ''),
  color: Joi.string().allow(null),
  text_color: Joi.string().allow(null),
  price_per_hour: moneyOut,
  price_per_day: moneyOut,
  open_hour: Joi.number().integer(),
  close_hour: Joi.number().integer(),
  sort_order: Joi.number().integer(),
  is_active: Joi.boolean(),
  buffer_minutes: Joi.number().integer(),
  created_at: Joi.date(),
  updated_at: Joi.date(),
}).meta(openApiComponent('RentalObject'));

export const rentalBookingSchema = Joi.object({
  id: Joi.string().uuid(),
  hotel_id: Joi.string().uuid(),
  rental_object_id: Joi.string().uuid(),
  kind: Joi.string().valid(...RENTAL_BOOKING_KINDS),
  date_from: Joi.string().allow(null),
  date_to: Joi.string().allow(null),
  start_at: Joi.date(),
  end_at: Joi.date(),
  buffer_minutes: Joi.number().integer(),
  blocked_until: Joi.date().description('end_at and the buffer after it: the object is held until then'),
  status: Joi.string().valid(...RENTAL_BOOKING_STATUSES),
  source: Joi.string().valid(...RENTAL_BOOKING_SOURCES),
  guest_name: Joi.string(),
  guest_phone: Joi.string(),
  guest_email: Joi.string().allow(null),
  comment: Joi.string().allow(''),
  booking_id: Joi.string().uuid().allow(null),
  price: moneyOut,
  created_by: Joi.string().uuid().allow(null),
  cancelled_at: Joi.date().allow(null),
  created_at: Joi.date(),
  updated_at: Joi.date(),
}).meta(openApiComponent('RentalBooking'));
