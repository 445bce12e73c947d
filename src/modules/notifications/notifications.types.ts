import { HOTEL_ROLES, type Role } from '../../platform/http/roles';

/**
 * Every kind of in-app notification. The one list: request schemas, settings and defaults derive from it. A new type
 * is added here (and to ROLE_DEFAULTS where a role should get it without the hotel asking); no migration is needed.
 */
export const NOTIFICATION_TYPES = [
  'booking_created',
  'booking_cancelled_no_show',
  'booking_auto_checked_out',
  'booking_blacklisted_guest',
  'block_released',
  'booking_moved',
  'deposit_settled',
  'payment_received',
  'housekeeping_task_created',
  'widget_booking',
  'review_created',
  'room_service_order',
  'chat_message',
  'night_audit_failed',
  'webhook_paused',
  'channel_booking_unplaced',
  'channel_sync_failed',
  'channel_reconciliation_mismatch',
] as const;

export type NotificationType = (typeof NOTIFICATION_TYPES)[number];

/** The roles inside a hotel (super_admin belongs to none and receives no notifications). */
export type HotelRole = Exclude<Role, 'super_admin'>;
export const NOTIFICATION_ROLES = HOTEL_ROLES as readonly HotelRole[];

/** Which types a role receives: `{ <type>: boolean }`, complete for every known type. */
export type RoleNotificationSettings = Record<NotificationType, boolean>;
/** The hotel's notification settings: one complete object per hotel role. */
export type NotificationSettings = Record<HotelRole, RoleNotificationSettings>;
/** A partial change: some roles, some types each. */
export type NotificationSettingsChanges = Partial<Record<HotelRole, Partial<RoleNotificationSettings>>>;

const BOOKING_TYPES: NotificationType[] = NOTIFICATION_TYPES.filter((type) => type.startsWith('booking_'));
const MONEY_TYPES: NotificationType[] = ['deposit_settled', 'payment_received'];

/**
 * What each role receives until the hotel decides otherwise (per type: a type the hotel never set for a role follows
 * this list, also for types added later). The owner and managers get everything; the desk gets what it acts on
 * (bookings, widget bookings, blocks' releases, room-service orders); housekeepers and technicians their tasks; the accountant the
 * booking facts that move money; security the blacklisted-guest alert. Chat is on for everyone: the chat module
 * addresses a message's notification to the members of its conversation, so the role switch only mutes it.
 */
export const ROLE_DEFAULTS: Record<HotelRole, readonly NotificationType[]> = {
  hotel_admin: NOTIFICATION_TYPES,
  manager: NOTIFICATION_TYPES,
  receptionist: [
    ...BOOKING_TYPES,
    ...MONEY_TYPES,
    'widget_booking',
    'block_released',
    'room_service_order',
    'chat_message',
    'channel_booking_unplaced',
  ],
  accountant: [...BOOKING_TYPES, ...MONEY_TYPES, 'chat_message'],
  security: ['booking_blacklisted_guest', 'chat_message'],
  technician: ['housekeeping_task_created', 'chat_message'],
  housekeeper: ['housekeeping_task_created', 'chat_message'],
};

/** What other modules pass to `notify`. */
export interface NotificationInput {
  type: NotificationType;
  /** Shown as the heading, and carried by the realtime event: at most 200 characters. */
  title: string;
  /** At most 2000 characters. */
  body: string;
  /**
   * Optional: makes the call idempotent for a process that may run again (a retried activity): a notification with
   * the same key in the hotel is made once; later calls make nothing.
   */
  dedupeKey?: string;
  /** Small ids and scalars for the client to link to (e.g. `{ booking_id, room_id }`): at most 20 keys. */
  data?: Record<string, string | number | boolean | null>;
  /**
   * Optional: address only these users (e.g. the members of a chat conversation). They still receive it only if they
   * are active staff of the hotel whose role has the type enabled.
   */
  userIds?: string[];
}

/** What `revise` writes over a notification: its new words (the type and recipients stay). */
export interface NotificationRevision {
  id: string;
  title: string;
  body: string;
  data: Record<string, string | number | boolean | null>;
}

/** One user's own notification, for `notifyEach`. */
export interface PersonalNotification {
  userId: string;
  title: string;
  body: string;
  data: Record<string, string | number | boolean | null>;
}

export interface NotifyResult {
  id: string;
  /** How many users it was delivered to (0: recorded, but nobody's role has the type enabled). */
  recipients: number;
  /** false when `dedupeKey` named a notification made earlier (whose id this is): nothing was made this time. */
  created: boolean;
}

export interface Notification {
  id: string;
  hotel_id: string;
  type: NotificationType;
  title: string;
  body: string;
  data: Record<string, unknown>;
  dedupe_key: string | null;
  created_at: Date;
}

/** A notification as one recipient sees it, with their own read state. */
export interface InboxItem {
  id: string;
  type: NotificationType;
  title: string;
  body: string;
  data: Record<string, unknown>;
  created_at: Date;
  read: boolean;
  read_at: Date | null;
}

export interface InboxFilter {
  /** true: only unread ones. */
  unread?: boolean;
  limit?: number;
  /** Only notifications created strictly before this instant (the `created_at` of the last one seen). */
  before?: Date;
  /** With `before`: the id of the last one seen, so ones created in the same millisecond are not skipped. */
  before_id?: string;
}

export interface NotificationSettingsRow {
  hotel_id: string;
  role: HotelRole;
  settings: Partial<Record<string, boolean>>;
  updated_at: Date;
}
