import Joi from 'joi';
import { defineHotelEvent } from '../../platform/realtime/events';
import { ROOM_STATUSES, type RoomStatus } from './rooms.types';

export const roomUpdated = defineHotelEvent<{
  room_id: string;
  status: RoomStatus;
  maintenance_from: Date | null;
  maintenance_to: Date | null;
}>(
  'room_updated',
  "A room's status or closure changed (by staff, a task, an emergency repair, a check-out): the room board updates.",
  Joi.object({
    room_id: Joi.string().uuid().required(),
    status: Joi.string()
      .valid(...ROOM_STATUSES)
      .required(),
    maintenance_from: Joi.date().iso().allow(null).required(),
    maintenance_to: Joi.date().iso().allow(null).required(),
  }),
);
