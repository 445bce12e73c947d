import { proxyActivities } from '@temporalio/workflow';
import type { MaintenanceActivities, PurgeReport } from './contracts/maintenance';

const { purgeExpiredRecords } = proxyActivities<MaintenanceActivities>({
  startToCloseTimeout: '5 minutes',
  retry: { maximumAttempts: 3 },
});

/** Run by a schedule: removes expired sessions, closed rate-limit windows and old delivered outbox rows. */
export async function maintenanceSweep(): Promise<PurgeReport> {
  return purgeExpiredRecords();
}
