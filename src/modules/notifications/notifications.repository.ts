import type { Knex } from 'knex';
import type { DbOrTrx } from '../../platform/db/knex';
import { EVENT_MAX_RECIPIENT_IDS, notificationCreated } from './notifications.events';
import {
  NOTIFICATION_ROLES,
  ROLE_DEFAULTS,
  type HotelRole,
  type InboxFilter,
  type InboxItem,
  type Notification,
  type NotificationInput,
  type NotificationSettingsRow,
  type NotificationType,
  type RoleNotificationSettings,
} from './notifications.types';

/** The columns of a user's view of a notification (`r` recipient row joined with `n` notification). */
function inboxQuery(db: DbOrTrx, hotelId: string, userId: string) {
  return db('notification_recipients as r')
    .join('notifications as n', function joinNotification() {
      this.on('n.hotel_id', 'r.hotel_id').andOn('n.id', 'r.notification_id');
    })
    .where({ 'r.hotel_id': hotelId, 'r.user_id': userId })
    .whereNull('r.deleted_at')
    .select(
      'n.id',
      'n.type',
      'n.title',
      'n.body',
      'n.data',
      'n.created_at',
      db.raw('(r.read_at IS NOT NULL) AS read'),
      'r.read_at',
    );
}

export const notificationsRepository = {
  /** The latest `limit` notifications naming the booking in their data, newest first (its timeline). */
  aboutBooking: (db: DbOrTrx, hotelId: string, bookingId: string, limit: number): Promise<Notification[]> =>
    db('notifications')
      .where({ hotel_id: hotelId })
      .whereRaw("data \\? 'booking_id' AND data->>'booking_id' = ?", [bookingId])
      .orderBy('created_at', 'desc')
      .limit(limit),

  /**
   * Inserts a notification (nothing when its dedupe key is taken) and, in the same statement, its delivery: to its
   * audience (`audienceQuery`: the hotel's active staff whose role receives the type by `rolesReceivingQuery`, only
   * those of `userIds` when given, oldest accounts first) and, when it has recipients, its `notification:new` event
   * (to the recipients' sockets only when `userIds` addressed it). Undefined when the dedupe key was taken: nothing
   * is written.
   */
  async insertDelivered(
    trx: Knex.Transaction,
    hotelId: string,
    input: Pick<NotificationInput, 'type' | 'title' | 'body' | 'dedupeKey' | 'userIds'> & {
      data: Record<string, unknown>;
    },
  ): Promise<{ id: string; recipient_ids: string[] } | undefined> {
    const addressed = input.userIds !== undefined;
    const audience = audienceQuery(trx, hotelId, rolesReceivingQuery(trx, hotelId, input.type), input.userIds).select(
      'id',
      trx.raw(`row_number() OVER (ORDER BY ${OLDEST_FIRST}) AS place`),
    );
    // The payload `notifyEach` publishes too, one shape: `notificationCreated`'s Joi schema (notifications.events.ts),
    // from which the AsyncAPI document is made; the realtime tests' client (test/helpers/realtime.ts) checks every
    // message received against that document (test/realtime/notifications-events.test.ts).
    const event = notificationCreated.publishFrom(
      trx,
      hotelId,
      trx.raw(
        `SELECT CASE WHEN ? THEN (SELECT array_agg(a.id ORDER BY a.place) FROM audience a) END AS audience,
           jsonb_build_object('notification_id', m.id, 'type', m.type, 'title', m.title,
             'recipient_ids', (SELECT jsonb_agg(a.id ORDER BY a.place) FROM audience a WHERE a.place <= ?),
             'recipients_truncated', (SELECT count(*) FROM audience) > ?) AS payload
         FROM made m WHERE EXISTS (SELECT 1 FROM audience)`,
        [addressed, EVENT_MAX_RECIPIENT_IDS, EVENT_MAX_RECIPIENT_IDS],
      ),
    );
    const { rows } = await trx.raw(
      `WITH made AS (
         INSERT INTO notifications (hotel_id, type, title, body, data, dedupe_key) VALUES (?, ?, ?, ?, ?::jsonb, ?)
         ON CONFLICT (hotel_id, dedupe_key) WHERE dedupe_key IS NOT NULL DO NOTHING
         RETURNING hotel_id, id, type, title, created_at
       ), audience AS (SELECT q.id, q.place FROM (?) q WHERE EXISTS (SELECT 1 FROM made)),
       delivered AS (
         INSERT INTO notification_recipients (hotel_id, notification_id, user_id, created_at)
         SELECT m.hotel_id, m.id, a.id, m.created_at FROM made m CROSS JOIN audience a
       ), event AS (?)
       SELECT m.id, coalesce((SELECT array_agg(a.id::text ORDER BY a.place) FROM audience a), '{}') AS recipient_ids
       FROM made m`,
      [
        hotelId,
        input.type,
        input.title,
        input.body,
        JSON.stringify(input.data),
        input.dedupeKey ?? null,
        audience,
        event,
      ],
    );
    return (rows as { id: string; recipient_ids: string[] }[])[0];
  },

  /** Inserts notifications whose ids the caller chose: answered in the order given. */
  async insertEach(
    trx: Knex.Transaction,
    hotelId: string,
    rows: readonly (Pick<Notification, 'id' | 'type' | 'title' | 'body'> & { data: Record<string, unknown> })[],
  ): Promise<Notification[]> {
    const inserted = (await trx('notifications')
      .insert(rows.map((row) => ({ ...row, hotel_id: hotelId })))
      .returning('*')) as Notification[];
    const byId = new Map(inserted.map((row) => [row.id, row]));
    return rows.map((row) => byId.get(row.id)!);
  },

  /** The hotel's slug, for the search attributes of the push workflow. */
  async hotelSlug(trx: Knex.Transaction, hotelId: string): Promise<string | undefined> {
    const row = await trx('hotels').where({ id: hotelId }).first('slug');
    return row?.slug as string | undefined;
  },

  /** What a push of the notification says, when `userId` is one of its recipients (whether or not they hid it). */
  async pushContent(
    db: DbOrTrx,
    hotelId: string,
    notificationId: string,
    userId: string,
  ): Promise<Pick<Notification, 'id' | 'type' | 'title' | 'body' | 'data'> | undefined> {
    return db('notifications as n')
      .join('notification_recipients as r', function joinRecipient() {
        this.on('r.hotel_id', 'n.hotel_id').andOn('r.notification_id', 'n.id');
      })
      .where({ 'n.hotel_id': hotelId, 'n.id': notificationId, 'r.user_id': userId })
      .first('n.id', 'n.type', 'n.title', 'n.body', 'n.data');
  },

  /** The notification's recipients (user ids). */
  async recipientIds(db: DbOrTrx, hotelId: string, notificationId: string): Promise<string[]> {
    const rows: { user_id: string }[] = await db('notification_recipients')
      .where({ hotel_id: hotelId, notification_id: notificationId })
      .select('user_id');
    return rows.map((row) => row.user_id);
  },

  /** Rewrites what the notifications say (title, body, data), in one statement. */
  async revise(
    trx: Knex.Transaction,
    hotelId: string,
    revisions: readonly (Pick<Notification, 'id' | 'title' | 'body'> & { data: Record<string, unknown> })[],
  ): Promise<void> {
    if (revisions.length === 0) return;
    await trx.raw(
      `UPDATE notifications n SET title = v.title, body = v.body, data = v.data
         FROM jsonb_to_recordset(?::jsonb) AS v(id uuid, title text, body text, data jsonb)
        WHERE n.hotel_id = ? AND n.id = v.id`,
      [JSON.stringify(revisions), hotelId],
    );
  },

  async idByDedupeKey(trx: Knex.Transaction, hotelId: string, dedupeKey: string): Promise<string> {
    const row = await trx('notifications').where({ hotel_id: hotelId, dedupe_key: dedupeKey }).first('id');
    return row.id as string;
  },
};

/** The order of a notification's audience: oldest accounts first, ties by id. */
const OLDEST_FIRST = 'created_at, id';

/**
 * The roles of the hotel that receive `type` (a query of one column, `role`): the hotel's stored choice for the role
 * when it made one (a boolean), or else the role's default (ROLE_DEFAULTS). The rule `effectiveSettings` applies to
 * the stored rows for the settings' screen and push (test/api/notifications-agreement.test.ts: they agree).
 */
function rolesReceivingQuery(db: DbOrTrx, hotelId: string, type: NotificationType): Knex.Raw {
  return db.raw(
    `SELECT d.role FROM unnest(?::text[], ?::boolean[]) AS d(role, receives)
       LEFT JOIN notification_settings s ON s.hotel_id = ? AND s.role = d.role
     WHERE CASE WHEN jsonb_typeof(s.settings -> ?) = 'boolean' THEN (s.settings ->> ?)::boolean ELSE d.receives END`,
    [
      [...NOTIFICATION_ROLES],
      NOTIFICATION_ROLES.map((role) => ROLE_DEFAULTS[role].includes(type)),
      hotelId,
      type,
      type,
    ],
  );
}

/** The hotel's active staff of `roles` (limited to `userIds` when given), oldest accounts first. */
function audienceQuery(
  db: DbOrTrx,
  hotelId: string,
  roles: readonly HotelRole[] | Knex.Raw,
  userIds?: readonly string[],
) {
  const query = db('users')
    .where({ hotel_id: hotelId, active: true })
    .whereIn('role', roles as HotelRole[])
    .orderByRaw(OLDEST_FIRST);
  if (userIds) query.whereIn('id', userIds);
  return query;
}

export const recipientsRepository = {
  /** Of `userIds`, those `notify` would deliver `type` to: active staff of the hotel whose role receives it. */
  async receiving(db: DbOrTrx, hotelId: string, type: NotificationType, userIds: readonly string[]) {
    if (userIds.length === 0) return [];
    const roles = rolesReceivingQuery(db, hotelId, type);
    const rows: { id: string }[] = await audienceQuery(db, hotelId, roles, userIds).select('id');
    return rows.map((row) => row.id);
  },

  /** The active staff of the hotel whose role is one of `roles`, with their addresses. */
  async staff(db: DbOrTrx, hotelId: string, roles: readonly HotelRole[]): Promise<{ id: string; email: string }[]> {
    if (roles.length === 0) return [];
    return audienceQuery(db, hotelId, roles).select('id', 'email');
  },

  /**
   * Of these notifications, those the given user still has unread and not hidden; their rows stay locked until the
   * transaction ends (a concurrent read or deletion waits for it, or is seen first).
   */
  async lockUnread(
    trx: Knex.Transaction,
    hotelId: string,
    pairs: readonly { notificationId: string; userId: string }[],
  ): Promise<Set<string>> {
    if (pairs.length === 0) return new Set();
    const rows: { notification_id: string }[] = await trx('notification_recipients')
      .where({ hotel_id: hotelId })
      .whereIn(
        ['notification_id', 'user_id'],
        pairs.map((pair) => [pair.notificationId, pair.userId]),
      )
      .whereNull('read_at')
      .whereNull('deleted_at')
      .forUpdate()
      .select('notification_id');
    return new Set(rows.map((row) => row.notification_id));
  },

  /** Delivers each notification to its one user. */
  async insertEach(
    trx: Knex.Transaction,
    hotelId: string,
    deliveries: readonly { notification: Pick<Notification, 'id' | 'created_at'>; userId: string }[],
  ): Promise<void> {
    await trx('notification_recipients').insert(
      deliveries.map(({ notification, userId }) => ({
        hotel_id: hotelId,
        notification_id: notification.id,
        user_id: userId,
        created_at: notification.created_at,
      })),
    );
  },

  /** The user's notifications (not deleted by them), newest first. */
  async list(db: DbOrTrx, hotelId: string, userId: string, filter: Required<Pick<InboxFilter, 'limit'>> & InboxFilter) {
    const query = inboxQuery(db, hotelId, userId)
      .orderBy([
        { column: 'r.created_at', order: 'desc' },
        { column: 'r.notification_id', order: 'desc' },
      ])
      .limit(filter.limit);
    if (filter.unread) query.whereNull('r.read_at');
    if (filter.before && filter.before_id) {
      query.whereRaw('(r.created_at, r.notification_id) < (?, ?)', [filter.before, filter.before_id]);
    } else if (filter.before) {
      query.where('r.created_at', '<', filter.before);
    }
    return query as Promise<InboxItem[]>;
  },

  async find(db: DbOrTrx, hotelId: string, userId: string, id: string): Promise<InboxItem | undefined> {
    return inboxQuery(db, hotelId, userId).where('r.notification_id', id).first();
  },

  async unreadCount(db: DbOrTrx, hotelId: string, userId: string): Promise<number> {
    const row = await db('notification_recipients')
      .where({ hotel_id: hotelId, user_id: userId })
      .whereNull('deleted_at')
      .whereNull('read_at')
      .count<{ count: string }>('* as count')
      .first();
    return Number(row?.count ?? 0);
  },

  /** Marks one read (keeping the first read time) or unread; false when the user has no such notification. */
  async setRead(db: DbOrTrx, hotelId: string, userId: string, id: string, read: boolean): Promise<boolean> {
    const updated = await db('notification_recipients')
      .where({ hotel_id: hotelId, user_id: userId, notification_id: id })
      .whereNull('deleted_at')
      .update({ read_at: read ? db.raw('COALESCE(read_at, now())') : null });
    return updated > 0;
  },

  async readAll(db: DbOrTrx, hotelId: string, userId: string): Promise<number> {
    return db('notification_recipients')
      .where({ hotel_id: hotelId, user_id: userId })
      .whereNull('deleted_at')
      .whereNull('read_at')
      .update({ read_at: db.fn.now() });
  },

  /** Hides the notification for this user only. */
  async hide(db: DbOrTrx, hotelId: string, userId: string, id: string): Promise<boolean> {
    const updated = await db('notification_recipients')
      .where({ hotel_id: hotelId, user_id: userId, notification_id: id })
      .whereNull('deleted_at')
      .update({ deleted_at: db.fn.now() });
    return updated > 0;
  },
};

export const notificationSettingsRepository = {
  /** The hotel's explicit choices, per role (roles without a row follow the defaults). */
  async list(db: DbOrTrx, hotelId: string): Promise<NotificationSettingsRow[]> {
    return db<NotificationSettingsRow>('notification_settings').where({ hotel_id: hotelId });
  },

  /** Merges `changes` into the role's stored choices atomically (concurrent changes of other types both stay). */
  async merge(
    db: DbOrTrx,
    hotelId: string,
    role: HotelRole,
    changes: Partial<RoleNotificationSettings>,
  ): Promise<void> {
    await db('notification_settings')
      .insert({ hotel_id: hotelId, role, settings: JSON.stringify(changes) })
      .onConflict(['hotel_id', 'role'])
      .merge({
        settings: db.raw('notification_settings.settings || excluded.settings'),
        updated_at: db.fn.now(),
      });
  },
};
