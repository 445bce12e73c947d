import type { Db, DbOrTrx } from '../../platform/db/knex';
import type { NotificationsService } from '../notifications';

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
 * Members' unread messages (others' ones, not deleted, after their read marker) that no summary has covered yet,
 * created by `cutoff`, per hotel and member.
 */
async function unreadSince(db: DbOrTrx, cutoff: Date): Promise<UnreadSummary[]> {
  const { rows } = await db.raw<{ rows: UnreadSummary[] }>(
    `SELECT m.hotel_id, mem.user_id, count(*)::int AS messages, count(DISTINCT m.room_id)::int AS rooms,
            max(m.created_at) AS latest
       FROM chat_members mem
       JOIN chat_messages m ON m.hotel_id = mem.hotel_id AND m.room_id = mem.room_id
       LEFT JOIN chat_reads rd ON rd.room_id = mem.room_id AND rd.user_id = mem.user_id
       LEFT JOIN chat_unread_pushes up ON up.hotel_id = mem.hotel_id AND up.user_id = mem.user_id
      WHERE m.deleted_at IS NULL
        AND m.sender_id IS DISTINCT FROM mem.user_id
        AND m.created_at > coalesce(rd.last_read_at, '-infinity')
        AND m.created_at > coalesce(up.pushed_through, '-infinity')
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

const plural = (n: number, one: string, few: string, many: string) => {
  const [tens, units] = [n % 100, n % 10];
  if (tens >= 11 && tens <= 14) return many;
  if (units === 1) return one;
  return units >= 2 && units <= 4 ? few : many;
};

/**
 * The unread-message job: one in-app notification (and so one push, by the role's switches) per member of staff with
 * messages unread since the last summary, never one per message and never twice for the same messages.
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
