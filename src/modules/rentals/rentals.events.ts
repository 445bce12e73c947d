import Joi from 'joi';
import type { DbOrTrx } from '../../platform/db/knex';
import { defineHotelEvent } from '../../platform/realtime/events';
import { RENTAL_BOOKING_KINDS, RENTAL_BOOKING_STATUSES, type RentalBooking } from './rentals.types';

type RentalBookingPayload = Pick<RentalBooking, 'rental_object_id' | 'kind' | 'status' | 'start_at' | 'end_at'> & {
  rental_booking_id: string;
};

const slot = {
  rental_booking_id: Joi.string().uuid().required(),
  rental_object_id: Joi.string().uuid().required(),
  kind: Joi.string()
    .valid(...RENTAL_BOOKING_KINDS)
    .required(),
  status: Joi.string()
    .valid(...RENTAL_BOOKING_STATUSES)
    .required(),
  start_at: Joi.date().iso().required(),
  end_at: Joi.date().iso().required(),
};

export const rentalBookingCreated = defineHotelEvent<RentalBookingPayload>(
  'rental_booking_created',
  'A rental object was booked (at the desk or through the widget): the rentals calendar shows its object and span.',
  Joi.object(slot),
);

export const rentalBookingUpdated = defineHotelEvent<RentalBookingPayload & { changes: object }>(
  'rental_booking_updated',
  'A rental booking changed or was cancelled: `changes` holds the fields given and their new values.',
  Joi.object({ ...slot, changes: Joi.object().unknown(true).required() }),
);

function slotOf(booking: RentalBooking): RentalBookingPayload {
  const { id, rental_object_id, kind, status, start_at, end_at } = booking;
  return { rental_booking_id: id, rental_object_id, kind, status, start_at, end_at };
}

export const announceRentalBooking = {
  created: (conn: DbOrTrx, booking: RentalBooking) =>
    rentalBookingCreated.publish(conn, booking.hotel_id, slotOf(booking)),
  updated: (conn: DbOrTrx, booking: RentalBooking, changes: object) =>
    rentalBookingUpdated.publish(conn, booking.hotel_id, { ...slotOf(booking), changes }),
};
