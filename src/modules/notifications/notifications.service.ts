import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { Db, DbOrTrx } from '../../platform/db/knex';
import { NotFoundError } from '../../platform/errors';
import { validate } from '../../platform/http/validate';
import {
  notificationSettingsRepository,
  notificationsRepository,
  recipientsRepository,
} from './notifications.repository';
import { notificationCreated } from './notifications.events';
import { notificationInput, notificationRevision, personalNotification } from './notifications.schemas';
import {
  NOTIFICATION_ROLES,
  NOTIFICATION_TYPES,
  ROLE_DEFAULTS,
  type HotelRole,
  type InboxFilter,
  type InboxItem,
  type NotificationInput,
  type NotificationSettings,
  type NotificationSettingsChanges,
  type NotificationSettingsRow,
  type NotificationType,
  type NotificationRevision,
  type NotifyResult,
  type PersonalNotification,
  type RoleNotificationSettings,
} from './notifications.types';

export const notificationMessages = {
  notFound: 'Уведомление не найдено',
};

export const DEFAULT_LIST_LIMIT = 50;
export const MAX_LIST_LIMIT = 200;

/**
 * The settings in effect: the hotel's explicit choices over the defaults of each role, for every known type (`notify`
 * and `notifyEach` decide the same in SQL, `rolesReceivingQuery` of the repository; a test proves they agree).
 */
export function effectiveSettings(rows: readonly Pick<NotificationSettingsRow, 'role' | 'settings'>[]) {
  const stored = new Map(rows.map((row) => [row.role, row.settings]));
  const settings = {} as NotificationSettings;
  for (const role of NOTIFICATION_ROLES) {
    const choices = stored.get(role) ?? {};
    const defaults = new Set<NotificationType>(ROLE_DEFAULTS[role]);
    const forRole = {} as RoleNotificationSettings;
    for (const type of NOTIFICATION_TYPES) {
      const choice = choices[type];
      forRole[type] = typeof choice === 'boolean' ? choice : defaults.has(type);
    }
    settings[role] = forRole;
  }
  return settings;
}

/** The hotel's notification settings in effect (for the push module too: push follows the same switches). */
export async function notificationSettingsOf(conn: DbOrTrx, hotelId: string): Promise<NotificationSettings> {
  return effectiveSettings(await notificationSettingsRepository.list(conn, hotelId));
}

/** Who received one notification just made (a channel delivers it to them elsewhere). */
export interface Delivery {
  notificationId: string;
  recipientIds: readonly string[];
}

/**
 * Another module that delivers the notifications elsewhere too (Web Push): told in their transaction of each made
 * and who received it, so it decides at the commit whether there is anything to deliver (and a rollback sends
 * nothing). `hotelSlug` is read once, if the channel needs it.
 */
export interface NotificationChannel {
  delivered(
    trx: Knex.Transaction,
    hotelId: string,
    deliveries: readonly Delivery[],
    hotelSlug: () => Promise<string | undefined>,
  ): Promise<void>;
}

function createNotifier(channels: readonly NotificationChannel[]) {
  async function delivered(trx: Knex.Transaction, hotelId: string, deliveries: readonly Delivery[]) {
    let slug: Promise<string | undefined> | undefined;
    const hotelSlug = () => (slug ??= notificationsRepository.hotelSlug(trx, hotelId));
    for (const channel of channels) await channel.delivered(trx, hotelId, deliveries, hotelSlug);
  }

  /**
   * Creates an in-app notification inside the caller's transaction, so it commits (or rolls back) with the fact it
   * reports. It is delivered to the hotel's active staff whose role has `type` enabled (and, with `userIds`, only to
   * those of them listed), each with their own read state. When there are recipients, one `notification:new` event goes
   * to the hotel's sockets on commit (with `userIds`, to the recipients' sockets only):
   * `{ notification_id, type, title, recipient_ids, recipients_truncated }`, where `recipient_ids` lists at most
   * EVENT_MAX_RECIPIENT_IDS users (a client shows it when its user id is listed), and the channels are told who
   * received it (Web Push enqueues a push for those of them with subscriptions, sent after commit).
   *
   * A type nobody receives is still recorded, with 0 recipients and no event (the record says it happened; nobody
   * is shown it, and enabling the type later does not deliver it retroactively).
   *
   * Refuses (ValidationError) an unknown type, an empty or too long title, and `data` that is not a small flat object.
   */
  async function notify(trx: Knex.Transaction, hotelId: string, input: NotificationInput): Promise<NotifyResult> {
    const { type, title, body, data, userIds, dedupeKey } = validate<NotificationInput>(
      notificationInput,
      input,
      'body',
    );
    // One statement: the notification, its recipients by the hotel's settings, and its event.
    const made = await notificationsRepository.insertDelivered(trx, hotelId, {
      type,
      title,
      body,
      dedupeKey,
      userIds,
      data: data ?? {},
    });
    if (!made) {
      return {
        id: await notificationsRepository.idByDedupeKey(trx, hotelId, dedupeKey!),
        recipients: 0,
        created: false,
      };
    }
    const { id, recipient_ids: recipientIds } = made;
    if (recipientIds.length > 0) await delivered(trx, hotelId, [{ notificationId: id, recipientIds }]);
    return { id, recipients: recipientIds.length, created: true };
  }

  /**
   * One notification of `type` for each user, theirs alone (e.g. a chat room's unread messages, which each member reads
   * on their own), as `notify` would make it for `userIds: [userId]`, in a few statements however many users: those
   * whose role receives the type get it, with `notification:new` to their sockets and their push. Answers the id made
   * for each user who got one.
   */
  async function notifyEach(
    trx: Knex.Transaction,
    hotelId: string,
    type: NotificationType,
    items: readonly PersonalNotification[],
  ): Promise<Map<string, string>> {
    const made = new Map<string, string>();
    if (items.length === 0) return made;
    const checked = items.map((item) => validate<PersonalNotification>(personalNotification, item, 'body'));
    const receivers = new Set(
      await recipientsRepository.receiving(
        trx,
        hotelId,
        type,
        checked.map((item) => item.userId),
      ),
    );
    const kept = checked.filter((item) => receivers.has(item.userId));
    if (kept.length === 0) return made;
    const rows = await notificationsRepository.insertEach(
      trx,
      hotelId,
      kept.map(({ title, body, data }) => ({ id: randomUUID(), type, title, body, data })),
    );
    await recipientsRepository.insertEach(
      trx,
      hotelId,
      rows.map((row, index) => ({ notification: row, userId: kept[index].userId })),
    );
    for (const [index, row] of rows.entries()) {
      const { userId, title } = kept[index];
      // The payload `notify` writes in SQL (`insertDelivered`), one shape: `notificationCreated`'s Joi schema.
      await notificationCreated.publish(
        trx,
        hotelId,
        { notification_id: row.id, type, title, recipient_ids: [userId], recipients_truncated: false },
        { audience: [userId] },
      );
      made.set(userId, row.id);
    }
    await delivered(
      trx,
      hotelId,
      rows.map((row, index) => ({ notificationId: row.id, recipientIds: [kept[index].userId] })),
    );
    return made;
  }

  return { notify, notifyEach };
}

/** Of `userIds`, those `notify` would deliver `type` to: active staff of the hotel whose role has it enabled. */
export async function receiversOf(
  conn: DbOrTrx,
  hotelId: string,
  type: NotificationType,
  userIds: readonly string[],
): Promise<string[]> {
  return recipientsRepository.receiving(conn, hotelId, type, userIds);
}

/**
 * Of these notifications, those the given user still has unread and not hidden, locked until the caller's transaction
 * ends: a notification that is rewritten (`revise`) meanwhile cannot be read half-way.
 */
export function stillUnread(
  trx: Knex.Transaction,
  hotelId: string,
  pairs: readonly { notificationId: string; userId: string }[],
): Promise<Set<string>> {
  return recipientsRepository.lockUnread(trx, hotelId, pairs);
}

/**
 * Rewrites notifications in place (a running one, e.g. a chat room's unread messages): their recipients, read state,
 * place in the lists and `created_at` stay; no event and no push (those came when each was made).
 */
export async function revise(
  trx: Knex.Transaction,
  hotelId: string,
  revisions: readonly NotificationRevision[],
): Promise<void> {
  const checked = revisions.map((revision) => validate<NotificationRevision>(notificationRevision, revision, 'body'));
  await notificationsRepository.revise(trx, hotelId, checked);
}

/** Marks the user's notification read in the caller's transaction (e.g. when they read what it tells of). */
export function markReadWithin(trx: Knex.Transaction, hotelId: string, userId: string, id: string): Promise<boolean> {
  return recipientsRepository.setRead(trx, hotelId, userId, id, true);
}

export function createNotificationsService(db: Db) {
  const channels: NotificationChannel[] = [];
  const { notify, notifyEach } = createNotifier(channels);

  async function findOwn(conn: DbOrTrx, hotelId: string, userId: string, id: string): Promise<InboxItem> {
    const item = await recipientsRepository.find(conn, hotelId, userId, id);
    if (!item) throw new NotFoundError(notificationMessages.notFound);
    return item;
  }

  return {
    /** Records a notification of the hotel in the caller's transaction (see `notify`). */
    notify,
    notifyEach,
    /** For a module that delivers notifications elsewhere (Web Push), when it is built. */
    deliverAlso: (channel: NotificationChannel) => void channels.push(channel),
    receiversOf,
    /** The hotel's active staff of these roles and their addresses (for a module that e-mails them, e.g. a report). */
    staffOf: (hotelId: string, roles: readonly HotelRole[]) => recipientsRepository.staff(db, hotelId, roles),
    stillUnread,
    revise,
    markReadWithin,
    aboutBooking: (hotelId: string, bookingId: string, limit: number) =>
      notificationsRepository.aboutBooking(db, hotelId, bookingId, limit),

    /** The user's own notifications, newest first, and how many of them are unread (whatever the filter). */
    async list(
      hotelId: string,
      userId: string,
      filter: InboxFilter,
    ): Promise<{ items: InboxItem[]; unread_count: number }> {
      const [items, unreadCount] = await Promise.all([
        recipientsRepository.list(db, hotelId, userId, { ...filter, limit: filter.limit ?? DEFAULT_LIST_LIMIT }),
        recipientsRepository.unreadCount(db, hotelId, userId),
      ]);
      return { items, unread_count: unreadCount };
    },

    get: (hotelId: string, userId: string, id: string) => findOwn(db, hotelId, userId, id),

    /** Marks one of the user's notifications read or unread; 404 for anyone else's (or one they deleted). */
    async markRead(hotelId: string, userId: string, id: string, read: boolean): Promise<InboxItem> {
      if (!(await recipientsRepository.setRead(db, hotelId, userId, id, read))) {
        throw new NotFoundError(notificationMessages.notFound);
      }
      return findOwn(db, hotelId, userId, id);
    },

    async readAll(hotelId: string, userId: string): Promise<{ ok: true; updated: number }> {
      return { ok: true, updated: await recipientsRepository.readAll(db, hotelId, userId) };
    },

    /** Hides the notification for this user; the other recipients keep it. */
    async remove(hotelId: string, userId: string, id: string): Promise<void> {
      if (!(await recipientsRepository.hide(db, hotelId, userId, id))) {
        throw new NotFoundError(notificationMessages.notFound);
      }
    },

    getSettings: (hotelId: string) => notificationSettingsOf(db, hotelId),

    /** For the push module: the users a notification was delivered to. */
    recipientIds: (hotelId: string, notificationId: string) =>
      notificationsRepository.recipientIds(db, hotelId, notificationId),

    /** For the push module: what the notification says, when `userId` is one of its recipients. */
    pushContent: (hotelId: string, notificationId: string, userId: string) =>
      notificationsRepository.pushContent(db, hotelId, notificationId, userId),

    /** Applies the given switches (other roles and types keep theirs) and answers the settings in effect. */
    async updateSettings(hotelId: string, changes: NotificationSettingsChanges): Promise<NotificationSettings> {
      return db.transaction(async (trx) => {
        for (const role of NOTIFICATION_ROLES) {
          const forRole = changes[role];
          if (forRole && Object.keys(forRole).length > 0) {
            await notificationSettingsRepository.merge(trx, hotelId, role, forRole);
          }
        }
        return notificationSettingsOf(trx, hotelId);
      });
    },
  };
}

export type NotificationsService = ReturnType<typeof createNotificationsService>;
