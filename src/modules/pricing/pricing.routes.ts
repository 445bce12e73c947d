import type { PageRequest } from '../../platform/db/keyset';
import { crudRoutes } from '../../platform/http/crud';
import { PAGE_HEADERS, pageQueryKeys, sendPage } from '../../platform/http/pagination';
import { defineHotelRoute, type RouteDefinition } from '../../platform/http/route';
import { ALL_STAFF, HOTEL_MANAGEMENT } from '../../platform/http/roles';
import { idParams, okResponse, slugParams } from '../../platform/http/schemas';
import type { OfferedQuote } from './pricing.offered';
import type { QuoteRequest } from './pricing.quote';
import {
  createPeriodBody,
  createTariffBody,
  dateWindowQuery,
  overrideSchema,
  periodSchema,
  quoteQuery,
  quoteSchema,
  setOverrideBody,
  tariffListQuery,
  tariffSchema,
  updatePeriodBody,
  updateTariffBody,
} from './pricing.schemas';
import { pricingMessages, type PricingService } from './pricing.service';
import type { DateWindow, OverrideInput } from './pricing.types';
import Joi from 'joi';

const tags = ['Pricing'];

export function pricingRoutes(pricing: PricingService, offeredQuote: OfferedQuote): RouteDefinition[] {
  return [
    ...crudRoutes({
      basePath: '/api/hotels/:slug/tariffs',
      noun: 'tariff',
      tags,
      readRoles: ALL_STAFF,
      writeRoles: HOTEL_MANAGEMENT,
      schemas: { item: tariffSchema, create: createTariffBody, update: updateTariffBody, listQuery: tariffListQuery },
      service: pricing.tariffs,
      descriptions: {
        create:
          'A rate plan relative to the category price: `adjustment_type` `percent` (e.g. -10 = 10 % off each night) or ' +
          '`fixed` (an amount added to each night, or each hour of an hourly stay); `min_nights`, `refundable`, `meals`.',
        remove: 'Refused with 409 once a booking names the tariff: make it inactive instead.',
      },
      refusals: { remove: { 409: { description: pricingMessages.tariffInUse } } },
    }),
    ...crudRoutes({
      basePath: '/api/hotels/:slug/rate-periods',
      noun: 'rate period',
      tags,
      readRoles: ALL_STAFF,
      writeRoles: HOTEL_MANAGEMENT,
      schemas: { item: periodSchema, create: createPeriodBody, update: updatePeriodBody, listQuery: dateWindowQuery },
      service: pricing.periods,
      descriptions: {
        create:
          'A season: dates `date_from`..`date_to` (inclusive) with a nightly `price` and/or `hourly_price` per category. ' +
          'Two periods may not price one category on the same date (409 naming the other period).',
      },
    }),
    defineHotelRoute<unknown, DateWindow & PageRequest>({
      method: 'get',
      path: '/api/hotels/:slug/rate-overrides',
      summary: 'List per-date price overrides',
      tags,
      access: { kind: 'hotel', roles: ALL_STAFF },
      request: { params: slugParams, query: dateWindowQuery.keys(pageQueryKeys) },
      responses: {
        200: { description: 'Overrides by date', schema: Joi.array().items(overrideSchema), headers: PAGE_HEADERS },
      },
      async handler({ hotel, query, res }) {
        sendPage(res, await pricing.overrides.list(hotel.id, query));
      },
    }),
    defineHotelRoute<OverrideInput>({
      method: 'post',
      path: '/api/hotels/:slug/rate-overrides',
      summary: 'Set the price of a category on a date (or on each date of a range)',
      description:
        '`date`, or `date_from` and `date_to` (at most 366 days); `price` (nightly) and/or `hourly_price`. ' +
        'An existing override for the same category and date is replaced. An override wins over periods and base prices.',
      tags,
      access: { kind: 'hotel', roles: HOTEL_MANAGEMENT },
      request: { params: slugParams, body: setOverrideBody },
      responses: { 200: { description: 'The overrides written', schema: Joi.array().items(overrideSchema) } },
      async handler({ hotel, body, res }) {
        res.json(await pricing.overrides.set(hotel.id, body));
      },
    }),
    defineHotelRoute<unknown, unknown, { id: string }>({
      method: 'delete',
      path: '/api/hotels/:slug/rate-overrides/:id',
      summary: 'Remove a price override',
      tags,
      access: { kind: 'hotel', roles: HOTEL_MANAGEMENT },
      request: { params: idParams },
      responses: { 200: { description: 'Removed', schema: okResponse }, 404: { description: 'No such override' } },
      async handler({ hotel, params, res }) {
        await pricing.overrides.remove(hotel.id, params.id);
        res.json({ ok: true });
      },
    }),
    defineHotelRoute<unknown, QuoteRequest>({
      method: 'get',
      path: '/api/hotels/:slug/quote',
      summary: 'Price a stay',
      description:
        'For `category_id` or `room_id`: nights `check_in`..`check_out` (dates), or an hourly stay `start_at`..`end_at` ' +
        '(ISO instants; every started hour is billed, priced by the hotel-local date it starts on) in categories that ' +
        "allow hourly stays. Each night or hour is priced by precedence: override > rate period > base (the room's " +
        "`base_rate`/`hourly_rate`, else the category's `base_price`/`hourly_base_price`); then the tariff adjustment " +
        "(`tariff_id`), the `discount` percent on the subtotal, and early check-in / late check-out fees (the room's " +
        'fee, or for a category the highest among its rooms). Money is decimal strings in the hotel currency. ' +
        "A stay of nights is also judged by the hotel's restrictions (category-wide and of the tariff): `sellable`, " +
        'the `restrictions` it breaks (`{ restriction, night, value }`, as the 422 of a booking) and, when it cannot ' +
        'be sold, `alternatives`: the same length shifted by up to 3 days either way that break none, closest first ' +
        '(earlier first on a tie, never in the past). Units group blocks hold count as in the staff availability: a ' +
        'stay on a night when they leave its category no free room is not sellable (no restriction named), nor is ' +
        'such a shift. Quotes do not see the rooms taken otherwise: the staff availability checks alternatives ' +
        'against free rooms too. An hourly stay has no restrictions.',
      tags,
      access: { kind: 'hotel', roles: ALL_STAFF },
      request: { params: slugParams, query: quoteQuery },
      responses: {
        200: { description: 'The itemized price', schema: quoteSchema },
        404: { description: 'No such category or room in this hotel' },
        422: { description: 'A rule refused the stay' },
      },
      async handler({ hotel, query, res }) {
        res.json(await offeredQuote(hotel.id, query));
      },
    }),
  ];
}
