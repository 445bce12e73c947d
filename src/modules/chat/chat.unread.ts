import type { Db, DbOrTrx } from '../../platform/db/knex';
import type { NotificationsService } from '../notifications';
import { plural } from './chat.rules';

/** More than any run should find; the rest are summed up at the next run. */
const SUMMARIES_PER_RUN = 1000;

interface UnreadSummary {
  hotel_id: string;
  user_id: string;
  messages: number;
  rooms: number;
  latest: Date;
}

/**
 * Members' unread messages (others' ones, not deleted, after their read marker) that neither a message's own
 * notification (`chat_notices`) nor a summary has told of yet, created by `cutoff`, per hotel and member.
 */
async function unreadSince(db: DbOrTrx, cutoff: Date): Promise<UnreadSummary[]> {
  const { rows } = await db.raw<{ rows: UnreadSummary[] }>(
    `SELECT m.hotel_id, mem.user_id, count(*)::int AS messages, count(DISTINCT m.room_id)::int AS rooms,
            max(m.created_at) AS latest
       FROM chat_members mem
       JOIN chat_messages m ON m.hotel_id = mem.hotel_id AND m.room_id = mem.room_id
       LEFT JOIN chat_reads rd ON rd.room_id = mem.room_id AND rd.user_id = mem.user_id
       LEFT JOIN chat_unread_pushes up ON up.hotel_id = mem.hotel_id AND up.user_id = mem.user_id
       LEFT JOIN chat_notices nt ON nt.room_id = mem.room_id AND nt.user_id = mem.user_id
      WHERE m.deleted_at IS NULL
        AND m.sender_id IS DISTINCT FROM mem.user_id
        AND m.created_at > coalesce(rd.last_read_at, '-infinity')
        AND m.created_at > coalesce(up.pushed_through, '-infinity')
        AND m.created_at > coalesce(nt.told_through, '-infinity')
        AND m.created_at <= :cutoff
      GROUP BY m.hotel_id, mem.user_id
      LIMIT :limit`,
    { cutoff, limit: SUMMARIES_PER_RUN },
  );
  return rows;
}

/** Moves the member's mark forward; false when another run has already covered these messages. */
async function advance(trx: DbOrTrx, summary: UnreadSummary): Promise<boolean> {
  const { rows } = await trx.raw<{ rows: unknown[] }>(
    `INSERT INTO chat_unread_pushes (hotel_id, user_id, pushed_through) VALUES (:hotel, :user, :latest)
     ON CONFLICT (hotel_id, user_id) DO UPDATE SET pushed_through = EXCLUDED.pushed_through
      WHERE chat_unread_pushes.pushed_through < EXCLUDED.pushed_through
     RETURNING 1`,
    { hotel: summary.hotel_id, user: summary.user_id, latest: summary.latest },
  );
  return rows.length > 0;
}

/**
 * The unread-message job: one in-app notification (and so one push, by the role's switches) per member of staff with
 * unread messages nothing has told them of (a message's own notification covers it at once; the job is left what that
 * did not reach, e.g. what came while their role's `chat_message` was off), never one per message and never twice for
 * the same messages.
 */
export function createUnreadSummaries(db: Db, notifications: Pick<NotificationsService, 'notify'>) {
  return async function pushUnreadChat(): Promise<{ summaries: number }> {
    let summaries = 0;
    for (const summary of await unreadSince(db, new Date())) {
      const told = await db.transaction(async (trx) => {
        if (!(await advance(trx, summary))) return false;
        const { messages, rooms } = summary;
        await notifications.notify(trx, summary.hotel_id, {
          type: 'chat_message',
          title: 'Непрочитанные сообщения в чате',
          body: `${messages} ${plural(messages, 'новое сообщение', 'новых сообщения', 'новых сообщений')} в ${rooms} ${plural(rooms, 'чате', 'чатах', 'чатах')}`,
          userIds: [summary.user_id],
        });
        return true;
      });
      if (told) summaries += 1;
    }
    return { summaries };
  };
}
