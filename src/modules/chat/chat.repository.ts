import type { Knex } from 'knex';
import type { DbOrTrx } from '../../platform/db/knex';
import { pageOf, type Page, type PageRequest, type SortKey } from '../../platform/db/keyset';
import { PRESENCE_TTL_SECONDS } from './chat.rules';
import type { HistoryQuery, MessageRow, NoticeRow, ReactionSummary, RoomRow, RoomView } from './chat.types';

const NEWEST_ROOMS_FIRST: readonly SortKey[] = [
  { sql: 'r.created_at', type: 'timestamptz', desc: true },
  { sql: 'r.id', type: 'uuid', desc: true },
];

const MESSAGE_COLUMNS = [
  'id',
  'room_id',
  'sender_id',
  'is_system',
  'text',
  'attachment_url',
  'created_at',
  'edited_at',
  'deleted_at',
];

/** Message times are kept to the millisecond, so the `before` a client sends back (an ISO instant) is exact. */
const NOW_MS = "date_trunc('milliseconds', now())";

/** A room's list columns for `userId`: its members, last message, the user's read marker and unread messages. */
function roomColumns(db: DbOrTrx, userId: string) {
  return [
    'r.id',
    'r.type',
    'r.name',
    'r.created_by',
    'r.created_at',
    'r.updated_at',
    db.raw(
      `coalesce((SELECT array_agg(cm.user_id::text ORDER BY cm.joined_at, cm.user_id) FROM chat_members cm
                  WHERE cm.room_id = r.id), '{}') AS member_ids`,
    ),
    db.raw('(SELECT max(m.created_at) FROM chat_messages m WHERE m.room_id = r.id) AS last_message_at'),
    db.raw('(SELECT rd.last_read_at FROM chat_reads rd WHERE rd.room_id = r.id AND rd.user_id = ?) AS last_read_at', [
      userId,
    ]),
    db.raw(
      `(SELECT count(*)::int FROM chat_messages m
         WHERE m.room_id = r.id AND m.deleted_at IS NULL AND m.sender_id IS DISTINCT FROM :user
           AND m.created_at > coalesce((SELECT rd.last_read_at FROM chat_reads rd
                                         WHERE rd.room_id = r.id AND rd.user_id = :user), '-infinity')) AS unread_count`,
      { user: userId },
    ),
  ];
}

/** Rooms `userId` is in, and the notifications room everyone reads. */
function visibleRooms(query: Knex.QueryBuilder, userId: string, everyRoom: boolean): Knex.QueryBuilder {
  if (everyRoom) return query;
  return query.where((visible) =>
    visible
      .where('r.type', 'notifications')
      .orWhereExists((member) =>
        member.from('chat_members as cm').whereRaw('cm.room_id = r.id').where('cm.user_id', userId),
      ),
  );
}

export const chatRepository = {
  async findRoom(db: DbOrTrx, hotelId: string, roomId: string): Promise<RoomRow | undefined> {
    return (await db('chat_rooms').where({ hotel_id: hotelId, id: roomId }).first()) as RoomRow | undefined;
  },

  /** Locks the room's row: member changes and deletion of one room happen one at a time. */
  async lockRoom(trx: Knex.Transaction, hotelId: string, roomId: string): Promise<RoomRow | undefined> {
    return (await trx('chat_rooms').where({ hotel_id: hotelId, id: roomId }).forUpdate().first()) as
      RoomRow | undefined;
  },

  /**
   * Locks the room against other posts (not against reads, reactions or markers): its messages are told to its members
   * one at a time, so a member's running notification of the room is made once.
   */
  async lockForPost(trx: Knex.Transaction, hotelId: string, roomId: string): Promise<void> {
    await trx('chat_rooms').where({ hotel_id: hotelId, id: roomId }).forNoKeyUpdate().first('id');
  },

  async roomView(db: DbOrTrx, hotelId: string, roomId: string, userId: string): Promise<RoomView | undefined> {
    return (await db('chat_rooms as r')
      .where({ 'r.hotel_id': hotelId, 'r.id': roomId })
      .first(roomColumns(db, userId))) as RoomView | undefined;
  },

  listRooms(
    db: DbOrTrx,
    hotelId: string,
    userId: string,
    everyRoom: boolean,
    page: PageRequest,
  ): Promise<Page<RoomView>> {
    const query = visibleRooms(db('chat_rooms as r').where('r.hotel_id', hotelId), userId, everyRoom).select(
      roomColumns(db, userId),
    );
    return pageOf<RoomView>(db, query, NEWEST_ROOMS_FIRST, page);
  },

  async notificationsRoom(db: DbOrTrx, hotelId: string): Promise<RoomRow | undefined> {
    return (await db('chat_rooms').where({ hotel_id: hotelId, type: 'notifications' }).first()) as RoomRow | undefined;
  },

  async insertNotificationsRoom(trx: DbOrTrx, hotelId: string): Promise<void> {
    await trx('chat_rooms')
      .insert({ hotel_id: hotelId, type: 'notifications', name: 'Уведомления' })
      .onConflict()
      .ignore();
  },

  async findDirect(db: DbOrTrx, hotelId: string, key: string): Promise<RoomRow | undefined> {
    return (await db('chat_rooms').where({ hotel_id: hotelId, direct_key: key }).first()) as RoomRow | undefined;
  },

  /** Inserts a room; a direct room that a concurrent request just made is returned undefined (the caller reads it). */
  async insertRoom(
    trx: Knex.Transaction,
    row: Pick<RoomRow, 'hotel_id' | 'type' | 'name' | 'direct_key' | 'created_by'>,
  ): Promise<RoomRow | undefined> {
    const [room] = (await trx('chat_rooms').insert(row).onConflict().ignore().returning('*')) as RoomRow[];
    return room;
  },

  async updateRoomName(trx: Knex.Transaction, hotelId: string, roomId: string, name: string): Promise<void> {
    await trx('chat_rooms').where({ hotel_id: hotelId, id: roomId }).update({ name, updated_at: trx.fn.now() });
  },

  async touchRoom(trx: Knex.Transaction, hotelId: string, roomId: string): Promise<void> {
    await trx('chat_rooms').where({ hotel_id: hotelId, id: roomId }).update({ updated_at: trx.fn.now() });
  },

  async deleteRoom(trx: Knex.Transaction, hotelId: string, roomId: string): Promise<void> {
    await trx('chat_rooms').where({ hotel_id: hotelId, id: roomId }).delete();
  },

  async isMember(db: DbOrTrx, roomId: string, userId: string): Promise<boolean> {
    return Boolean(await db('chat_members').where({ room_id: roomId, user_id: userId }).first('user_id'));
  },

  async memberIds(db: DbOrTrx, roomId: string): Promise<string[]> {
    const rows = (await db('chat_members').where({ room_id: roomId }).orderBy('user_id').select('user_id')) as {
      user_id: string;
    }[];
    return rows.map((row) => row.user_id);
  },

  async addMembers(trx: Knex.Transaction, hotelId: string, roomId: string, userIds: readonly string[]): Promise<void> {
    if (userIds.length === 0) return;
    await trx('chat_members')
      .insert(userIds.map((userId) => ({ hotel_id: hotelId, room_id: roomId, user_id: userId })))
      .onConflict(['room_id', 'user_id'])
      .ignore();
  },

  /** Takes the member out, with their running notification of the room (it tells them nothing more). */
  async removeMember(trx: Knex.Transaction, roomId: string, userId: string): Promise<boolean> {
    await trx('chat_notices').where({ room_id: roomId, user_id: userId }).delete();
    return (await trx('chat_members').where({ room_id: roomId, user_id: userId }).delete()) > 0;
  },

  async userName(db: DbOrTrx, hotelId: string, userId: string): Promise<string> {
    const row = (await db('users').where({ hotel_id: hotelId, id: userId }).first('name')) as { name: string };
    return row.name;
  },

  /** The members' running notifications of the room, locked until the transaction ends. */
  async lockNotices(trx: Knex.Transaction, roomId: string, userIds: readonly string[]): Promise<NoticeRow[]> {
    if (userIds.length === 0) return [];
    return (await trx('chat_notices')
      .where({ room_id: roomId })
      .whereIn('user_id', userIds)
      .forUpdate()
      .select('*')) as NoticeRow[];
  },

  async saveNotices(trx: Knex.Transaction, rows: readonly NoticeRow[]): Promise<void> {
    if (rows.length === 0) return;
    await trx('chat_notices')
      .insert(rows)
      .onConflict(['room_id', 'user_id'])
      .merge({
        notification_id: trx.raw('EXCLUDED.notification_id'),
        messages: trx.raw('EXCLUDED.messages'),
        told_through: trx.raw('GREATEST(chat_notices.told_through, EXCLUDED.told_through)'),
      });
  },

  /** Of `userIds`, those who are active staff of the hotel. */
  async activeStaff(db: DbOrTrx, hotelId: string, userIds: readonly string[]): Promise<Set<string>> {
    if (userIds.length === 0) return new Set();
    const rows = (await db('users').where({ hotel_id: hotelId, active: true }).whereIn('id', userIds).select('id')) as {
      id: string;
    }[];
    return new Set(rows.map((row) => row.id));
  },

  async insertMessage(
    trx: Knex.Transaction,
    row: Pick<MessageRow, 'hotel_id' | 'room_id' | 'sender_id' | 'is_system' | 'text' | 'attachment_url'>,
  ): Promise<MessageRow> {
    const [message] = (await trx('chat_messages')
      .insert({ ...row, created_at: trx.raw(NOW_MS) })
      .returning(MESSAGE_COLUMNS)) as MessageRow[];
    return message;
  },

  async history(db: DbOrTrx, hotelId: string, roomId: string, query: HistoryQuery, limit: number) {
    const rows = db('chat_messages')
      .where({ hotel_id: hotelId, room_id: roomId })
      .orderBy([
        { column: 'created_at', order: 'desc' },
        { column: 'id', order: 'desc' },
      ])
      .limit(limit)
      .select(MESSAGE_COLUMNS);
    if (query.before && query.before_id) rows.whereRaw('(created_at, id) < (?, ?)', [query.before, query.before_id]);
    else if (query.before) rows.where('created_at', '<', query.before);
    return (await rows) as MessageRow[];
  },

  async findMessage(db: DbOrTrx, hotelId: string, messageId: string): Promise<MessageRow | undefined> {
    return (await db('chat_messages').where({ hotel_id: hotelId, id: messageId }).first(MESSAGE_COLUMNS)) as
      MessageRow | undefined;
  },

  async lockMessage(trx: Knex.Transaction, hotelId: string, messageId: string): Promise<MessageRow | undefined> {
    return (await trx('chat_messages')
      .where({ hotel_id: hotelId, id: messageId })
      .forUpdate()
      .first(MESSAGE_COLUMNS)) as MessageRow | undefined;
  },

  async editText(trx: Knex.Transaction, hotelId: string, messageId: string, text: string): Promise<MessageRow> {
    const [row] = (await trx('chat_messages')
      .where({ hotel_id: hotelId, id: messageId })
      .update({ text, edited_at: trx.fn.now() })
      .returning(MESSAGE_COLUMNS)) as MessageRow[];
    return row;
  },

  /** The text and attachment go with the deletion: no later read, search or export can give them back. */
  async softDelete(trx: Knex.Transaction, hotelId: string, messageId: string): Promise<MessageRow> {
    await trx('chat_reactions').where({ hotel_id: hotelId, message_id: messageId }).delete();
    const [row] = (await trx('chat_messages')
      .where({ hotel_id: hotelId, id: messageId })
      .update({ text: null, attachment_url: null, deleted_at: trx.fn.now() })
      .returning(MESSAGE_COLUMNS)) as MessageRow[];
    return row;
  },

  async reactionsOf(db: DbOrTrx, messageIds: readonly string[]): Promise<Map<string, ReactionSummary[]>> {
    const byMessage = new Map<string, ReactionSummary[]>();
    if (messageIds.length === 0) return byMessage;
    const rows = (await db('chat_reactions')
      .whereIn('message_id', messageIds)
      .groupBy('message_id', 'emoji')
      .orderByRaw('message_id, min(created_at), emoji')
      .select(
        'message_id',
        'emoji',
        db.raw('count(*)::int AS count'),
        db.raw('array_agg(user_id::text ORDER BY created_at, user_id) AS user_ids'),
      )) as (ReactionSummary & { message_id: string })[];
    for (const { message_id, ...reaction } of rows) {
      const list = byMessage.get(message_id) ?? [];
      list.push(reaction);
      byMessage.set(message_id, list);
    }
    return byMessage;
  },

  /** Adds the user's reaction, or takes it back when it was there: whether it is there now. */
  async toggleReaction(
    trx: Knex.Transaction,
    hotelId: string,
    messageId: string,
    userId: string,
    emoji: string,
  ): Promise<boolean> {
    const removed = await trx('chat_reactions').where({ message_id: messageId, user_id: userId, emoji }).delete();
    if (removed > 0) return false;
    await trx('chat_reactions')
      .insert({ hotel_id: hotelId, message_id: messageId, user_id: userId, emoji })
      .onConflict(['message_id', 'user_id', 'emoji'])
      .ignore();
    return true;
  },

  /** Moves the user's read marker forward (never back) to `at`; the marker in effect. */
  async markRead(trx: Knex.Transaction, hotelId: string, roomId: string, userId: string, at: Date | undefined) {
    const [row] = (await trx('chat_reads')
      .insert({ hotel_id: hotelId, room_id: roomId, user_id: userId, last_read_at: at ?? trx.raw(NOW_MS) })
      .onConflict(['room_id', 'user_id'])
      .merge({ last_read_at: trx.raw('GREATEST(chat_reads.last_read_at, EXCLUDED.last_read_at)') })
      .returning('last_read_at')) as { last_read_at: Date }[];
    return row.last_read_at;
  },

  /** Messages matching `q` (Russian or English stemming) in the rooms `userId` sees, newest first. */
  async search(
    db: DbOrTrx,
    hotelId: string,
    userId: string,
    q: string,
    roomId: string | undefined,
    limit: number,
  ): Promise<MessageRow[]> {
    const rooms = visibleRooms(db('chat_rooms as r').where('r.hotel_id', hotelId), userId, false).select('r.id');
    const query = db('chat_messages')
      .where({ hotel_id: hotelId })
      .whereNull('deleted_at')
      .whereIn('room_id', rooms)
      .whereRaw("search @@ (websearch_to_tsquery('russian', ?) || websearch_to_tsquery('english', ?))", [q, q])
      .orderBy([
        { column: 'created_at', order: 'desc' },
        { column: 'id', order: 'desc' },
      ])
      .limit(limit)
      .select(MESSAGE_COLUMNS);
    if (roomId) query.where({ room_id: roomId });
    return (await query) as MessageRow[];
  },

  /** Records a heartbeat; whether the user was offline before it (their presence is news to the others). */
  async beat(db: DbOrTrx, hotelId: string, userId: string): Promise<{ cameOnline: boolean; lastSeenAt: Date }> {
    const result = await db.raw(
      `WITH old AS (SELECT last_seen_at, hotel_id FROM chat_presence WHERE user_id = :user)
       INSERT INTO chat_presence (user_id, hotel_id, last_seen_at) VALUES (:user, :hotel, now())
       ON CONFLICT (user_id) DO UPDATE SET last_seen_at = now(), hotel_id = EXCLUDED.hotel_id
       RETURNING last_seen_at,
                 NOT EXISTS (SELECT 1 FROM old WHERE old.hotel_id = :hotel
                               AND old.last_seen_at > now() - make_interval(secs => :ttl)) AS came_online`,
      { user: userId, hotel: hotelId, ttl: PRESENCE_TTL_SECONDS },
    );
    const row = (result as { rows: { last_seen_at: Date; came_online: boolean }[] }).rows[0];
    return { cameOnline: row.came_online, lastSeenAt: row.last_seen_at };
  },

  async leave(db: DbOrTrx, hotelId: string, userId: string): Promise<boolean> {
    return (await db('chat_presence').where({ hotel_id: hotelId, user_id: userId }).delete()) > 0;
  },

  async online(db: DbOrTrx, hotelId: string): Promise<{ user_id: string; last_seen_at: Date }[]> {
    return (await db('chat_presence')
      .where({ hotel_id: hotelId })
      .whereRaw('last_seen_at > now() - make_interval(secs => ?)', [PRESENCE_TTL_SECONDS])
      .orderBy('user_id')
      .select('user_id', 'last_seen_at')) as { user_id: string; last_seen_at: Date }[];
  },
};
