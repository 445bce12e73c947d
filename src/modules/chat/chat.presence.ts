import type { Db, DbOrTrx } from '../../platform/db/knex';
import { chatPresence, chatTyping } from './chat.events';
import { chatRepository as repo } from './chat.repository';
import { ForbiddenError } from '../../platform/errors';
import { chatMessages } from './chat.messages';
import { PRESENCE_TTL_SECONDS, mayPost } from './chat.rules';
import type { Actor, RoomRow } from './chat.types';

type VisibleRoom = (
  conn: DbOrTrx,
  hotelId: string,
  actor: Actor,
  roomId: string,
) => Promise<{ room: RoomRow; member: boolean }>;

const onlineUntil = (lastSeenAt: Date) => new Date(lastSeenAt.getTime() + PRESENCE_TTL_SECONDS * 1000);

/**
 * Presence and typing: ephemeral. A heartbeat overwrites the user's one presence row (shared by every API replica,
 * never history); events go out without being stored, presence only when someone comes online or signs off.
 */
export function createPresence(db: Db, visibleRoom: VisibleRoom) {
  return {
    async heartbeat(hotelId: string, actor: Actor) {
      const { cameOnline, lastSeenAt } = await repo.beat(db, hotelId, actor.userId);
      const until = onlineUntil(lastSeenAt);
      if (cameOnline) {
        await chatPresence.signal(db, hotelId, { user_id: actor.userId, status: 'online', online_until: until });
      }
      return { user_id: actor.userId, online_until: until };
    },

    async signOff(hotelId: string, actor: Actor) {
      if (await repo.leave(db, hotelId, actor.userId)) {
        await chatPresence.signal(db, hotelId, { user_id: actor.userId, status: 'offline', online_until: null });
      }
    },

    async online(hotelId: string) {
      const rows = await repo.online(db, hotelId);
      return rows.map((row) => ({ user_id: row.user_id, online_until: onlineUntil(row.last_seen_at) }));
    },

    /** Tells the room's other members the caller is typing; a room the caller cannot post in is not found. */
    async typing(hotelId: string, actor: Actor, roomId: string): Promise<void> {
      const { room, member } = await visibleRoom(db, hotelId, actor, roomId);
      if (!mayPost(room, actor, member)) throw new ForbiddenError(chatMessages.readOnlyRoom);
      const audience =
        room.type === 'notifications'
          ? undefined
          : (await repo.memberIds(db, roomId)).filter((id) => id !== actor.userId);
      if (audience?.length === 0) return;
      await chatTyping.signal(db, hotelId, { room_id: roomId, user_id: actor.userId }, audience ? { audience } : {});
    },
  };
}
