export type { NotificationsService } from './notifications.service';
export type { Delivery, NotificationChannel } from './notifications.service';
export {
  NOTIFICATION_TYPES,
  type HotelRole,
  type InboxItem,
  type NotificationInput,
  type NotificationSettings,
  type NotificationRevision,
  type NotificationType,
  type NotifyResult,
  type PersonalNotification,
} from './notifications.types';
