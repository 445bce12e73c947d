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

/** A booking's move, as staff screens see it. */
export interface BookingMovedPayload {
  booking_id: string;
  room_id: string;
  from_room_id: string;
  to_room_id: string;
  from: string;
  reason: string;
  /** The guest changed rooms now (in house, tonight's move), not a move planned for later nights. */
  now: boolean;
  rooms: { room_id: string; from: string; to: string }[];
}

export const bookingMoved = defineHotelEvent<BookingMovedPayload>(
  'booking:moved',
  "A booking's nights from `from` moved from `from_room_id` to `to_room_id` (`now`: the guest in house changes rooms " +
    'tonight); `room_id` is the room the booking is in now and `rooms` its segments, in time order. A planned move ' +
    'not carried out because its room cannot take the guest, whose own room is still free, is sent as its nights ' +
    'moving back from the planned room to the room the guest stays in (`now` false): from `from` to the end of the ' +
    'planned segment only, not of the stay (a later planned room keeps its nights); `rooms` says which.',
  Joi.object({
    booking_id: Joi.string().uuid().required(),
    room_id: Joi.string().uuid().required(),
    from_room_id: Joi.string().uuid().required(),
    to_room_id: Joi.string().uuid().required(),
    from: Joi.string().required(),
    reason: Joi.string().required(),
    now: Joi.boolean().required(),
    rooms: Joi.array()
      .items(
        Joi.object({
          room_id: Joi.string().uuid().required(),
          from: Joi.string().required(),
          to: Joi.string().required(),
        }),
      )
      .required(),
  }),
);
