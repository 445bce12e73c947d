import Joi from 'joi';
import { defineHotelEvent } from '../../platform/realtime/events';
import { BOOKING_STATUSES, type BookingStatus } from './bookings.types';

interface BookingPayload {
  booking_id: string;
  room_id: string;
  status: BookingStatus;
  check_in: string | null;
  check_out: string | null;
  start_at: Date;
  end_at: Date;
}

const stay = {
  booking_id: Joi.string().uuid().required(),
  room_id: Joi.string().uuid().required(),
  status: Joi.string()
    .valid(...BOOKING_STATUSES)
    .required(),
  check_in: Joi.string().allow(null).required(),
  check_out: Joi.string().allow(null).required(),
  start_at: Joi.date().iso().required(),
  end_at: Joi.date().iso().required(),
};

export const bookingCreated = defineHotelEvent<BookingPayload>(
  'booking_created',
  'A booking was created: the calendar shows its room and span (nightly stays with their dates).',
  Joi.object(stay),
);

export const bookingUpdated = defineHotelEvent<BookingPayload & { changes: object }>(
  'booking_updated',
  'A booking changed (status, dates, room, payments): `changes` holds the fields given and their new values.',
  Joi.object({ ...stay, changes: Joi.object().unknown(true).required() }),
);
