import type { Knex } from 'knex';
import type { NotificationRevision, NotificationsService } from '../notifications';
import { chatRepository as repo } from './chat.repository';
import { plural } from './chat.rules';
import type { MessageRow, NoticeRow, RoomRow } from './chat.types';

/** What the chat asks of the notifications module (`notify` for the unread-message job). */
export type ChatNotifications = Pick<
  NotificationsService,
  'notify' | 'notifyEach' | 'receiversOf' | 'stillUnread' | 'revise' | 'markReadWithin'
>;

const TITLE_LENGTH = 200;

const newMessages = (n: number) =>
  n === 1 ? 'Новое сообщение' : `${n} ${plural(n, 'новое сообщение', 'новых сообщения', 'новых сообщений')}`;

/**
 * What a member's notification of the room says after `messages` messages, the newest by `sender`: who wrote and how
 * many, never the text (a deleted message's text is gone everywhere, and push services carry none of it).
 */
function wordsOf(room: RoomRow, sender: string, message: MessageRow, messages: number) {
  const where = room.type === 'direct' ? `от ${sender}` : `в чате «${room.name}»`;
  return {
    title: `${newMessages(messages)} ${where}`.slice(0, TITLE_LENGTH),
    body: messages === 1 ? `От ${sender}` : `Последнее — от ${sender}`,
    data: { room_id: room.id, message_id: message.id, sender_id: message.sender_id, messages },
  };
}

/**
 * A chat message's in-app notification and push, in the message's transaction. Each other member of the room whose
 * role receives `chat_message` has one running notification per room: while they leave it unread (and not deleted)
 * each further message rewrites it (how many, who wrote last) without an event or a push; once they read it, delete
 * it or read the room, the next message makes a new one (with `notification:new` to their sockets and a push).
 */
export function createChatNotices(notifications: ChatNotifications) {
  return {
    /** Tells the room's other `members` of the message; the caller holds the room's post lock. */
    async tell(
      trx: Knex.Transaction,
      hotelId: string,
      room: RoomRow,
      members: readonly string[],
      message: MessageRow,
    ): Promise<void> {
      const author = message.sender_id;
      if (!author || room.type === 'notifications') return;
      const others = members.filter((id) => id !== author);
      const receivers = await notifications.receiversOf(trx, hotelId, 'chat_message', others);
      if (receivers.length === 0) return;
      const notices = await repo.lockNotices(trx, room.id, receivers);
      const unread = await notifications.stillUnread(
        trx,
        hotelId,
        notices.map((notice) => ({ notificationId: notice.notification_id, userId: notice.user_id })),
      );
      const running = new Map(
        notices.filter((notice) => unread.has(notice.notification_id)).map((notice) => [notice.user_id, notice]),
      );
      const sender = await repo.userName(trx, hotelId, author);
      const revisions: NotificationRevision[] = [];
      const told: NoticeRow[] = [];
      const tell = (userId: string, notificationId: string, messages: number) =>
        told.push({
          hotel_id: hotelId,
          room_id: room.id,
          user_id: userId,
          notification_id: notificationId,
          messages,
          told_through: message.created_at,
        });
      for (const [userId, notice] of running) {
        const messages = notice.messages + 1;
        revisions.push({ id: notice.notification_id, ...wordsOf(room, sender, message, messages) });
        tell(userId, notice.notification_id, messages);
      }
      const first = wordsOf(room, sender, message, 1);
      const made = await notifications.notifyEach(
        trx,
        hotelId,
        'chat_message',
        receivers.filter((userId) => !running.has(userId)).map((userId) => ({ userId, ...first })),
      );
      for (const [userId, notificationId] of made) tell(userId, notificationId, 1);
      await notifications.revise(trx, hotelId, revisions);
      await repo.saveNotices(trx, told);
    },

    /**
     * The reader's running notification of the room is read once their marker covers every message it tells of:
     * they have read those in the chat, and the next message is news again.
     */
    async settle(trx: Knex.Transaction, hotelId: string, roomId: string, userId: string, lastReadAt: Date) {
      const [notice] = await repo.lockNotices(trx, roomId, [userId]);
      if (notice && notice.told_through <= lastReadAt) {
        await notifications.markReadWithin(trx, hotelId, userId, notice.notification_id);
      }
    },
  };
}

export type ChatNotices = ReturnType<typeof createChatNotices>;
