import Joi from 'joi';
import type { PageRequest } from '../../platform/db/keyset';
import { crudRoutes } from '../../platform/http/crud';
import { idempotencyKeyHeader } from '../../platform/http/idempotency-key';
import { PAGE_HEADERS, pageQueryKeys, sendPage } from '../../platform/http/pagination';
import { ALL_STAFF, HOTEL_MANAGEMENT, type Role } from '../../platform/http/roles';
import { defineHotelRoute, type RouteDefinition } from '../../platform/http/route';
import { idParams, slugParams } from '../../platform/http/schemas';
import { MAX_RENTAL_DAYS, rentalMessages } from './rentals.messages';
import {
  createRentalBookingBody,
  createRentalObjectBody,
  MAX_CALENDAR_DAYS,
  rentalBookingListQuery,
  rentalBookingSchema,
  rentalObjectListQuery,
  rentalObjectSchema,
  updateRentalBookingBody,
  updateRentalObjectBody,
} from './rentals.schemas';
import type { RentalsService } from './rentals.service';
import type { RentalBookingChanges, RentalBookingFilter, RentalBookingInput } from './rentals.types';

/** Like room bookings: the desk and management book; accountants and security read the calendar too. */
const BOOKING_READERS: readonly Role[] = ['hotel_admin', 'manager', 'receptionist', 'accountant', 'security'];
const BOOKING_WRITERS: readonly Role[] = ['hotel_admin', 'manager', 'receptionist'];

const tags = ['Rentals'];

export function rentalsRoutes(rentals: RentalsService): RouteDefinition[] {
  const { bookings } = rentals;
  return [
    ...crudRoutes({
      basePath: '/api/hotels/:slug/rental-objects',
      noun: 'rental object',
      tags,
      readRoles: ALL_STAFF,
      writeRoles: HOTEL_MANAGEMENT,
      schemas: {
        item: rentalObjectSchema,
        create: createRentalObjectBody,
        update: updateRentalObjectBody,
        listQuery: rentalObjectListQuery,
      },
      service: rentals.objects,
      descriptions: {
        create:
          'Prices are decimal amounts. `open_hour` must come before `close_hour` (400), also when only one of them ' +
          'changes. A new hotel starts with three drafts (`is_active: false`): tennis court, sauna, conference hall.',
        remove: 'Refused with 409 once the object has bookings (cancelled ones too): make it a draft instead.',
      },
      refusals: { remove: { 409: { description: rentalMessages.objectHasBookings } } },
    }),
    defineHotelRoute<unknown, RentalBookingFilter & PageRequest>({
      method: 'get',
      path: '/api/hotels/:slug/rental-bookings',
      summary: 'List rental bookings (the rentals calendar)',
      description:
        `Bookings that occupy some of the hotel-local days \`from\`..\`to\` (inclusive, at most ${MAX_CALENDAR_DAYS} ` +
        'days), cancelled ones included unless `status` says otherwise, by start.',
      tags,
      access: { kind: 'hotel', roles: BOOKING_READERS },
      request: { params: slugParams, query: rentalBookingListQuery.keys(pageQueryKeys) },
      responses: {
        200: {
          description: 'Rental bookings by start, a page at a time',
          schema: Joi.array().items(rentalBookingSchema),
          headers: PAGE_HEADERS,
        },
      },
      async handler({ hotel, query, res }) {
        sendPage(res, await bookings.list(hotel.id, query));
      },
    }),
    defineHotelRoute<RentalBookingInput>({
      method: 'post',
      path: '/api/hotels/:slug/rental-bookings',
      summary: 'Book a rental object',
      description:
        '`hourly`: `start_at`..`end_at` on whole hours of the hotel clock (400 otherwise), at least one hour, within ' +
        "the object's opening hours of that day (422 otherwise). `daily`: days `date_from`..`date_to` inclusive, " +
        `at most ${MAX_RENTAL_DAYS} days; the object is held from its opening on the first day to its closing on the ` +
        "last. The object's `buffer_minutes` stay free after every booking: a booking that would overlap another, " +
        'or its buffer, is a 409 naming it. A draft object is a 422. `price` is computed from the rates (hours × ' +
        '`price_per_hour` or days × `price_per_day`); a price sent is ignored. `booking_id` charges it to a room ' +
        'booking of this hotel. Send `Idempotency-Key` to make retries safe: the same key and body answer the first ' +
        'result again; the same key with another body is refused (422).',
      tags,
      access: { kind: 'hotel', roles: BOOKING_WRITERS },
      request: { params: slugParams, body: createRentalBookingBody, headers: idempotencyKeyHeader },
      responses: {
        201: { description: 'Booked', schema: rentalBookingSchema },
        409: { description: 'The object is taken then (the message names the other booking)' },
        422: {
          description:
            'A draft object, hours outside its opening hours, the key used with another body, or a room booking ' +
            'checked out or cancelled to charge it to (`stay_closed`)',
        },
      },
      async handler({ hotel, body, auth, headers, res }) {
        const actor = { userId: auth.sub, hotelSlug: hotel.slug };
        const result = await bookings.create(hotel.id, body, actor, headers['idempotency-key']);
        res.status(result.status).json(result.body);
      },
    }),
    defineHotelRoute<unknown, unknown, { id: string }>({
      method: 'get',
      path: '/api/hotels/:slug/rental-bookings/:id',
      summary: 'Read a rental booking',
      tags,
      access: { kind: 'hotel', roles: BOOKING_READERS },
      concurrency: 'if-match',
      request: { params: idParams },
      responses: {
        200: { description: 'The rental booking', schema: rentalBookingSchema },
        404: { description: 'No such rental booking' },
      },
      async handler({ hotel, params, res }) {
        res.json(await bookings.get(hotel.id, params.id));
      },
    }),
    defineHotelRoute<RentalBookingChanges, unknown, { id: string }>({
      method: 'patch',
      path: '/api/hotels/:slug/rental-bookings/:id',
      summary: 'Change or cancel a rental booking',
      description:
        '`status: cancelled` cancels it (there is no DELETE: the booking stays in the history) and frees its time ' +
        'at once; a cancelled booking changes no more (422). A new object, kind, hours or days are checked as on ' +
        "creation and priced anew from the object's rates; a change of kind needs the new kind's fields.",
      tags,
      access: { kind: 'hotel', roles: BOOKING_WRITERS },
      concurrency: 'if-match',
      request: { params: idParams, body: updateRentalBookingBody },
      responses: {
        200: { description: 'The rental booking', schema: rentalBookingSchema },
        404: { description: 'No such rental booking' },
        409: { description: 'The new time clashes with another booking (named)' },
        422: {
          description:
            'Cancelled already, a draft object, hours outside its opening hours, or a new or higher charge to a room ' +
            'booking checked out or cancelled (`stay_closed`)',
        },
      },
      async handler({ hotel, auth, params, body, expectedVersion, res }) {
        res.json(await bookings.update(hotel.id, params.id, body, expectedVersion, auth?.sub ?? null));
      },
    }),
  ];
}
