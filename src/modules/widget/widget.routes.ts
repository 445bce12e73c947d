import type { WidgetConfig } from './widget.env';
import { offersQuery, type OffersQuery } from '../bookings';
import { idempotencyKeyHeader } from '../../platform/http/idempotency-key';
import { settingsRoutes } from '../../platform/http/settings-routes';
import { defineRoute, type OneAnswer, type RateLimitPolicy, type RouteDefinition } from '../../platform/http/route';
import type { Role } from '../../platform/http/roles';
import { slugParams } from '../../platform/http/schemas';
import {
  lookupAnswer,
  lookupQuery,
  offersAnswer,
  widgetBookingAnswer,
  widgetConfigAnswer,
  widgetRentalAnswer,
  widgetRentalBookingBody,
  widgetBookingBody,
  widgetSettingsChanges,
  widgetSettingsSchema,
} from './widget.schemas';
import { hotelNotFound, type WidgetServiceApi } from './widget.service';
import type { WidgetRentalInput } from './widget.consent';
import type { WidgetBookingInput, WidgetSettingsChanges } from './widget.types';

type SlugParams = { slug: string };

const SETTINGS_READERS: readonly Role[] = ['hotel_admin', 'manager', 'receptionist'];
const SETTINGS_WRITERS: readonly Role[] = ['hotel_admin', 'manager'];

/** Per client address: reads counted in this process, submissions and lookups in the shared store. */
function widgetLimits({ widgetLimits: limits }: WidgetConfig) {
  const policy = (scope: string, quota: number, windowSeconds: number, store: RateLimitPolicy['store']) => ({
    scope,
    perAddress: { quota, windowSeconds },
    store,
  });
  return {
    read: (scope: string) => policy(scope, limits.reads, 60, 'local'),
    submit: policy('widget.submit', limits.submissions, 600, 'shared'),
    lookup: policy('widget.lookup', limits.lookups, 900, 'shared'),
  };
}

/** A slug of a shape no hotel has is the unknown hotel's 404, as is every hotel the widget does not serve. */
const unknownHotel: OneAnswer = { refusal: hotelNotFound, inputs: ['params'] };

export function widgetRoutes(widget: WidgetServiceApi, config: WidgetConfig): RouteDefinition[] {
  const tags = ['Widget'];
  const limits = widgetLimits(config);
  const notFound = { description: 'No such hotel, or it is inactive, or its widget is off (one answer for all)' };
  const limited = { description: 'Too many requests from this address (`Retry-After`)' };
  return [
    ...settingsRoutes<WidgetSettingsChanges>({
      path: '/api/hotels/:slug/widget-settings',
      subject: "widget's settings",
      tags,
      readers: SETTINGS_READERS,
      writers: SETTINGS_WRITERS,
      schema: widgetSettingsSchema,
      changes: widgetSettingsChanges,
      changeDescription:
        '`services` (at most 50, unique `code`s) are offered by the widget and recorded on the bookings that ask for ' +
        'them; `allowed_origins` (at most 20 origins such as `https://hotel.example`) may call the widget routes ' +
        'from a browser (CORS); `is_enabled` false makes the widget answer 404 like an unknown hotel; ' +
        '`consent_text_version` (1 to 40 of `A-Z a-z 0-9 . _ -`) names the personal-data consent text the widget ' +
        'shows, recorded with each submission.',
      settings: widget.settings,
    }),
    defineRoute<unknown, unknown, SlugParams>({
      method: 'get',
      path: '/api/widget/:slug/config',
      summary: 'The widget configuration',
      description:
        'The hotel (name, address, phone, currency, times), its active room categories with photos and prices, its ' +
        'active `rental_objects`, and `widgetSettings` with `services`. Public data only; cached up to 5 s.',
      tags,
      access: { kind: 'public' },
      oneAnswer: unknownHotel,
      rateLimit: limits.read('widget.config'),
      request: { params: slugParams },
      responses: { 200: { description: 'Configuration', schema: widgetConfigAnswer }, 404: notFound, 429: limited },
      async handler({ params, res }) {
        res.json(await widget.config(params.slug));
      },
    }),
    defineRoute<unknown, OffersQuery, SlugParams>({
      method: 'get',
      path: '/api/widget/:slug/availability',
      summary: 'Free categories and prices for a stay',
      description:
        '`from`..`to` (hotel-local days, 1 to 31 nights, not in the past) for `guests` (1 to 20): the categories with ' +
        'a room for that many guests, rooms free per night, `available` (one room free every night and none of the ' +
        "category's restrictions broken: what a booking would accept), the price of the stay and per night from the " +
        'quote engine when available, and the hourly price where the category sells hours. A stay not available ' +
        'lists the `restrictions` it breaks and `alternatives`: the same length shifted by up to 3 days either way ' +
        'that can be booked, closest first. A stay no one room takes but rooms in turn do carries `split`, the ' +
        'nights of each room (fewest moves), which a booking may take.',
      tags,
      access: { kind: 'public' },
      oneAnswer: unknownHotel,
      rateLimit: limits.read('widget.availability'),
      request: { params: slugParams, query: offersQuery },
      responses: { 200: { description: 'Offers', schema: offersAnswer }, 404: notFound, 429: limited },
      async handler({ params, query, res }) {
        res.json(await widget.availability(params.slug, query));
      },
    }),
    defineRoute<WidgetBookingInput, unknown, SlugParams>({
      method: 'post',
      path: '/api/widget/:slug/bookings',
      summary: 'Submit a booking from the widget',
      description:
        'A stay of a category (`check_in`/`check_out`, at most 31 nights, or `start_at`/`end_at` for an hourly ' +
        'stay) for `guests_count` guests. Stored as an `online` `inquiry`, priced by the server (a `price` sent is ' +
        'ignored), with the guest profile matched by phone or e-mail; staff are notified. With online payment ' +
        'configured, `payment.confirmation_url` is the page where the guest pays (null if not ready within 3 s: ' +
        'submit again with the same `Idempotency-Key` to read it). `split`, as the availability offered it, books ' +
        'the split stay in the rooms the offer has now for those nights (the price of each room summed), under the ' +
        "same rules as staff's split stays. 409 when no room of the category is free (or the split stay offered no " +
        'longer is); 403 ' +
        'with one generic message whenever the hotel does not take the booking from this person. Each submission ' +
        'records the guest’s consent to the processing of personal data (152-FZ): the version of the text the ' +
        "widget's settings name (`consent_text_version`), and the time; `consent_version`, when sent, must be " +
        'that version (409 `consent_outdated` otherwise).',
      tags,
      access: { kind: 'public' },
      oneAnswer: unknownHotel,
      rateLimit: limits.submit,
      request: { params: slugParams, body: widgetBookingBody, headers: idempotencyKeyHeader },
      responses: {
        201: { description: 'Received', schema: widgetBookingAnswer },
        403: { description: 'Not taken (generic message)' },
        404: notFound,
        409: { description: 'Sold out for these dates (or the split stay offered), or the consent text changed' },
        422: { description: 'A rule of the stay refused it (e.g. dates in the wrong order, an unknown service)' },
        429: limited,
      },
      async handler({ params, body, headers, res }) {
        const result = await widget.submit(params.slug, body, headers['idempotency-key']);
        res.status(result.status).json(result.body);
      },
    }),
    defineRoute<WidgetRentalInput, unknown, SlugParams>({
      method: 'post',
      path: '/api/widget/:slug/rental-bookings',
      summary: 'Book a rental object from the widget',
      description:
        'An active rental object by the hour (`kind` `hourly`, `start_at`/`end_at` on whole hours within its opening ' +
        'hours) or the day (`daily`, `date_from`..`date_to`), priced by the server from its rates (a `price` sent is ' +
        'ignored). 409 names nothing of the other booking when the object (with its buffer) is taken; 403 as for room ' +
        'bookings; the consent is recorded as for room bookings.',
      tags,
      access: { kind: 'public' },
      oneAnswer: unknownHotel,
      rateLimit: limits.submit,
      request: { params: slugParams, body: widgetRentalBookingBody, headers: idempotencyKeyHeader },
      responses: {
        201: { description: 'Booked', schema: widgetRentalAnswer },
        403: { description: 'Not taken (generic message)' },
        404: notFound,
        409: { description: 'The object is taken at that time, or the consent text changed' },
        422: { description: 'Outside opening hours, a draft object, or a rule of the schedule' },
        429: limited,
      },
      async handler({ params, body, headers, res }) {
        const result = await widget.submitRental(params.slug, body, headers['idempotency-key']);
        res.status(result.status).json(result.body);
      },
    }),
    defineRoute<unknown, { email?: string; phone?: string }, SlugParams>({
      method: 'get',
      path: '/api/widget/:slug/guests/lookup',
      summary: 'Prefill for a returning guest',
      description:
        'By `email` or `phone` (one of them): `{ found, first_name }`, nothing more, so that a stranger learns at ' +
        'most a first name. Limited hard per address (`WIDGET_LOOKUPS_PER_15_MINUTES`, default 10 per 15 minutes).',
      tags,
      access: { kind: 'public' },
      oneAnswer: unknownHotel,
      rateLimit: limits.lookup,
      request: { params: slugParams, query: lookupQuery },
      responses: { 200: { description: 'Lookup', schema: lookupAnswer }, 404: notFound, 429: limited },
      async handler({ params, query, res }) {
        res.json(await widget.lookup(params.slug, query));
      },
    }),
  ];
}
