import Joi from 'joi';
import { openApiComponent } from '../../platform/http/components';
import { pageQueryKeys } from '../../platform/http/pagination';
import { idParams, instant, slugParams } from '../../platform/http/schemas';
import {
  MAX_EMOJI_LENGTH,
  MAX_MEMBERS_PER_CHANGE,
  MAX_ROOM_NAME_LENGTH,
  MAX_SEARCH_LENGTH,
  MAX_TEXT_LENGTH,
} from './chat.rules';
import { ROOM_TYPES } from './chat.types';

const uuid = Joi.string().uuid();
const text = Joi.string().min(1).max(MAX_TEXT_LENGTH);
const roomName = Joi.string().trim().min(1).max(MAX_ROOM_NAME_LENGTH);
const userIds = Joi.array().items(uuid.required()).min(1).max(MAX_MEMBERS_PER_CHANGE).unique();

export const roomParams = idParams;
export const memberParams = idParams.keys({ userId: uuid.required() });

export const roomListQuery = Joi.object(pageQueryKeys);

export const createRoomBody = Joi.object({
  type: Joi.string().valid('direct', 'group').required().description('`direct`: you and one other; `group`: named'),
  name: roomName.description('A group’s name (required for a group, ignored for a direct room)'),
  member_ids: userIds.required().description('The other members (active staff of this hotel); you are added'),
});

export const renameRoomBody = Joi.object({ name: roomName.required() });

export const membersBody = Joi.object({ user_ids: userIds.required() });

export const historyQuery = Joi.object({
  before: instant.description('Messages created strictly before this instant: the `created_at` of the oldest one seen'),
  before_id: uuid.description(
    'With `before`: the `id` of the oldest one seen, so messages of the same millisecond are not skipped',
  ),
}).with('before_id', 'before');

export const messageBody = Joi.object({
  text,
  attachment_url: Joi.string()
    .uri({ scheme: ['http', 'https'] })
    .max(2000)
    .description('A file this hotel uploaded with `POST /api/upload?folder=chat`'),
}).or('text', 'attachment_url');

export const editBody = Joi.object({ text: text.required() });

export const reactionBody = Joi.object({
  emoji: Joi.string()
    .min(1)
    .max(MAX_EMOJI_LENGTH)
    .pattern(/^\S+$/u, 'no spaces')
    .required()
    .description('An emoji (a reaction is toggled per user and emoji)'),
});

export const readBody = Joi.object({
  message_id: uuid.description('Read up to this message of the room (default: everything until now)'),
});

export const searchQuery = Joi.object({
  q: Joi.string().trim().min(1).max(MAX_SEARCH_LENGTH).required().description('Words to find (Russian or English)'),
  room_id: uuid.description('Only in this room'),
});

export const notifyBody = Joi.object({ text: text.required() });

export const presenceBody = Joi.object({
  status: Joi.string().valid('online', 'offline').default('online').description('`offline` when signing off'),
});

export const typingBody = Joi.object({ room_id: uuid.required() });

export const reactionSummarySchema = Joi.object({
  emoji: Joi.string(),
  count: Joi.number().integer(),
  user_ids: Joi.array().items(uuid),
}).meta(openApiComponent('ChatReaction'));

export const messageSchema = Joi.object({
  id: uuid,
  room_id: uuid,
  sender_id: uuid.allow(null).description('null for system messages'),
  is_system: Joi.boolean(),
  text: Joi.string().allow(null).description('null once deleted'),
  attachment_url: Joi.string().allow(null),
  created_at: Joi.date(),
  edited_at: Joi.date().allow(null),
  deleted_at: Joi.date().allow(null),
  reactions: Joi.array().items(reactionSummarySchema),
}).meta(openApiComponent('ChatMessage'));

export const messageListSchema = Joi.array().items(messageSchema);

export const roomSchema = Joi.object({
  id: uuid,
  type: Joi.string().valid(...ROOM_TYPES),
  name: Joi.string().allow(null),
  created_by: uuid.allow(null),
  member_ids: Joi.array().items(uuid).description('Empty for the notifications room: every member of staff reads it'),
  created_at: Joi.date(),
  updated_at: Joi.date(),
  last_message_at: Joi.date().allow(null),
  last_read_at: Joi.date().allow(null).description('Your read marker'),
  unread_count: Joi.number().integer().description('Messages of others after your read marker'),
}).meta(openApiComponent('ChatRoom'));

export const roomListSchema = Joi.array().items(roomSchema);

export const reactionResultSchema = Joi.object({
  message_id: uuid,
  emoji: Joi.string(),
  reacted: Joi.boolean().description('Whether your reaction is there now'),
  reactions: Joi.array().items(reactionSummarySchema),
}).meta(openApiComponent('ChatReactionToggle'));

export const readResultSchema = Joi.object({
  room_id: uuid,
  last_read_at: Joi.date(),
  unread_count: Joi.number().integer(),
}).meta(openApiComponent('ChatReadMarker'));

export const presenceSchema = Joi.object({
  user_id: uuid,
  online_until: Joi.date()
    .allow(null)
    .description('Offline after this unless another heartbeat comes (null: signed off)'),
}).meta(openApiComponent('ChatPresence'));

export const presenceListSchema = Joi.array().items(presenceSchema);

export { slugParams };
