import { defineHotelRoute, type RouteDefinition } from '../../platform/http/route';
import { ALL_STAFF, HOTEL_MANAGEMENT } from '../../platform/http/roles';
import { idParams, okResponse, slugParams } from '../../platform/http/schemas';
import {
  inboxItemSchema,
  inboxSchema,
  markReadBody,
  notificationListQuery,
  readAllSchema,
  settingsChangesBody,
  settingsSchema,
} from './notifications.schemas';
import type { NotificationsService } from './notifications.service';
import type { InboxFilter, NotificationSettingsChanges } from './notifications.types';

const tags = ['Notifications'];
const notFound = { description: 'You have no such notification (another user’s, deleted by you, or another hotel’s)' };

export function notificationsRoutes(notifications: NotificationsService): RouteDefinition[] {
  return [
    defineHotelRoute<unknown, InboxFilter>({
      method: 'get',
      path: '/api/hotels/:slug/notifications',
      summary: 'List your notifications',
      description:
        'Each member of staff sees only the notifications delivered to them (those of a type their role has enabled ' +
        'in the notification settings when it was created), with their own read state. Newest first; `unread=true` ' +
        'keeps the unread ones; `limit` (default 50, at most 200); for the next page pass the last item’s ' +
        '`created_at` as `before` and its `id` as `before_id`. `unread_count` counts all your unread ones. The ' +
        '`notification:new` realtime event announces new ones; clients also poll this every 60 s.',
      tags,
      access: { kind: 'hotel', roles: ALL_STAFF },
      request: { params: slugParams, query: notificationListQuery },
      responses: { 200: { description: 'Your notifications', schema: inboxSchema } },
      async handler({ hotel, auth, query, res }) {
        res.json(await notifications.list(hotel.id, auth.sub, query));
      },
    }),
    defineHotelRoute({
      method: 'post',
      path: '/api/hotels/:slug/notifications/read-all',
      summary: 'Mark all your notifications read',
      tags,
      access: { kind: 'hotel', roles: ALL_STAFF },
      request: { params: slugParams },
      responses: { 200: { description: 'How many were unread', schema: readAllSchema } },
      async handler({ hotel, auth, res }) {
        res.json(await notifications.readAll(hotel.id, auth.sub));
      },
    }),
    defineHotelRoute<{ read: boolean }, unknown, { id: string }>({
      method: 'patch',
      path: '/api/hotels/:slug/notifications/:id',
      summary: 'Mark one of your notifications read or unread',
      description: 'For you only: the other recipients keep their own read state.',
      tags,
      access: { kind: 'hotel', roles: ALL_STAFF },
      request: { params: idParams, body: markReadBody },
      responses: { 200: { description: 'The notification', schema: inboxItemSchema }, 404: notFound },
      async handler({ hotel, auth, params, body, res }) {
        res.json(await notifications.markRead(hotel.id, auth.sub, params.id, body.read));
      },
    }),
    defineHotelRoute<unknown, unknown, { id: string }>({
      method: 'delete',
      path: '/api/hotels/:slug/notifications/:id',
      summary: 'Delete one of your notifications',
      description: 'Hides it from your list only; the other recipients keep it.',
      tags,
      access: { kind: 'hotel', roles: ALL_STAFF },
      request: { params: idParams },
      responses: { 200: { description: 'Deleted', schema: okResponse }, 404: notFound },
      async handler({ hotel, auth, params, res }) {
        await notifications.remove(hotel.id, auth.sub, params.id);
        res.json({ ok: true });
      },
    }),
    defineHotelRoute({
      method: 'get',
      path: '/api/hotels/:slug/notification-settings',
      summary: 'Read the notification settings',
      description:
        'Per role, which notification types it receives: `{ <role>: { <type>: boolean } }` for every hotel role and ' +
        'type. Until changed: `hotel_admin` and `manager` everything; `receptionist` booking_*, deposit_settled, ' +
        'payment_received, widget_booking, room_service_order, chat_message; `accountant` booking_*, ' +
        'deposit_settled, payment_received, chat_message; `security` ' +
        'booking_blacklisted_guest, chat_message; `housekeeper` and `technician` housekeeping_task_created, ' +
        'chat_message. The same switches decide who gets push notifications.',
      tags,
      access: { kind: 'hotel', roles: HOTEL_MANAGEMENT },
      request: { params: slugParams },
      responses: { 200: { description: 'The settings in effect', schema: settingsSchema } },
      async handler({ hotel, res }) {
        res.json(await notifications.getSettings(hotel.id));
      },
    }),
    defineHotelRoute<NotificationSettingsChanges>({
      method: 'patch',
      path: '/api/hotels/:slug/notification-settings',
      summary: 'Change the notification settings',
      description:
        'Partial: `{ <role>: { <type>: boolean } }`; roles and types left out keep their setting. Unknown roles or ' +
        'types are refused (400). Applies to notifications created from then on. Only the hotel owner may change them.',
      tags,
      access: { kind: 'hotel', roles: ['hotel_admin'] },
      request: { params: slugParams, body: settingsChangesBody },
      responses: { 200: { description: 'The settings in effect', schema: settingsSchema } },
      async handler({ hotel, body, res }) {
        res.json(await notifications.updateSettings(hotel.id, body));
      },
    }),
  ];
}
