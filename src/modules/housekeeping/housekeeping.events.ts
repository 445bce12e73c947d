import Joi from 'joi';
import { defineHotelEvent } from '../../platform/realtime/events';
import { ROOM_STATUSES, type RoomStatus } from '../rooms';
import {
  TASK_CATEGORIES,
  TASK_PRIORITIES,
  TASK_STATUSES,
  type TaskCategory,
  type TaskPriority,
  type TaskStatus,
} from './housekeeping.types';

const taskOfRoom = { task_id: Joi.string().uuid().required(), room_id: Joi.string().uuid().allow(null).required() };

export const taskCreated = defineHotelEvent<{
  task_id: string;
  room_id: string | null;
  category: TaskCategory;
  priority: TaskPriority;
  status: TaskStatus;
  assignee_id: string | null;
}>(
  'housekeeping_task_created',
  'A housekeeping or maintenance task was created (by staff, or the turnover clean of a check-out).',
  Joi.object({
    ...taskOfRoom,
    category: Joi.string()
      .valid(...TASK_CATEGORIES)
      .required(),
    priority: Joi.string()
      .valid(...TASK_PRIORITIES)
      .required(),
    status: Joi.string()
      .valid(...TASK_STATUSES)
      .required(),
    assignee_id: Joi.string().uuid().allow(null).required(),
  }),
);

export const taskUpdated = defineHotelEvent<{ task_id: string; room_id: string | null; changes: object }>(
  'housekeeping_updated',
  'A task changed: `changes` holds the fields given and their new values (a checklist item, the minibar check...).',
  Joi.object({ ...taskOfRoom, changes: Joi.object().unknown(true).required() }),
);

export const taskDone = defineHotelEvent<{ task_id: string; room_id: string | null; room_status: RoomStatus | null }>(
  'housekeeping_done',
  "A task is done; `room_status` is the room's status after it (for the calendar), null for a task without a room.",
  Joi.object({
    ...taskOfRoom,
    room_status: Joi.string()
      .valid(...ROOM_STATUSES)
      .allow(null)
      .required(),
  }),
);
