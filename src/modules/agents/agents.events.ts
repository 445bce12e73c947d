import Joi from 'joi';
import { defineHotelEvent } from '../../platform/realtime/events';

export const workstationOnline = defineHotelEvent<{ workstation_id: string }>(
  'workstation:online',
  "A workstation's agent connected: its devices can be used from this hotel's desks.",
  Joi.object({ workstation_id: Joi.string().uuid().required() }),
);

export const workstationOffline = defineHotelEvent<{ workstation_id: string }>(
  'workstation:offline',
  "A workstation's agent disconnected, or its credential was replaced or revoked.",
  Joi.object({ workstation_id: Joi.string().uuid().required() }),
);
