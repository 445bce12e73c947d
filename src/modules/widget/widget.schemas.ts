import Joi from 'joi';
import { openApiComponent } from '../../platform/http/components';
import { calendarDate, dateSpan, instant, money, moneyOut, slugParams } from '../../platform/http/schemas';
import { guestPhoneSchema } from '../guests';
import { returnUrl } from '../payments';
import { createRentalBookingBody } from '../rentals';
import { stayVerdictKeys } from '../restrictions';
import { stayTaxSchema } from '../tourist-tax';

const MAX_WIDGET_STAY_NIGHTS = 31;
const name = Joi.string().trim().min(1).max(100);

/** A web origin as a browser sends it in `Origin`: scheme, host and port, nothing more. */
const webOrigin = Joi.string()
  .max(200)
  .custom((value: string, helpers) => {
    const url = URL.parse(value);
    if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.origin !== value.replace(/\/$/, ''))
      return helpers.error('origin.form');
    return url.origin;
  })
  .messages({ 'origin.form': '{{#label}} must be an origin such as https://hotel.example (no path)' });

const service = Joi.object({
  code: Joi.string()
    .pattern(/^[a-z0-9_-]{1,40}$/, 'code')
    .required(),
  name: name.required(),
  price: money.required(),
  description: Joi.string().trim().max(500).allow('').default(''),
});

export const widgetSettingsSchema = Joi.object({
  hotel_id: Joi.string().uuid(),
  is_enabled: Joi.boolean(),
  services: Joi.array().items(
    Joi.object({ code: Joi.string(), name: Joi.string(), price: moneyOut, description: Joi.string().allow('') }),
  ),
  allowed_origins: Joi.array().items(Joi.string()),
  consent_text_version: Joi.string().description('The personal-data consent text the widget shows, by version'),
  updated_at: Joi.date(),
}).meta(openApiComponent('WidgetSettings'));

/** A consent text's version as the hotel names it: `1`, `2026-11`, `v3.1`. */
const consentVersion = Joi.string().pattern(/^[A-Za-z0-9._-]{1,40}$/, 'version');

export const widgetSettingsChanges = Joi.object({
  is_enabled: Joi.boolean(),
  services: Joi.array().items(service).max(50).unique('code'),
  allowed_origins: Joi.array().items(webOrigin).max(20).unique(),
  consent_text_version: consentVersion,
}).min(1);

export const widgetParams = slugParams;

/** Everything a guest's browser may send; `price` is accepted and dropped, since the server prices the stay. */
export const widgetBookingBody = Joi.object({
  category_id: Joi.string().uuid().required(),
  check_in: calendarDate,
  check_out: calendarDate,
  start_at: instant,
  end_at: instant,
  guests_count: Joi.number().integer().min(1).max(20).default(1),
  guest_last_name: name.required(),
  guest_first_name: name.required(),
  guest_middle_name: Joi.string().trim().max(100).allow(''),
  guest_phone: guestPhoneSchema.required(),
  guest_email: Joi.string().trim().lowercase().email({ tlds: false }).max(254),
  services: Joi.array()
    .items(Joi.string().pattern(/^[a-z0-9_-]{1,40}$/, 'code'))
    .max(50)
    .unique()
    .default([]),
  comment: Joi.string().trim().max(2000).allow(''),
  return_url: returnUrl,
  consent_version: consentVersion.description(
    'The personal-data consent text the guest accepted (optional; when sent, the hotel’s current version)',
  ),
  split: Joi.array()
    .items(Joi.object({ from: calendarDate.required(), to: calendarDate.required() }))
    .min(2)
    .max(MAX_WIDGET_STAY_NIGHTS)
    .description(
      'The split stay the availability offered for the category (its `split`, as given): the nights of each room, ' +
        'the first from `check_in`, each from the `to` before it, the last to `check_out`. The stay is booked in the ' +
        'rooms the offer has now for those nights (409 `sold_out` when it no longer has them)',
    ),
  price: Joi.any().strip(),
})
  .xor('check_in', 'start_at')
  .with('split', 'check_in')
  .and('check_in', 'check_out')
  .and('start_at', 'end_at')
  .custom(dateSpan('check_in', 'check_out', { maxDays: MAX_WIDGET_STAY_NIGHTS }))
  .custom(dateSpan('start_at', 'end_at', { maxDays: 1 }));

const chosenService = Joi.object({ code: Joi.string(), name: Joi.string(), price: moneyOut }).meta(
  openApiComponent('WidgetChosenService'),
);

export const widgetBookingAnswer = Joi.object({
  booking: Joi.object({
    id: Joi.string().uuid(),
    status: Joi.string(),
    category_id: Joi.string().uuid(),
    check_in: Joi.string().allow(null),
    check_out: Joi.string().allow(null),
    start_at: Joi.date(),
    end_at: Joi.date(),
    guests_count: Joi.number(),
    price: moneyOut,
    tourist_tax: stayTaxSchema,
    currency: Joi.string(),
    services: Joi.array().items(chosenService),
    split: Joi.array()
      .items(Joi.object({ from: Joi.string(), to: Joi.string() }))
      .optional()
      .description('A split stay: the nights of each room, in order'),
  }).meta(openApiComponent('WidgetBooking')),
  payment: Joi.object({
    id: Joi.string().uuid(),
    status: Joi.string(),
    amount: moneyOut,
    confirmation_url: Joi.string().allow(null),
  })
    .allow(null)
    .meta(openApiComponent('WidgetPayment')),
}).meta(openApiComponent('WidgetBookingReceipt'));

const nullableText = Joi.string().allow(null, '');

export const widgetConfigAnswer = Joi.object({
  hotel: Joi.object({
    name: Joi.string(),
    slug: Joi.string(),
    address: nullableText,
    phone: nullableText,
    timezone: Joi.string(),
    currency: Joi.string(),
    check_in_time: Joi.string(),
    check_out_time: Joi.string(),
  }).meta(openApiComponent('WidgetHotel')),
  categories: Joi.array().items(
    Joi.object({
      id: Joi.string().uuid(),
      name: Joi.string(),
      description: Joi.string().allow(''),
      capacity: Joi.number().integer(),
      base_price: moneyOut,
      allow_hourly: Joi.boolean(),
      hourly_base_price: moneyOut.allow(null),
      photos: Joi.array().items(Joi.string()),
      sort_order: Joi.number().integer(),
    }).meta(openApiComponent('WidgetCategory')),
  ),
  rental_objects: Joi.array().items(
    Joi.object({
      id: Joi.string().uuid(),
      name: Joi.string(),
      icon: nullableText,
      color: nullableText,
      text_color: nullableText,
      price_per_hour: moneyOut,
      price_per_day: moneyOut,
      open_hour: Joi.number().integer(),
      close_hour: Joi.number().integer(),
      buffer_minutes: Joi.number().integer(),
      sort_order: Joi.number().integer(),
    }).meta(openApiComponent('WidgetRentalObject')),
  ),
  widgetSettings: Joi.object({
    services: Joi.array().items(
      Joi.object({ code: Joi.string(), name: Joi.string(), price: moneyOut, description: Joi.string().allow('') }).meta(
        openApiComponent('WidgetServiceOffer'),
      ),
    ),
    consent_text_version: Joi.string().description('The personal-data consent text to show, by version'),
  }).meta(openApiComponent('WidgetPublicSettings')),
}).meta(openApiComponent('WidgetConfig'));

export const offersAnswer = Joi.object({
  from: Joi.string(),
  to: Joi.string(),
  nights: Joi.array().items(Joi.string()),
  categories: Joi.array().items(
    Joi.object({
      category_id: Joi.string().uuid(),
      name: Joi.string(),
      description: Joi.string().allow(''),
      photos: Joi.array().items(Joi.string()),
      max_guests: Joi.number().integer(),
      free: Joi.array().items(Joi.number().integer()),
      available: Joi.boolean().description(
        "A room for the party is free on every night and the stay breaks none of the category's restrictions: " +
          'a booking can be placed (the same as `sellable`)',
      ),
      ...stayVerdictKeys,
      total: moneyOut.allow(null),
      per_night: moneyOut.allow(null),
      tourist_tax: Joi.alternatives(stayTaxSchema, Joi.valid(null)),
      hourly: Joi.object({ allowed: Joi.boolean(), price_per_hour: moneyOut.allow(null) }).meta(
        openApiComponent('HourlyOffer'),
      ),
      split: Joi.array()
        .items(Joi.object({ from: Joi.string(), to: Joi.string() }))
        .optional()
        .description(
          'When no one room is free every night but some room is each night (and no restriction is broken): ' +
            'the nights of each room of the stay split over rooms with the fewest moves; a booking sending it ' +
            'back as `split` takes it, and the guest is moved on its day',
        ),
    }).meta(openApiComponent('CategoryOffer')),
  ),
}).meta(openApiComponent('StayOffers'));

export const lookupQuery = Joi.object({
  email: Joi.string().trim().lowercase().email({ tlds: false }).max(254),
  phone: guestPhoneSchema,
}).xor('email', 'phone');

export const lookupAnswer = Joi.object({
  found: Joi.boolean(),
  first_name: Joi.string().allow(null),
}).meta(openApiComponent('WidgetGuestLookup'));

/** A rental booking from the widget: the staff form without what only staff may set (a room booking to charge). */
export const widgetRentalBookingBody = createRentalBookingBody.keys({
  booking_id: Joi.any().strip(),
  source: Joi.any().strip(),
  status: Joi.any().strip(),
  price: Joi.any().strip(),
  consent_version: consentVersion,
});

export const widgetRentalAnswer = Joi.object({
  id: Joi.string().uuid(),
  rental_object_id: Joi.string().uuid(),
  kind: Joi.string(),
  date_from: Joi.string().allow(null),
  date_to: Joi.string().allow(null),
  start_at: Joi.date(),
  end_at: Joi.date(),
  status: Joi.string(),
  price: moneyOut,
  currency: Joi.string(),
}).meta(openApiComponent('WidgetRentalBooking'));
