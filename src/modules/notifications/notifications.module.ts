import { notificationsFixtures } from './notifications.fixtures';
import { defineModule } from '../../platform/modules';
import { notificationCreated } from './notifications.events';
import { notificationsRoutes } from './notifications.routes';
import { createNotificationsService } from './notifications.service';
import { scrubbed } from '../../platform/personal-data';

export const notificationsModule = defineModule({
  name: 'notifications',
  fixtures: notificationsFixtures,
  uses: [],
  personalData: [
    scrubbed('notifications', 'hotel', [{ name: 'title' }, { name: 'body' }, { name: 'data', json: true }]),
  ],
  create: ({ db }) => createNotificationsService(db),
  events: [notificationCreated],
  routes: (notifications) => notificationsRoutes(notifications),
});
