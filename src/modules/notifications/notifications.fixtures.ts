import type { ModuleFixtures } from '../../platform/fixtures';
import type { NotificationsService } from './notifications.service';

/** A notification about the seeded task (no route makes one: the modules notify through the service). */
export const notificationsFixtures: ModuleFixtures<NotificationsService> = {
  needs: ['task'],
  records: { notification: { paths: ['/api/hotels/:slug/notifications/:id'], fields: ['before_id'] } },
  requests: {
    query: {
      'GET /api/hotels/:slug/notifications': {
        base: () => ({}),
        variants: {
          before_id: (r) => ({ before: new Date(Date.now() + 60_000).toISOString(), before_id: r.notification }),
        },
        control: true,
      },
    },
  },
  async seed({ db, hotelId, canary, records }, notifications) {
    const notification = await db.transaction((trx) =>
      notifications.notify(trx, hotelId, {
        type: 'housekeeping_task_created',
        title: `Notice ${canary}`,
        body: `Notice body ${canary}`,
        data: { task_id: records.task, note: `data ${canary}` },
      }),
    );
    return { notification: notification.id };
  },
};
