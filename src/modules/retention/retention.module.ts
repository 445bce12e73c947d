import { defineModule } from '../../platform/modules';
import { retentionActivities } from './retention.activities';
import { retentionRoutes } from './retention.routes';
import { createRetentionService, type RetentionDependencies } from './retention.service';

/**
 * Guests' personal data kept no longer than allowed (docs/decisions/retention.md): the hotel's period, a daily sweep
 * erasing what expired, the export and the erasure on request.
 */
export const retentionModule = defineModule({
  name: 'retention',
  uses: ['guests'],
  fixtures: {
    records: {},
    requests: {
      body: { 'PATCH /api/hotels/:slug/retention-settings': { base: () => ({ guest_data_days: 400 }) } },
    },
  },
  create: ({ db, config, storage, personalData }, deps: RetentionDependencies) =>
    createRetentionService(db, config, storage, personalData, deps),
  routes: (retention) => retentionRoutes(retention),
  activities: (retention) => retentionActivities(retention),
  schedules: [{ scheduleId: 'retention-sweep', workflowType: 'retentionSweep', every: '1 day' }],
  onHotelCreated: (retention, trx, hotelId) => retention.settings.onHotelCreated(trx, hotelId),
});
