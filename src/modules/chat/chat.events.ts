import Joi from 'joi';
import { defineHotelEvent } from '../../platform/realtime/events';
import { ROOM_TYPES, type MessageRow } from './chat.types';

const id = Joi.string().uuid();
const time = Joi.date().iso();

/** The message as the history shows it, without reactions (they change apart: `chat:reaction`). */
export const chatMessageCreated = defineHotelEvent<
  { message_id: string } & Pick<
    MessageRow,
    'room_id' | 'sender_id' | 'is_system' | 'text' | 'attachment_url' | 'created_at'
  >
>(
  'chat:message',
  'A chat message was posted. Sent only to the members of its room (every member of staff for the notifications room).',
  Joi.object({
    message_id: id.required(),
    room_id: id.required(),
    sender_id: id.allow(null).required(),
    is_system: Joi.boolean().required(),
    text: Joi.string().allow(null).required(),
    attachment_url: Joi.string().allow(null).required(),
    created_at: time.required(),
  }),
);

export const chatMessageEdited = defineHotelEvent<{
  message_id: string;
  room_id: string;
  text: string | null;
  edited_at: Date;
}>(
  'chat:message_edited',
  'A chat message was edited by its author; to the members of its room.',
  Joi.object({
    message_id: id.required(),
    room_id: id.required(),
    text: Joi.string().allow(null).required(),
    edited_at: time.required(),
  }),
);

export const chatMessageDeleted = defineHotelEvent<{ message_id: string; room_id: string; deleted_at: Date }>(
  'chat:message_deleted',
  'A chat message was deleted (its text is gone); to the members of its room.',
  Joi.object({ message_id: id.required(), room_id: id.required(), deleted_at: time.required() }),
);

export const chatReaction = defineHotelEvent<{
  message_id: string;
  room_id: string;
  user_id: string;
  emoji: string;
  reacted: boolean;
}>(
  'chat:reaction',
  'Someone added (`reacted` true) or took back a reaction; to the members of the room.',
  Joi.object({
    message_id: id.required(),
    room_id: id.required(),
    user_id: id.required(),
    emoji: Joi.string().required(),
    reacted: Joi.boolean().required(),
  }),
);

export const chatRead = defineHotelEvent<{ room_id: string; user_id: string; last_read_at: Date }>(
  'chat:read',
  'A member moved their read marker; to the members of the room.',
  Joi.object({ room_id: id.required(), user_id: id.required(), last_read_at: time.required() }),
);

export const chatRoomChanged = defineHotelEvent<{
  room_id: string;
  type: string;
  change: 'created' | 'updated' | 'members' | 'deleted';
}>(
  'chat:room',
  'A chat room was created, renamed, deleted or its members changed; to its members (before and after the ' +
    'change): reload the rooms list.',
  Joi.object({
    room_id: id.required(),
    type: Joi.string()
      .valid(...ROOM_TYPES)
      .required(),
    change: Joi.string().valid('created', 'updated', 'members', 'deleted').required(),
  }),
);

export const chatPresence = defineHotelEvent<{
  user_id: string;
  status: 'online' | 'offline';
  online_until: Date | null;
}>(
  'chat:presence',
  'A member of staff came online (their first heartbeat) or signed off; ephemeral (never replayed, `id` is the ' +
    'socket’s position). Without a further event, a user is offline after `online_until`.',
  Joi.object({
    user_id: id.required(),
    status: Joi.string().valid('online', 'offline').required(),
    online_until: time.allow(null).required(),
  }),
);

export const chatTyping = defineHotelEvent<{ room_id: string; user_id: string }>(
  'chat:typing',
  'A member is typing in the room (sent every 2 s while they type); to the other members; ephemeral (never ' +
    'replayed, `id` is the socket’s position).',
  Joi.object({ room_id: id.required(), user_id: id.required() }),
);

export const CHAT_EVENTS = [
  chatMessageCreated,
  chatMessageEdited,
  chatMessageDeleted,
  chatReaction,
  chatRead,
  chatRoomChanged,
  chatPresence,
  chatTyping,
];
