import Joi from 'joi';
import {
  calendarDate,
  dateSpan,
  hotelSlug,
  instant,
  MAX_STAY_NIGHTS,
  MAX_WINDOW_DAYS,
  money,
  moneyOut,
  percent,
} from '../../platform/http/schemas';
import { guestPhoneSchema } from '../guests';
import { brokenRestrictionSchema, restrictionNightKeys, stayVerdictKeys } from '../restrictions';
import { BOOKING_CHARGE_KINDS, BOOKING_SOURCES, BOOKING_STATUSES } from './bookings.types';
import { openApiComponent } from '../../platform/http/components';
import { pageQueryKeys } from '../../platform/http/pagination';

const name = Joi.string().trim().min(1).max(100);
/** A split stay's rooms at most (a move every night of a month). */
const MAX_SPLIT_SEGMENTS = 31;
const stayLimit = { maxDays: MAX_STAY_NIGHTS };
const windowLimit = { maxDays: MAX_WINDOW_DAYS };

/** Management's explicit sale against the hotel's restrictions (others: 403). */
const overrideRestrictions = Joi.boolean().description(
  "Sell the stay even if it breaks the hotel's restrictions (management only); recorded in `restrictions_override`",
);

const guestFields = {
  guest_last_name: name,
  guest_first_name: name,
  guest_middle_name: Joi.string().trim().max(100).allow(null, ''),
  guest_phone: guestPhoneSchema.allow(null),
  guest_email: Joi.string().trim().lowercase().email({ tlds: false }).max(254).allow(null),
};

export const createBookingBody = Joi.object({
  room_id: Joi.string().uuid(),
  rooms: Joi.array()
    .items(
      Joi.object({
        room_id: Joi.string().uuid().required(),
        from: calendarDate.required(),
        to: calendarDate.required(),
      }),
    )
    .min(2)
    .max(MAX_SPLIT_SEGMENTS)
    .description(
      "A split stay: its rooms in order, the first from `check_in`, each from the last one's `to`, the last to " +
        "`check_out` (as availability's `split` offers them); instead of `room_id` or `category_id`",
    ),
  category_id: Joi.string().uuid(),
  check_in: calendarDate,
  check_out: calendarDate,
  start_at: instant,
  end_at: instant,
  status: Joi.string().valid('inquiry', 'confirmed'),
  source: Joi.string().valid(...BOOKING_SOURCES),
  ...guestFields,
  guest_last_name: guestFields.guest_last_name.required(),
  guest_first_name: guestFields.guest_first_name.required(),
  guest_id: Joi.string().uuid(),
  guests_count: Joi.number().integer().min(1).max(100),
  tariff_id: Joi.string().uuid().allow(null),
  discount: percent,
  price: money,
  paid_amount: money,
  early_checkin: Joi.boolean(),
  late_checkout: Joi.boolean(),
  notes: Joi.string().trim().max(4000).allow(''),
  override_restrictions: overrideRestrictions,
})
  .xor('room_id', 'category_id', 'rooms')
  .xor('check_in', 'start_at')
  .with('rooms', 'check_in')
  .and('check_in', 'check_out')
  .and('start_at', 'end_at')
  .custom(dateSpan('check_in', 'check_out', stayLimit))
  .custom(dateSpan('start_at', 'end_at', stayLimit));

export const updateBookingBody = Joi.object({
  status: Joi.string().valid(...BOOKING_STATUSES),
  room_id: Joi.string().uuid(),
  check_in: calendarDate,
  check_out: calendarDate,
  start_at: instant,
  end_at: instant,
  source: Joi.string().valid(...BOOKING_SOURCES),
  ...guestFields,
  guests_count: Joi.number().integer().min(1).max(100),
  tariff_id: Joi.string().uuid().allow(null),
  discount: percent,
  price: money,
  early_checkin: Joi.boolean(),
  late_checkout: Joi.boolean(),
  notes: Joi.string().trim().max(4000).allow(''),
  cancel_reason: Joi.string().trim().max(500),
  override_restrictions: overrideRestrictions,
})
  .min(1)
  // The flag only lets a change through: alone it changes nothing, and is refused like an empty change.
  .custom((body: Record<string, unknown>, helpers) =>
    Object.keys(body).some((key) => key !== 'override_restrictions') ? body : helpers.error('booking.flagOnly'),
  )
  .messages({ 'booking.flagOnly': '{{#label}} must change something besides override_restrictions' })
  .custom(dateSpan('check_in', 'check_out', stayLimit))
  .custom(dateSpan('start_at', 'end_at', stayLimit));

export const moveBookingBody = Joi.object({
  room_id: Joi.string().uuid().required(),
  from: calendarDate.description(
    "The first night in the new room (hotel-local; default and earliest: tonight for a guest in house, else the stay's first night)",
  ),
  reason: Joi.string().trim().min(1).max(500).required(),
  reprice: Joi.boolean().description(
    "Quote the nights moved at the new room's price (default false: the booking's price stays)",
  ),
});

const segmentSchema = Joi.object({
  room_id: Joi.string().uuid(),
  from: Joi.string().description('Hotel-local day the stay enters the room'),
  to: Joi.string().description('Hotel-local day it leaves it'),
  start_at: Joi.date(),
  end_at: Joi.date(),
}).meta(openApiComponent('BookingRoomSegment'));

export const bookingListQuery = Joi.object({
  from: calendarDate,
  to: calendarDate,
  status: Joi.string().valid(...BOOKING_STATUSES),
  room_id: Joi.string().uuid(),
  q: Joi.string().trim().min(1).max(100),
  ...pageQueryKeys,
}).custom(dateSpan('from', 'to', windowLimit));

export const availabilityQuery = Joi.object({
  from: calendarDate.required(),
  to: calendarDate.required(),
  category_id: Joi.string().uuid(),
}).custom(dateSpan('from', 'to', windowLimit));

const bookingGuestSchema = Joi.object({ guest_id: Joi.string().uuid(), is_primary: Joi.boolean() }).meta(
  openApiComponent('BookingGuest'),
);

export const bookingSchema = Joi.object({
  id: Joi.string().uuid(),
  hotel_id: Joi.string().uuid(),
  room_id: Joi.string().uuid(),
  category_id: Joi.string().uuid(),
  kind: Joi.string().valid('nightly', 'hourly'),
  check_in: Joi.string().allow(null),
  check_out: Joi.string().allow(null),
  start_at: Joi.date(),
  end_at: Joi.date(),
  status: Joi.string().valid(...BOOKING_STATUSES),
  source: Joi.string().valid(...BOOKING_SOURCES),
  guest_last_name: Joi.string(),
  guest_first_name: Joi.string(),
  guest_middle_name: Joi.string().allow(null, ''),
  guest_phone: Joi.string().allow(null),
  guest_email: Joi.string().allow(null),
  guests_count: Joi.number().integer(),
  tariff_id: Joi.string().uuid().allow(null),
  discount: moneyOut,
  price: moneyOut,
  price_manual: Joi.boolean(),
  paid_amount: moneyOut,
  charges_amount: moneyOut.description('The bill lines beside the price: room service, less loyalty discounts'),
  balance: moneyOut.description('price + charges_amount - paid_amount'),
  early_checkin: Joi.boolean(),
  late_checkout: Joi.boolean(),
  guest_blacklisted: Joi.boolean(),
  notes: Joi.string().allow(''),
  checked_in_at: Joi.date().allow(null),
  checked_out_at: Joi.date().allow(null),
  cancelled_at: Joi.date().allow(null),
  cancel_reason: Joi.string().allow(null),
  created_by: Joi.string().uuid().allow(null),
  restrictions_override: Joi.object({
    by: Joi.string().uuid().allow(null),
    at: Joi.string(),
    restrictions: Joi.array().items(brokenRestrictionSchema),
  })
    .allow(null)
    .description('Set when management sold the stay against restrictions: by whom, when, and those it broke'),
  block_id: Joi.string().uuid().allow(null).description('The group block whose pickup made the stay'),
  created_at: Joi.date(),
  updated_at: Joi.date(),
  warnings: Joi.array().items(Joi.string()),
  guests: Joi.array().items(bookingGuestSchema).optional().description('Only when one booking is read'),
  rooms: Joi.array()
    .items(segmentSchema)
    .optional()
    .description(
      'The rooms the stay occupies, in time order (several after a move); when one booking is read, changed or moved',
    ),
}).meta(openApiComponent('Booking'));

export const chargeSchema = Joi.object({
  id: Joi.string().uuid(),
  hotel_id: Joi.string().uuid(),
  booking_id: Joi.string().uuid(),
  kind: Joi.string().valid(...BOOKING_CHARGE_KINDS),
  source_id: Joi.string().description('The order or loyalty ledger entry billed'),
  description: Joi.string(),
  amount: moneyOut.description('Positive: a charge; negative: a discount'),
  created_at: Joi.date(),
}).meta(openApiComponent('BookingCharge'));

export const availabilitySchema = Joi.object({
  from: Joi.string(),
  to: Joi.string(),
  nights: Joi.array().items(Joi.string()),
  categories: Joi.array().items(
    Joi.object({
      category_id: Joi.string().uuid(),
      total_rooms: Joi.number().integer(),
      free: Joi.array().items(Joi.number().integer()),
      ...stayVerdictKeys,
      split: Joi.array()
        .items(Joi.object({ room_id: Joi.string().uuid(), from: Joi.string(), to: Joi.string() }))
        .optional()
        .description(
          'When no one room is free every night but some room is each night (and no restriction is broken): the ' +
            'stay split over rooms with the fewest moves, as `rooms` of a new booking',
        ),
    }).description(
      'Per category, also the window `from`..`to` judged as one stay: `sellable` when a room of the category is free ' +
        "on every night and the stay breaks none of the category's restrictions; otherwise the `restrictions` it " +
        'breaks and its `alternatives`, checked against both restrictions and free rooms',
    ),
  ),
  rooms: Joi.array().items(
    Joi.object({
      room_id: Joi.string().uuid(),
      category_id: Joi.string().uuid(),
      free: Joi.array().items(Joi.boolean()),
    }),
  ),
}).meta(openApiComponent('Availability'));

export const bookingGuestParams = Joi.object({
  slug: hotelSlug.required(),
  id: Joi.string().uuid().required(),
  guestId: Joi.string().uuid().required(),
});

export const bookingGuestsSchema = Joi.array().items(bookingGuestSchema);

export const availabilityCalendarSchema = Joi.object({
  from: Joi.string(),
  to: Joi.string(),
  nights: Joi.array().items(Joi.string()),
  categories: Joi.array().items(
    Joi.object({
      category_id: Joi.string().uuid(),
      total_rooms: Joi.number().integer(),
      free: Joi.array()
        .items(Joi.number().integer())
        .description('Rooms that can be sold, per night: the free rooms less the units held by blocks'),
      held: Joi.array()
        .items(Joi.number().integer())
        .description('Units group blocks hold and have not picked up, per night'),
      restrictions: Joi.array()
        .items(Joi.object(restrictionNightKeys))
        .description("The nights holding a category-wide restriction (a tariff's own: `GET /restrictions`)"),
    }),
  ),
}).meta(openApiComponent('AvailabilityCalendar'));
