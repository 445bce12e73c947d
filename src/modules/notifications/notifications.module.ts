import { notificationsFixtures } from './notifications.fixtures';
import { defineModule } from '../../platform/modules';
import { notificationCreated } from './notifications.events';
import { notificationsRoutes } from './notifications.routes';
import { createNotificationsService } from './notifications.service';

export const notificationsModule = defineModule({
  name: 'notifications',
  fixtures: notificationsFixtures,
  uses: [],
  create: ({ db }) => createNotificationsService(db),
  events: [notificationCreated],
  routes: (notifications) => notificationsRoutes(notifications),
});
