import Joi from 'joi';
import { defineHotelRoute, type RouteDefinition } from '../../platform/http/route';
import { HOTEL_MANAGEMENT, type Role } from '../../platform/http/roles';
import { slugParams } from '../../platform/http/schemas';
import {
  restrictionNightSchema,
  restrictionsQuery,
  writeRestrictionsBody,
  writeResultSchema,
} from './restrictions.schemas';
import type { RestrictionsService } from './restrictions.service';
import {
  MAX_READ_NIGHTS,
  MAX_READ_NIGHTS_ALL,
  MAX_WRITE_ITEMS,
  MAX_WRITE_NIGHTS,
  type RestrictionQuery,
  type RestrictionWrite,
} from './restrictions.types';

/** Those who see the bookings see what may be sold; management sets it. */
const RESTRICTION_READERS: readonly Role[] = ['hotel_admin', 'manager', 'receptionist', 'accountant', 'security'];

const tags = ['Restrictions'];

export function restrictionsRoutes(restrictions: RestrictionsService): RouteDefinition[] {
  return [
    defineHotelRoute<{ items: RestrictionWrite[] }>({
      method: 'put',
      path: '/api/hotels/:slug/restrictions',
      summary: 'Set or clear restrictions over ranges of nights',
      description:
        `Up to ${MAX_WRITE_ITEMS} \`items\`, written in order in one transaction (all or nothing). Each names a ` +
        '`category_id`, optionally a `tariff_id` (without one it holds for every tariff of the category), the nights ' +
        `\`from\`..\`to\` (inclusive, at most ${MAX_WRITE_NIGHTS}) and optionally \`weekdays\` (ISO, 1 Monday), and ` +
        'the fields it sets (a value) or clears (`null`; `false` for a flag): `min_stay_arrival`, `max_stay`, ' +
        '`closed_to_arrival`, `min_advance_days`, `max_advance_days` are read on the arrival night, `min_stay_through` ' +
        'and `stop_sell` on every night of a stay, `closed_to_departure` on the departure day. Other fields of those ' +
        'nights stay as they were: a range written over the middle of another leaves it on both sides.',
      tags,
      access: { kind: 'hotel', roles: HOTEL_MANAGEMENT },
      request: { params: slugParams, body: writeRestrictionsBody },
      responses: {
        200: { description: 'Written', schema: writeResultSchema },
        400: { description: 'Invalid items, or a category or tariff not of this hotel: nothing is written' },
      },
      async handler({ hotel, body, res }) {
        res.json(await restrictions.write(hotel.id, body.items));
      },
    }),
    defineHotelRoute<unknown, RestrictionQuery>({
      method: 'get',
      path: '/api/hotels/:slug/restrictions',
      summary: 'Restrictions per night',
      description:
        `The nights \`from\`..\`to\` (inclusive, at most ${MAX_READ_NIGHTS}) that hold a restriction, one entry per ` +
        'category, tariff (category-wide first) and night; `category_id` and `tariff_id` narrow it (over ' +
        `${MAX_READ_NIGHTS_ALL} nights, \`category_id\` is required: 400 otherwise). A night without an entry has none.`,
      tags,
      access: { kind: 'hotel', roles: RESTRICTION_READERS },
      request: { params: slugParams, query: restrictionsQuery },
      responses: { 200: { description: 'Restrictions by night', schema: Joi.array().items(restrictionNightSchema) } },
      async handler({ hotel, query, res }) {
        res.json(await restrictions.read(hotel.id, query));
      },
    }),
  ];
}
