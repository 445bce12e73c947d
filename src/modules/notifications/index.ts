export {
  createNotificationsService,
  EVENT_MAX_RECIPIENT_IDS,
  NOTIFICATION_EVENT,
  notificationMessages,
  notificationSettingsOf,
  notify,
  rolesReceiving,
  type NotificationsService,
} from './notifications.service';
export { notificationsRoutes } from './notifications.routes';
export {
  NOTIFICATION_TYPES,
  ROLE_DEFAULTS,
  type HotelRole,
  type InboxItem,
  type NotificationInput,
  type NotificationSettings,
  type NotificationType,
  type NotifyResult,
} from './notifications.types';
