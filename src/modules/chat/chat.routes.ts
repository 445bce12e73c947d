import type { PageRequest } from '../../platform/db/keyset';
import { PAGE_HEADERS, sendPage } from '../../platform/http/pagination';
import { ALL_STAFF, HOTEL_MANAGEMENT } from '../../platform/http/roles';
import { defineHotelRoute, type RouteDefinition } from '../../platform/http/route';
import type { AccessTokenPayload } from '../../platform/http/access-token';
import { okResponse } from '../../platform/http/schemas';
import {
  createRoomBody,
  editBody,
  historyQuery,
  memberParams,
  membersBody,
  messageBody,
  messageListSchema,
  messageSchema,
  notifyBody,
  presenceBody,
  presenceListSchema,
  presenceSchema,
  reactionBody,
  reactionResultSchema,
  readBody,
  readResultSchema,
  renameRoomBody,
  roomListQuery,
  roomListSchema,
  roomParams,
  roomSchema,
  searchQuery,
  slugParams,
  typingBody,
} from './chat.schemas';
import type { ChatService } from './chat.service';
import type { Actor, HistoryQuery, NewMessage, NewRoom } from './chat.types';

const tags = ['Chat'];
const base = '/api/hotels/:slug/chat';
const access = { kind: 'hotel', roles: ALL_STAFF } as const;
const roomNotFound = { description: 'No such room of yours (another hotel’s, or one you are not in)' };
const messageNotFound = { description: 'No such message in a room of yours' };
const actorOf = (auth: AccessTokenPayload): Actor => ({ userId: auth.sub, role: auth.role });
type Id = { id: string };

export function chatRoutes(chat: ChatService): RouteDefinition[] {
  return [
    defineHotelRoute<unknown, PageRequest>({
      method: 'get',
      path: `${base}/rooms`,
      summary: 'List your chat rooms',
      description:
        'The rooms you are in and the notifications room (the hotel owner sees every room), newest first, each with ' +
        'its members, your read marker and your unread count.',
      tags,
      access,
      request: { params: slugParams, query: roomListQuery },
      responses: { 200: { description: 'Your rooms', schema: roomListSchema, headers: PAGE_HEADERS } },
      async handler({ hotel, auth, query, res }) {
        sendPage(res, await chat.listRooms(hotel.id, actorOf(auth), query));
      },
    }),
    defineHotelRoute<NewRoom>({
      method: 'post',
      path: `${base}/rooms`,
      summary: 'Open a direct room or create a group',
      description:
        '`direct`: you and one other member of staff; one room per pair, so asking again gives the same room (200). ' +
        '`group`: a name and its members; you are added.',
      tags,
      access,
      request: { params: slugParams, body: createRoomBody },
      responses: {
        200: { description: 'The direct room of that pair, which existed', schema: roomSchema },
        201: { description: 'Created', schema: roomSchema },
        422: { description: 'Not active staff of this hotel, or a direct room not of two' },
      },
      async handler({ hotel, auth, body, res }) {
        const { room, created } = await chat.createRoom(hotel.id, actorOf(auth), body);
        res.status(created ? 201 : 200).json(room);
      },
    }),
    defineHotelRoute<unknown, unknown, Id>({
      method: 'get',
      path: `${base}/rooms/:id`,
      summary: 'Read a chat room',
      tags,
      access,
      request: { params: roomParams },
      responses: { 200: { description: 'The room', schema: roomSchema }, 404: roomNotFound },
      async handler({ hotel, auth, params, res }) {
        res.json(await chat.getRoom(hotel.id, actorOf(auth), params.id));
      },
    }),
    defineHotelRoute<{ name: string }, unknown, Id>({
      method: 'patch',
      path: `${base}/rooms/:id`,
      summary: 'Rename a group',
      description: 'By its creator, a manager or the hotel owner.',
      tags,
      access,
      request: { params: roomParams, body: renameRoomBody },
      responses: {
        200: { description: 'The room', schema: roomSchema },
        404: roomNotFound,
        422: { description: 'Not a group' },
      },
      async handler({ hotel, auth, params, body, res }) {
        res.json(await chat.renameRoom(hotel.id, actorOf(auth), params.id, body.name));
      },
    }),
    defineHotelRoute<unknown, unknown, Id>({
      method: 'delete',
      path: `${base}/rooms/:id`,
      summary: 'Delete a room and its history',
      description: 'A group by its creator, a manager or the owner; a direct room by the owner only.',
      tags,
      access,
      request: { params: roomParams },
      responses: {
        200: { description: 'Deleted', schema: okResponse },
        404: roomNotFound,
        422: { description: 'The notifications room' },
      },
      async handler({ hotel, auth, params, res }) {
        await chat.deleteRoom(hotel.id, actorOf(auth), params.id);
        res.json({ ok: true });
      },
    }),
    defineHotelRoute<{ user_ids: string[] }, unknown, Id>({
      method: 'post',
      path: `${base}/rooms/:id/members`,
      summary: 'Add members to a group',
      description: 'By its creator, a manager or the owner; active staff of this hotel only.',
      tags,
      access,
      request: { params: roomParams, body: membersBody },
      responses: {
        200: { description: 'The room', schema: roomSchema },
        404: roomNotFound,
        422: { description: 'Not a group, or not active staff of this hotel' },
      },
      async handler({ hotel, auth, params, body, res }) {
        res.json(await chat.addMembers(hotel.id, actorOf(auth), params.id, body.user_ids));
      },
    }),
    defineHotelRoute<unknown, unknown, Id & { userId: string }>({
      method: 'delete',
      path: `${base}/rooms/:id/members/:userId`,
      summary: 'Take a member out of a group, or leave it',
      description: 'Anyone may leave; others are taken out by the creator, a manager or the owner.',
      tags,
      access,
      request: { params: memberParams },
      responses: {
        200: { description: 'Removed', schema: okResponse },
        404: { description: 'No such room of yours, or not a member' },
        422: { description: 'Not a group' },
      },
      async handler({ hotel, auth, params, res }) {
        await chat.removeMember(hotel.id, actorOf(auth), params.id, params.userId);
        res.json({ ok: true });
      },
    }),
    defineHotelRoute<unknown, HistoryQuery, Id>({
      method: 'get',
      path: `${base}/rooms/:id/messages`,
      summary: 'Read a room’s history',
      description:
        '50 messages, newest first. The next page: `before` = the `created_at` of the oldest one received (and ' +
        '`before_id` its `id`); more may exist exactly when 50 came back. Deleted messages keep their place with ' +
        '`text` and `attachment_url` null.',
      tags,
      access,
      request: { params: roomParams, query: historyQuery },
      responses: { 200: { description: 'Messages', schema: messageListSchema }, 404: roomNotFound },
      async handler({ hotel, auth, params, query, res }) {
        res.json(await chat.history(hotel.id, actorOf(auth), params.id, query));
      },
    }),
    defineHotelRoute<NewMessage, unknown, Id>({
      method: 'post',
      path: `${base}/rooms/:id/messages`,
      summary: 'Post a message',
      description:
        '`text` (1–4000 characters) and/or `attachment_url` (a file this hotel uploaded to the folder `chat`). ' +
        'Members post in their rooms; the owner in every room, the notifications room included. The room’s other ' +
        'members whose role has `chat_message` on are notified (in-app and push): one running notification per ' +
        'member and room, rewritten by each further message while they leave it unread.',
      tags,
      access,
      request: { params: roomParams, body: messageBody },
      responses: { 201: { description: 'Posted', schema: messageSchema }, 404: roomNotFound },
      async handler({ hotel, auth, params, body, res }) {
        res.status(201).json(await chat.post(hotel.id, actorOf(auth), params.id, body));
      },
    }),
    defineHotelRoute<{ message_id?: string }, unknown, Id>({
      method: 'post',
      path: `${base}/rooms/:id/read`,
      summary: 'Move your read marker',
      description:
        'To a message of the room, or to now; it never moves back. Your notification of the room’s messages is ' +
        'marked read once the marker covers them.',
      tags,
      access,
      request: { params: roomParams, body: readBody },
      responses: { 200: { description: 'Your marker', schema: readResultSchema }, 404: roomNotFound },
      async handler({ hotel, auth, params, body, res }) {
        res.json(await chat.markRead(hotel.id, actorOf(auth), params.id, body.message_id));
      },
    }),
    defineHotelRoute<{ text: string }, unknown, Id>({
      method: 'patch',
      path: `${base}/messages/:id`,
      summary: 'Edit your message',
      description: 'Your own messages only; `edited_at` is set.',
      tags,
      access,
      request: { params: roomParams, body: editBody },
      responses: {
        200: { description: 'The message', schema: messageSchema },
        404: messageNotFound,
        422: { description: 'Deleted' },
      },
      async handler({ hotel, auth, params, body, res }) {
        res.json(await chat.edit(hotel.id, actorOf(auth), params.id, body.text));
      },
    }),
    defineHotelRoute<unknown, unknown, Id>({
      method: 'delete',
      path: `${base}/messages/:id`,
      summary: 'Delete a message',
      description: 'Your own, or any as the hotel owner. Its text and attachment are gone from every later read.',
      tags,
      access,
      request: { params: roomParams },
      responses: { 200: { description: 'The deleted message', schema: messageSchema }, 404: messageNotFound },
      async handler({ hotel, auth, params, res }) {
        res.json(await chat.remove(hotel.id, actorOf(auth), params.id));
      },
    }),
    defineHotelRoute<{ emoji: string }, unknown, Id>({
      method: 'post',
      path: `${base}/messages/:id/reactions`,
      summary: 'Toggle your reaction',
      description: 'Adds your reaction with this emoji, or takes it back if it was there.',
      tags,
      access,
      request: { params: roomParams, body: reactionBody },
      responses: {
        200: { description: 'Reactions now', schema: reactionResultSchema },
        404: messageNotFound,
        422: { description: 'Deleted' },
      },
      async handler({ hotel, auth, params, body, res }) {
        res.json(await chat.react(hotel.id, actorOf(auth), params.id, body.emoji));
      },
    }),
    defineHotelRoute<unknown, { q: string; room_id?: string }>({
      method: 'get',
      path: `${base}/search`,
      summary: 'Search messages',
      description:
        'Full-text search (Russian and English word forms; `"phrases"`, `or`, `-word`) in the rooms you are in and ' +
        'the notifications room; the 50 newest matches. Deleted messages are never found.',
      tags,
      access,
      request: { params: slugParams, query: searchQuery },
      responses: { 200: { description: 'Matches', schema: messageListSchema }, 404: roomNotFound },
      async handler({ hotel, auth, query, res }) {
        res.json(await chat.search(hotel.id, actorOf(auth), query.q, query.room_id));
      },
    }),
    defineHotelRoute<{ text: string }>({
      method: 'post',
      path: `${base}/notify`,
      summary: 'Post a system message to the notifications room',
      description: 'A message without sender (`is_system`), read by all staff. The owner and managers.',
      tags,
      access: { kind: 'hotel', roles: HOTEL_MANAGEMENT },
      request: { params: slugParams, body: notifyBody },
      responses: { 201: { description: 'Posted', schema: messageSchema } },
      async handler({ hotel, body, res }) {
        res.status(201).json(await chat.notify(hotel.id, body.text));
      },
    }),
    defineHotelRoute<{ status: 'online' | 'offline' }>({
      method: 'post',
      path: `${base}/presence`,
      summary: 'Presence heartbeat',
      description:
        'Every 30 s while the chat is open; offline after two missed beats (`online_until`). `status: offline` ' +
        'signs off at once. The others get `chat:presence` when you come online or sign off.',
      tags,
      access,
      request: { params: slugParams, body: presenceBody },
      responses: { 200: { description: 'Your presence', schema: presenceSchema } },
      async handler({ hotel, auth, body, res }) {
        if (body.status === 'offline') {
          await chat.signOff(hotel.id, actorOf(auth));
          res.json({ user_id: auth.sub, online_until: null });
          return;
        }
        res.json(await chat.heartbeat(hotel.id, actorOf(auth)));
      },
    }),
    defineHotelRoute({
      method: 'get',
      path: `${base}/presence`,
      summary: 'Who is online',
      tags,
      access,
      request: { params: slugParams },
      responses: { 200: { description: 'Staff online now', schema: presenceListSchema } },
      async handler({ hotel, res }) {
        res.json(await chat.online(hotel.id));
      },
    }),
    defineHotelRoute<{ room_id: string }>({
      method: 'post',
      path: `${base}/typing`,
      summary: 'Tell the room you are typing',
      description: 'Every 2 s while typing; the other members get `chat:typing` (never stored).',
      tags,
      access,
      request: { params: slugParams, body: typingBody },
      responses: { 200: { description: 'Sent', schema: okResponse }, 404: roomNotFound },
      async handler({ hotel, auth, body, res }) {
        await chat.typing(hotel.id, actorOf(auth), body.room_id);
        res.json({ ok: true });
      },
    }),
  ];
}
