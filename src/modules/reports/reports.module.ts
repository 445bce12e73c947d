import { defineModule } from '../../platform/modules';
import { reportActivities } from './reports.activities';
import { reportsFixtures } from './reports.fixtures';
import { reportsRoutes } from './reports.routes';
import { createReportsService, type ReportsDependencies } from './reports.service';
import type { NotificationsService } from '../notifications';

/** The hotel's reports: read from the folio lines and the stays, written nowhere (docs/decisions/reports.md). */
export const reportsModule = defineModule({
  name: 'reports',
  fixtures: reportsFixtures,
  uses: ['hotels', 'touristTax', 'notifications'],
  create: ({ db }, deps: ReportsDependencies & { notifications: NotificationsService }) =>
    createReportsService(db, deps),
  routes: (reports) => reportsRoutes(reports),
  activities: (reports, context, deps) => reportActivities(reports, context, deps.notifications),
});
