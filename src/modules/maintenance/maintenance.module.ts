import { purgeIdempotencyKeys } from '../../platform/db/idempotency';
import { purgeDeliveredOutbox } from '../../platform/db/outbox';
import { purgeClosedRateLimitWindows } from '../../platform/http/rate-limit';
import { defineModule } from '../../platform/modules';
import { purgeRealtimeEvents } from '../../platform/realtime/events';
import type { MaintenanceActivities } from '../../../workflows/contracts/maintenance';
import type { AgentsService } from '../agents';
import type { AuthService } from '../auth';
import type { TvService } from '../tv';

/** The hourly sweep of records nobody needs any more: expired sessions, closed rate-limit windows, old deliveries. */
export const maintenanceModule = defineModule({
  name: 'maintenance',
  uses: ['auth', 'agents', 'tv'],
  create: (
    _context,
    deps: {
      auth: Pick<AuthService, 'purgeExpiredSessions'>;
      agents: Pick<AgentsService, 'purgeFinishedCommands'>;
      tv: Pick<TvService, 'purgeOldLog'>;
    },
  ) => deps,
  activities: ({ auth, agents, tv }, { db, config }): MaintenanceActivities => ({
    async purgeExpiredRecords() {
      return {
        sessions: await auth.purgeExpiredSessions(),
        rateLimitCounters: await purgeClosedRateLimitWindows(db, config.rateLimit.windowSeconds),
        outbox: await purgeDeliveredOutbox(db),
        // Older than the replay window (24 h): a client that far behind is told to reload instead.
        realtimeEvents: await purgeRealtimeEvents(db),
        idempotencyKeys: await purgeIdempotencyKeys(db),
        agentCommands: await agents.purgeFinishedCommands(),
        tvLog: await tv.purgeOldLog(),
      };
    },
  }),
  schedules: [{ scheduleId: 'maintenance-sweep', workflowType: 'maintenanceSweep', every: '1 hour' }],
});
