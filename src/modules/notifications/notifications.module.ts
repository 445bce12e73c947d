import { defineModule } from '../../platform/modules';
import { notificationsRoutes } from './notifications.routes';
import { createNotificationsService } from './notifications.service';

export const notificationsModule = defineModule({
  name: 'notifications',
  uses: [],
  create: ({ db }) => createNotificationsService(db),
  routes: (notifications) => notificationsRoutes(notifications),
});
