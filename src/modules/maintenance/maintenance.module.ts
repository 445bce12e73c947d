import { defineModule } from '../../platform/modules';
import { maintenanceActivities, type MaintenanceDependencies } from './maintenance.activities';

/** The hourly sweep of records nobody needs any more: expired sessions, closed rate-limit windows, old deliveries. */
export const maintenanceModule = defineModule({
  name: 'maintenance',
  uses: ['auth', 'agents', 'tv', 'webhooks'],
  create: (_context, deps: MaintenanceDependencies) => deps,
  activities: maintenanceActivities,
  schedules: [{ scheduleId: 'maintenance-sweep', workflowType: 'maintenanceSweep', every: '1 hour' }],
});
