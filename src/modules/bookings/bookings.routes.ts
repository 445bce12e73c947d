import Joi from 'joi';
import type { PageRequest } from '../../platform/db/keyset';
import { idempotencyKeyHeader } from '../../platform/http/idempotency-key';
import { PAGE_HEADERS, sendPage } from '../../platform/http/pagination';
import { defineHotelRoute, type RouteDefinition } from '../../platform/http/route';
import type { Role } from '../../platform/http/roles';
import { idParams, slugParams } from '../../platform/http/schemas';
import {
  availabilityCalendarSchema,
  availabilityQuery,
  availabilitySchema,
  bookingListQuery,
  bookingGuestsSchema,
  bookingSchema,
  createBookingBody,
  bookingGuestParams,
  chargeSchema,
  moveBookingBody,
  updateBookingBody,
} from './bookings.schemas';
import { assertMayOverride, mayOverride } from '../restrictions';
import type { BookingsService } from './bookings.service';
import type { BookingChanges, BookingFilter, BookingInput, BookingMoveInput } from './bookings.types';

/** The front desk and management book; accountants and security read the calendar too. */
const BOOKING_READERS: readonly Role[] = ['hotel_admin', 'manager', 'receptionist', 'accountant', 'security'];
const BOOKING_WRITERS: readonly Role[] = ['hotel_admin', 'manager', 'receptionist'];
const PAYMENT_WRITERS: readonly Role[] = ['hotel_admin', 'manager', 'receptionist', 'accountant'];

const tags = ['Bookings'];

export function bookingsRoutes(bookings: BookingsService): RouteDefinition[] {
  return [
    defineHotelRoute<unknown, BookingFilter & PageRequest>({
      method: 'get',
      path: '/api/hotels/:slug/bookings',
      summary: 'List bookings (the calendar)',
      description:
        '`from`/`to`: hotel-local days the stays overlap; `q` searches guest names, e-mail and the phone (a whole ' +
        'number however it is typed, or digits of it).',
      tags,
      access: { kind: 'hotel', roles: BOOKING_READERS },
      request: { params: slugParams, query: bookingListQuery },
      responses: {
        200: { description: 'Bookings by start', schema: Joi.array().items(bookingSchema), headers: PAGE_HEADERS },
      },
      async handler({ hotel, query, res }) {
        sendPage(res, await bookings.list(hotel.id, query));
      },
    }),
    defineHotelRoute<BookingInput>({
      method: 'post',
      path: '/api/hotels/:slug/bookings',
      summary: 'Create a booking',
      description:
        "A `room_id`, or a `category_id` for the hotel's room assignment strategy (`spread`, `together`, `sequential`; " +
        '`manual` requires a room, 422), or `rooms` for a split stay (its segments in order, as availability offers ' +
        'them; a night held in any is a 409 naming the clash). Nights `check_in`..`check_out` occupy the room from the check-in time of the ' +
        "first day to the check-out time of the last, in the hotel's time zone; an hourly stay `start_at`..`end_at` " +
        'fits between them. A room already held (inquiry, confirmed, checked in) in that span is a 409 naming the clash; ' +
        'a room closed or under maintenance is a 422. `price` comes from the pricing service unless given. The guest ' +
        "profile is found by phone or e-mail, or created; a blacklisted guest's booking is flagged (`warnings`). " +
        "A stay of nights that breaks the hotel's restrictions is a 422 `restriction_<name>` naming the night, unless " +
        'management sends `override_restrictions` (recorded in `restrictions_override`; others get 403). ' +
        'Send `Idempotency-Key` to make retries safe: the same key and body answer the first result again; the same ' +
        'key with another body is refused (422).',
      tags,
      access: { kind: 'hotel', roles: BOOKING_WRITERS },
      request: { params: slugParams, body: createBookingBody, headers: idempotencyKeyHeader },
      responses: {
        201: { description: 'Created', schema: bookingSchema },
        409: {
          description: 'The room is taken (the message names the other booking), or no room of the category is free',
        },
        422: { description: 'A rule refused it' },
      },
      async handler({ hotel, body, auth, headers, res }) {
        assertMayOverride(auth.role, body.override_restrictions);
        const actor = { userId: auth.sub, hotelSlug: hotel.slug, mayOverride: mayOverride(auth.role) };
        const result = await bookings.create(hotel.id, body, actor, headers['idempotency-key']);
        res.status(result.status).json(result.body);
      },
    }),
    defineHotelRoute<unknown, { from: string; to: string; category_id?: string }>({
      method: 'get',
      path: '/api/hotels/:slug/availability',
      summary: 'Free rooms and categories per night',
      description:
        "Nights [`from`, `to`) (at most 93); a room is free for a night when nothing holds it from that day's " +
        "check-in time to the next day's check-out time and it is not closed. Per category, the window is also judged " +
        "as one stay: `sellable` (a room free every night, none of the category's restrictions broken), else the " +
        '`restrictions` it breaks (`{ restriction, night, value }`, as the 422 of a booking) and `alternatives`: the ' +
        'same length shifted by up to 3 days either way, free and unrestricted, closest first; when no one room is free ' +
        'every night but some room is each night, `split`: the rooms with the fewest moves, to book as `rooms`.',
      tags,
      access: { kind: 'hotel', roles: BOOKING_READERS },
      request: { params: slugParams, query: availabilityQuery },
      responses: { 200: { description: 'Availability', schema: availabilitySchema } },
      async handler({ hotel, query, res }) {
        res.json(await bookings.availability(hotel.id, query));
      },
    }),
    defineHotelRoute<unknown, { from: string; to: string; category_id?: string }>({
      method: 'get',
      path: '/api/hotels/:slug/availability/calendar',
      summary: 'Revenue calendar: rooms to sell and restrictions per category and night',
      description:
        'Nights [`from`, `to`) (at most 366): per category, its rooms, how many can be sold each night (free as in ' +
        '`/availability`), and the nights holding a category-wide restriction with their values (as ' +
        '`GET /restrictions` reads them).',
      tags,
      access: { kind: 'hotel', roles: BOOKING_READERS },
      request: { params: slugParams, query: availabilityQuery },
      responses: { 200: { description: 'The calendar', schema: availabilityCalendarSchema } },
      async handler({ hotel, query, res }) {
        res.json(await bookings.calendar(hotel.id, query));
      },
    }),
    defineHotelRoute<unknown, unknown, { id: string }>({
      method: 'get',
      path: '/api/hotels/:slug/bookings/:id',
      summary: 'Read a booking',
      tags,
      access: { kind: 'hotel', roles: BOOKING_READERS },
      concurrency: 'if-match',
      request: { params: idParams },
      responses: {
        200: { description: 'The booking', schema: bookingSchema },
        404: { description: 'No such booking' },
      },
      async handler({ hotel, params, res }) {
        res.json(await bookings.get(hotel.id, params.id));
      },
    }),
    defineHotelRoute<BookingChanges, unknown, { id: string }>({
      method: 'patch',
      path: '/api/hotels/:slug/bookings/:id',
      summary: 'Update a booking, or move its status',
      description:
        'Status moves: `inquiry` → `confirmed` | `cancelled`; `confirmed` → `checked_in` | `cancelled`; `checked_in` → ' +
        '`checked_out`; `checked_out` and `cancelled` are final (422 otherwise). Check-in honours ' +
        '`require_payment_checkin`: `hard` refuses while a balance is due (422), `soft` answers with a warning. ' +
        'Check-out, in the same transaction, frees the room from now and, with `checkout_auto`, makes it `dirty` ' +
        'with a turnover task. Dates, room or tariff changes re-price the stay unless its price was set by hand. New ' +
        "dates, room or tariff are checked against the hotel's restrictions (422 `restriction_<name>` for what they break " +
        'anew, unless management sends `override_restrictions`).',
      tags,
      access: { kind: 'hotel', roles: BOOKING_WRITERS },
      concurrency: 'if-match',
      request: { params: idParams, body: updateBookingBody },
      responses: {
        200: { description: 'The booking', schema: bookingSchema },
        404: { description: 'No such booking' },
        409: { description: 'The new room or dates clash with another booking' },
        422: { description: 'An illegal move or a refused check-in' },
      },
      async handler({ hotel, params, body, auth, expectedVersion, res }) {
        assertMayOverride(auth.role, body.override_restrictions);
        const actor = { userId: auth.sub, hotelSlug: hotel.slug, mayOverride: mayOverride(auth.role) };
        res.json(await bookings.lifecycle.change(hotel.id, params.id, body, actor, { expected: expectedVersion }));
      },
    }),
    defineHotelRoute<BookingMoveInput, unknown, { id: string }>({
      method: 'post',
      path: '/api/hotels/:slug/bookings/:id/move',
      summary: "Move a booking's nights to another room",
      description:
        'The nights from `from` to the end of the stay go to `room_id` (any category), the earlier ones stay where ' +
        "they were; the answer's `rooms` lists the stay's segments. For a guest in house `from` is tonight at the " +
        "earliest (the default): moved tonight, the booking's `room_id` becomes the new room at once, the room left " +
        'gets its turnover, the TV system is told and the desk is offered a new door card (a notification); a later ' +
        "night plans the move, which the booking's workflow carries out on that day at the hotel's check-in time, as " +
        'a move tonight (once; a plan changed or undone before then is not). `reprice` quotes the nights moved at ' +
        "the new room's price (the earlier nights keep their share of the price). A cancelled or finished booking, an " +
        'hourly stay, a night outside the stay or the room the guest has then are 422, a room closed, under ' +
        'maintenance or too small 422, a room held on any of the nights 409 naming the other booking.',
      tags,
      access: { kind: 'hotel', roles: BOOKING_WRITERS },
      concurrency: 'if-match',
      request: { params: idParams, body: moveBookingBody },
      responses: {
        200: { description: 'The booking, with its rooms', schema: bookingSchema },
        404: { description: 'No such booking' },
        409: { description: 'The room is held on a night of the move (the message names the other booking)' },
        422: { description: 'A rule refused it' },
      },
      async handler({ hotel, params, body, auth, expectedVersion, res }) {
        const actor = { userId: auth.sub, hotelSlug: hotel.slug };
        res.json(await bookings.moves.move(hotel.id, params.id, body, actor, expectedVersion));
      },
    }),
    defineHotelRoute<{ guest_id: string }, unknown, { id: string }>({
      method: 'post',
      path: '/api/hotels/:slug/bookings/:id/guests',
      summary: 'Add a guest profile to a booking',
      tags,
      access: { kind: 'hotel', roles: BOOKING_WRITERS },
      request: { params: idParams, body: Joi.object({ guest_id: Joi.string().uuid().required() }) },
      responses: {
        200: { description: "The booking's guests", schema: bookingGuestsSchema },
        404: { description: 'No such booking' },
      },
      async handler({ hotel, params, body, res }) {
        res.json(await bookings.guests.add(hotel.id, params.id, body.guest_id));
      },
    }),
    defineHotelRoute<unknown, unknown, { id: string; guestId: string }>({
      method: 'delete',
      path: '/api/hotels/:slug/bookings/:id/guests/:guestId',
      summary: 'Remove a guest profile from a booking',
      tags,
      access: { kind: 'hotel', roles: BOOKING_WRITERS },
      request: { params: bookingGuestParams },
      responses: {
        200: { description: "The booking's guests", schema: bookingGuestsSchema },
        404: { description: 'Not linked' },
      },
      async handler({ hotel, params, res }) {
        res.json(await bookings.guests.remove(hotel.id, params.id, params.guestId));
      },
    }),
    defineHotelRoute<unknown, unknown, { id: string }>({
      method: 'get',
      path: '/api/hotels/:slug/bookings/:id/charges',
      summary: "Lines of a stay's bill beside its price",
      description:
        'Room service delivered to the room (positive) and loyalty points redeemed (negative), oldest first; their ' +
        "sum is the booking's `charges_amount`, part of its `balance`.",
      tags,
      access: { kind: 'hotel', roles: PAYMENT_WRITERS },
      request: { params: idParams },
      responses: {
        200: { description: 'Bill lines', schema: Joi.array().items(chargeSchema) },
        404: { description: 'No such booking' },
      },
      async handler({ hotel, params, res }) {
        res.json(await bookings.charges.list(hotel.id, params.id));
      },
    }),
  ];
}
