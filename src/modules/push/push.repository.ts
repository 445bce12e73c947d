import type { DbOrTrx } from '../../platform/db/knex';
import type { PushSubscriptionRow, SubscriptionView } from './push.types';

const VIEW = ['id', 'endpoint', 'created_at', 'updated_at'] as const;

export const subscriptionsRepository = {
  /**
   * Keeps the browser's subscription for this user: by hotel and endpoint, so a browser subscribing again (new keys,
   * or another user of the hotel signing in on it) updates its one row; then only the user's `keep` most recent stay.
   */
  async upsert(
    db: DbOrTrx,
    row: Pick<PushSubscriptionRow, 'hotel_id' | 'user_id' | 'endpoint' | 'p256dh' | 'auth'>,
    keep: number,
  ): Promise<SubscriptionView> {
    const [saved] = await db<PushSubscriptionRow>('push_subscriptions')
      .insert(row)
      .onConflict(['hotel_id', 'endpoint'])
      .merge({
        user_id: row.user_id,
        p256dh: row.p256dh,
        auth: row.auth,
        updated_at: db.fn.now() as unknown as Date,
      })
      .returning(VIEW);
    await db('push_subscriptions')
      .where({ hotel_id: row.hotel_id, user_id: row.user_id })
      .whereNotIn(
        'id',
        db('push_subscriptions')
          .where({ hotel_id: row.hotel_id, user_id: row.user_id })
          .orderBy([
            { column: 'updated_at', order: 'desc' },
            { column: 'id', order: 'desc' },
          ])
          .limit(keep)
          .select('id'),
      )
      .delete();
    return saved as SubscriptionView;
  },

  /** Removes the user's own subscription with this endpoint; false when they have none. */
  async removeOwn(db: DbOrTrx, hotelId: string, userId: string, endpoint: string): Promise<boolean> {
    return (await db('push_subscriptions').where({ hotel_id: hotelId, user_id: userId, endpoint }).delete()) > 0;
  },

  async find(db: DbOrTrx, hotelId: string, id: string): Promise<PushSubscriptionRow | undefined> {
    return db<PushSubscriptionRow>('push_subscriptions').where({ hotel_id: hotelId, id }).first();
  },

  /** The subscriptions of these users of the hotel, by user, oldest first, at most `limit`. */
  async ofUsers(
    db: DbOrTrx,
    hotelId: string,
    userIds: readonly string[],
    limit: number,
  ): Promise<{ id: string; user_id: string }[]> {
    if (userIds.length === 0) return [];
    return db('push_subscriptions')
      .where({ hotel_id: hotelId })
      .whereRaw('user_id = ANY(?::uuid[])', [userIds as string[]])
      .orderBy(['user_id', 'created_at', 'id'])
      .limit(limit)
      .select('id', 'user_id');
  },

  /** The subscriptions of these users of the hotel (ids), oldest user first, at most `limit`. */
  async idsOfUsers(db: DbOrTrx, hotelId: string, userIds: readonly string[], limit: number): Promise<string[]> {
    if (userIds.length === 0) return [];
    const rows: { id: string }[] = await db('push_subscriptions')
      .where({ hotel_id: hotelId })
      .whereRaw('user_id = ANY(?::uuid[])', [userIds as string[]])
      .orderBy(['user_id', 'created_at', 'id'])
      .limit(limit)
      .select('id');
    return rows.map((row) => row.id);
  },

  /** A subscription the push service called gone (404/410), only if it still has the keys that were pushed to. */
  async removeGone(db: DbOrTrx, row: Pick<PushSubscriptionRow, 'hotel_id' | 'id' | 'p256dh'>): Promise<void> {
    await db('push_subscriptions').where({ hotel_id: row.hotel_id, id: row.id, p256dh: row.p256dh }).delete();
  },

  async countOfUser(db: DbOrTrx, hotelId: string, userId: string): Promise<number> {
    const row = await db('push_subscriptions')
      .where({ hotel_id: hotelId, user_id: userId })
      .count<{ count: string }>('* as count')
      .first();
    return Number(row?.count ?? 0);
  },
};
