import type { Knex } from 'knex';
import type { Db, DbOrTrx } from '../../platform/db/knex';
import type { Page, PageRequest } from '../../platform/db/keyset';
import { BusinessRuleError, ForbiddenError, NotFoundError, ValidationError } from '../../platform/errors';
import type { UploadsService } from '../uploads';
import {
  chatMessageCreated,
  chatMessageDeleted,
  chatMessageEdited,
  chatReaction,
  chatRead,
  chatRoomChanged,
} from './chat.events';
import { chatMessages } from './chat.messages';
import { chatRepository as repo } from './chat.repository';
import {
  HISTORY_PAGE_SIZE,
  SEARCH_PAGE_SIZE,
  directKey,
  isChatAdmin,
  isChatUploadUrl,
  mayDeleteMessage,
  mayManage,
  mayPost,
  maySee,
  otherMembers,
} from './chat.rules';
import type {
  Actor,
  HistoryQuery,
  MessageRow,
  MessageView,
  NewMessage,
  NewRoom,
  RoomRow,
  RoomView,
} from './chat.types';
import { createPresence } from './chat.presence';
import { createChatNotices, type ChatNotifications } from './chat.notices';

export interface ChatDependencies {
  uploads: Pick<UploadsService, 'assertOwnUploads'>;
  notifications: ChatNotifications;
}

const roomNotFound = () => new NotFoundError(chatMessages.roomNotFound);
const messageNotFound = () => new NotFoundError(chatMessages.messageNotFound);

/** Who receives a room's events: its members; the notifications room belongs to the whole hotel. */
async function audienceOf(conn: DbOrTrx, room: Pick<RoomRow, 'id' | 'type'>) {
  return room.type === 'notifications' ? {} : { audience: await repo.memberIds(conn, room.id) };
}

/** Tells a room's members (by default those after the change) that the room changed: their lists reload. */
async function announce(
  trx: Knex.Transaction,
  hotelId: string,
  room: Pick<RoomRow, 'id' | 'type'>,
  change: 'created' | 'updated' | 'members' | 'deleted',
  to?: { audience?: readonly string[] },
) {
  await chatRoomChanged.publish(
    trx,
    hotelId,
    { room_id: room.id, type: room.type, change },
    to ?? (await audienceOf(trx, room)),
  );
}

async function withReactions(conn: DbOrTrx, rows: MessageRow[]): Promise<MessageView[]> {
  const reactions = await repo.reactionsOf(
    conn,
    rows.map((row) => row.id),
  );
  return rows.map((row) => present(row, reactions.get(row.id)));
}

function present(row: MessageRow, reactions: MessageView['reactions'] = []): MessageView {
  const { hotel_id: _hotel, ...message } = row as MessageRow & { hotel_id?: string };
  return { ...message, reactions: row.deleted_at ? [] : reactions };
}

/**
 * A system message in the hotel's notifications room (read by all of its staff), inside the transaction of the fact
 * it reports.
 */
export async function postSystemMessage(trx: Knex.Transaction, hotelId: string, text: string): Promise<MessageView> {
  let room = await repo.notificationsRoom(trx, hotelId);
  if (!room) {
    await repo.insertNotificationsRoom(trx, hotelId);
    room = (await repo.notificationsRoom(trx, hotelId))!;
  }
  const message = await repo.insertMessage(trx, {
    hotel_id: hotelId,
    room_id: room.id,
    sender_id: null,
    is_system: true,
    text,
    attachment_url: null,
  });
  await chatMessageCreated.publish(trx, hotelId, eventOf(message));
  return present(message);
}

function eventOf(message: MessageRow) {
  return {
    message_id: message.id,
    room_id: message.room_id,
    sender_id: message.sender_id,
    is_system: message.is_system,
    text: message.text,
    attachment_url: message.attachment_url,
    created_at: message.created_at,
  };
}

export function createChatService(db: Db, deps: ChatDependencies) {
  const notices = createChatNotices(deps.notifications);

  /** The room if the actor sees it; another hotel's room, and one the actor is not in, are alike not found. */
  async function visibleRoom(conn: DbOrTrx, hotelId: string, actor: Actor, roomId: string) {
    const room = await repo.findRoom(conn, hotelId, roomId);
    if (!room) throw roomNotFound();
    const member = room.type !== 'notifications' && (await repo.isMember(conn, room.id, actor.userId));
    if (!maySee(room, actor, member)) throw roomNotFound();
    return { room, member };
  }

  /** The message if the actor sees its room. */
  async function visibleMessage(trx: Knex.Transaction, hotelId: string, actor: Actor, messageId: string) {
    const message = await repo.lockMessage(trx, hotelId, messageId);
    if (!message) throw messageNotFound();
    try {
      const { room } = await visibleRoom(trx, hotelId, actor, message.room_id);
      return { message, room };
    } catch (error) {
      if (error instanceof NotFoundError) throw messageNotFound();
      throw error;
    }
  }

  async function view(conn: DbOrTrx, hotelId: string, roomId: string, actor: Actor): Promise<RoomView> {
    return (await repo.roomView(conn, hotelId, roomId, actor.userId))!;
  }

  async function assertStaff(conn: DbOrTrx, hotelId: string, userIds: readonly string[]) {
    const known = await repo.activeStaff(conn, hotelId, userIds);
    const unknown = userIds.filter((id) => !known.has(id));
    if (unknown.length > 0) throw new BusinessRuleError(chatMessages.unknownMembers, unknown);
  }

  async function assertAttachment(conn: DbOrTrx, hotelId: string, url: string | undefined) {
    if (url === undefined) return;
    if (!isChatUploadUrl(url)) {
      throw new ValidationError(chatMessages.foreignAttachment, [
        { path: 'body.attachment_url', message: chatMessages.foreignAttachment },
      ]);
    }
    await deps.uploads.assertOwnUploads(hotelId, [url], 'attachment_url', conn);
  }

  async function managedGroup(trx: Knex.Transaction, hotelId: string, actor: Actor, roomId: string) {
    const { room } = await visibleRoom(trx, hotelId, actor, roomId);
    await repo.lockRoom(trx, hotelId, roomId);
    if (room.type === 'notifications') throw new BusinessRuleError(chatMessages.notificationsFixed);
    if (room.type === 'direct') throw new BusinessRuleError(chatMessages.directFixed);
    if (!mayManage(room, actor)) throw new ForbiddenError(chatMessages.mayNotManage);
    return room;
  }

  return {
    listRooms(hotelId: string, actor: Actor, page: PageRequest): Promise<Page<RoomView>> {
      return repo.listRooms(db, hotelId, actor.userId, isChatAdmin(actor.role), page);
    },

    async getRoom(hotelId: string, actor: Actor, roomId: string): Promise<RoomView> {
      await visibleRoom(db, hotelId, actor, roomId);
      return view(db, hotelId, roomId, actor);
    },

    /** A direct room that exists already is given back (`created` false): one room per pair. */
    async createRoom(hotelId: string, actor: Actor, input: NewRoom): Promise<{ room: RoomView; created: boolean }> {
      const others = otherMembers(actor.userId, input.member_ids);
      return db.transaction(async (trx) => {
        let room: RoomRow | undefined;
        if (input.type === 'direct') {
          if (others.length !== 1) throw new BusinessRuleError(chatMessages.directPair);
          await assertStaff(trx, hotelId, others);
          const key = directKey(actor.userId, others[0]);
          const existing = await repo.findDirect(trx, hotelId, key);
          if (existing) return { room: await view(trx, hotelId, existing.id, actor), created: false };
          room = await repo.insertRoom(trx, {
            hotel_id: hotelId,
            type: 'direct',
            name: null,
            direct_key: key,
            created_by: actor.userId,
          });
          // A concurrent request made the pair's room first: it is the one.
          if (!room) {
            const made = (await repo.findDirect(trx, hotelId, key))!;
            return { room: await view(trx, hotelId, made.id, actor), created: false };
          }
        } else {
          if (!input.name) throw new BusinessRuleError(chatMessages.groupNeedsName);
          await assertStaff(trx, hotelId, others);
          room = (await repo.insertRoom(trx, {
            hotel_id: hotelId,
            type: 'group',
            name: input.name,
            direct_key: null,
            created_by: actor.userId,
          }))!;
        }
        const members = [actor.userId, ...others];
        await repo.addMembers(trx, hotelId, room.id, members);
        await announce(trx, hotelId, room, 'created', { audience: members });
        return { room: await view(trx, hotelId, room.id, actor), created: true };
      });
    },

    async renameRoom(hotelId: string, actor: Actor, roomId: string, name: string): Promise<RoomView> {
      return db.transaction(async (trx) => {
        const room = await managedGroup(trx, hotelId, actor, roomId);
        await repo.updateRoomName(trx, hotelId, roomId, name);
        await announce(trx, hotelId, room, 'updated');
        return view(trx, hotelId, roomId, actor);
      });
    },

    /** Deletes a group (its manager) or a direct room (the owner only): its history goes with it. */
    async deleteRoom(hotelId: string, actor: Actor, roomId: string): Promise<void> {
      await db.transaction(async (trx) => {
        const { room } = await visibleRoom(trx, hotelId, actor, roomId);
        if (room.type === 'notifications') throw new BusinessRuleError(chatMessages.notificationsFixed);
        if (room.type === 'direct' ? !isChatAdmin(actor.role) : !mayManage(room, actor)) {
          throw new ForbiddenError(chatMessages.mayNotManage);
        }
        const audience = await audienceOf(trx, room);
        await repo.deleteRoom(trx, hotelId, roomId);
        await announce(trx, hotelId, room, 'deleted', audience);
      });
    },

    async addMembers(hotelId: string, actor: Actor, roomId: string, userIds: string[]): Promise<RoomView> {
      return db.transaction(async (trx) => {
        const room = await managedGroup(trx, hotelId, actor, roomId);
        await assertStaff(trx, hotelId, userIds);
        await repo.addMembers(trx, hotelId, roomId, userIds);
        await repo.touchRoom(trx, hotelId, roomId);
        await announce(trx, hotelId, room, 'members');
        return view(trx, hotelId, roomId, actor);
      });
    },

    /** Takes a member out of a group: its managers may, and anyone may leave. */
    async removeMember(hotelId: string, actor: Actor, roomId: string, userId: string): Promise<void> {
      await db.transaction(async (trx) => {
        const leaving = userId === actor.userId;
        const { room } = await visibleRoom(trx, hotelId, actor, roomId);
        await repo.lockRoom(trx, hotelId, roomId);
        if (room.type === 'notifications') throw new BusinessRuleError(chatMessages.notificationsFixed);
        if (room.type === 'direct') throw new BusinessRuleError(chatMessages.directFixed);
        if (!leaving && !mayManage(room, actor)) throw new ForbiddenError(chatMessages.mayNotManage);
        const before = await audienceOf(trx, room);
        if (!(await repo.removeMember(trx, roomId, userId))) throw new NotFoundError(chatMessages.notAMember);
        await repo.touchRoom(trx, hotelId, roomId);
        await announce(trx, hotelId, room, 'members', before);
      });
    },

    /** 50 messages before `before` (newest first); a full page means more may exist. */
    async history(hotelId: string, actor: Actor, roomId: string, query: HistoryQuery): Promise<MessageView[]> {
      await visibleRoom(db, hotelId, actor, roomId);
      return withReactions(db, await repo.history(db, hotelId, roomId, query, HISTORY_PAGE_SIZE));
    },

    async post(hotelId: string, actor: Actor, roomId: string, input: NewMessage): Promise<MessageView> {
      return db.transaction(async (trx) => {
        const { room, member } = await visibleRoom(trx, hotelId, actor, roomId);
        if (!mayPost(room, actor, member)) throw new ForbiddenError(chatMessages.readOnlyRoom);
        await assertAttachment(trx, hotelId, input.attachment_url);
        await repo.lockForPost(trx, hotelId, roomId);
        const message = await repo.insertMessage(trx, {
          hotel_id: hotelId,
          room_id: roomId,
          sender_id: actor.userId,
          is_system: false,
          text: input.text ?? null,
          attachment_url: input.attachment_url ?? null,
        });
        const to = await audienceOf(trx, room);
        await chatMessageCreated.publish(trx, hotelId, eventOf(message), to);
        await notices.tell(trx, hotelId, room, to.audience ?? [], message);
        return present(message);
      });
    },

    async edit(hotelId: string, actor: Actor, messageId: string, text: string): Promise<MessageView> {
      return db.transaction(async (trx) => {
        const { message, room } = await visibleMessage(trx, hotelId, actor, messageId);
        if (message.deleted_at) throw new BusinessRuleError(chatMessages.deletedMessage);
        if (message.sender_id !== actor.userId) throw new ForbiddenError(chatMessages.notYourMessage);
        const edited = await repo.editText(trx, hotelId, messageId, text);
        await chatMessageEdited.publish(
          trx,
          hotelId,
          { message_id: edited.id, room_id: edited.room_id, text: edited.text, edited_at: edited.edited_at! },
          await audienceOf(trx, room),
        );
        return (await withReactions(trx, [edited]))[0];
      });
    },

    async remove(hotelId: string, actor: Actor, messageId: string): Promise<MessageView> {
      return db.transaction(async (trx) => {
        const { message, room } = await visibleMessage(trx, hotelId, actor, messageId);
        if (!mayDeleteMessage(message.sender_id, actor)) throw new ForbiddenError(chatMessages.mayNotDelete);
        if (message.deleted_at) return present(message);
        const deleted = await repo.softDelete(trx, hotelId, messageId);
        await chatMessageDeleted.publish(
          trx,
          hotelId,
          { message_id: deleted.id, room_id: deleted.room_id, deleted_at: deleted.deleted_at! },
          await audienceOf(trx, room),
        );
        return present(deleted);
      });
    },

    async react(hotelId: string, actor: Actor, messageId: string, emoji: string) {
      return db.transaction(async (trx) => {
        const { message, room } = await visibleMessage(trx, hotelId, actor, messageId);
        if (message.deleted_at) throw new BusinessRuleError(chatMessages.deletedMessage);
        const reacted = await repo.toggleReaction(trx, hotelId, messageId, actor.userId, emoji);
        await chatReaction.publish(
          trx,
          hotelId,
          { message_id: messageId, room_id: room.id, user_id: actor.userId, emoji, reacted },
          await audienceOf(trx, room),
        );
        const reactions = await repo.reactionsOf(trx, [messageId]);
        return { message_id: messageId, emoji, reacted, reactions: reactions.get(messageId) ?? [] };
      });
    },

    /** Moves the caller's read marker to a message of the room (or to now): unread counts follow. */
    async markRead(hotelId: string, actor: Actor, roomId: string, messageId: string | undefined) {
      return db.transaction(async (trx) => {
        const { room } = await visibleRoom(trx, hotelId, actor, roomId);
        let at: Date | undefined;
        if (messageId) {
          const message = await repo.findMessage(trx, hotelId, messageId);
          if (!message || message.room_id !== roomId) throw messageNotFound();
          at = message.created_at;
        }
        const lastReadAt = await repo.markRead(trx, hotelId, roomId, actor.userId, at);
        await notices.settle(trx, hotelId, roomId, actor.userId, lastReadAt);
        await chatRead.publish(
          trx,
          hotelId,
          { room_id: roomId, user_id: actor.userId, last_read_at: lastReadAt },
          await audienceOf(trx, room),
        );
        const { unread_count } = await view(trx, hotelId, roomId, actor);
        return { room_id: roomId, last_read_at: lastReadAt, unread_count };
      });
    },

    async search(hotelId: string, actor: Actor, q: string, roomId: string | undefined): Promise<MessageView[]> {
      if (roomId) await visibleRoom(db, hotelId, actor, roomId);
      return withReactions(db, await repo.search(db, hotelId, actor.userId, q, roomId, SEARCH_PAGE_SIZE));
    },

    notify(hotelId: string, text: string): Promise<MessageView> {
      return db.transaction((trx) => postSystemMessage(trx, hotelId, text));
    },

    ...createPresence(db, visibleRoom),

    onHotelCreated: (trx: Knex.Transaction, hotelId: string) => repo.insertNotificationsRoom(trx, hotelId),
  };
}

export type ChatService = ReturnType<typeof createChatService>;
