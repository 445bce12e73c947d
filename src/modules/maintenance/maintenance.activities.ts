import { purgeIdempotencyKeys } from '../../platform/db/idempotency';
import { purgeSentMailClaims } from '../../platform/db/mail-claims';
import { purgeDeliveredOutbox } from '../../platform/db/outbox';
import { purgeClosedRateLimitWindows } from '../../platform/http/rate-limit';
import type { WorkerContext } from '../../platform/modules';
import { purgeRealtimeEvents } from '../../platform/realtime/events';
import type { MaintenanceActivities } from '../../../workflows/contracts/maintenance';
import type { AgentsService } from '../agents';
import type { AuthService } from '../auth';
import type { TvService } from '../tv';
import type { WebhooksService } from '../webhooks';

/** The modules whose expired records the sweep removes (its service is these). */
export interface MaintenanceDependencies {
  auth: Pick<AuthService, 'purgeExpiredSessions'>;
  agents: Pick<AgentsService, 'purgeFinishedCommands'>;
  tv: Pick<TvService, 'purgeOldLog'>;
  webhooks: Pick<WebhooksService, 'purgeExpired'>;
}

/** The hourly sweep's activity: each run deletes whatever has expired by then. */
export function maintenanceActivities(
  { auth, agents, tv, webhooks }: MaintenanceDependencies,
  { db, config }: WorkerContext,
): MaintenanceActivities {
  return {
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
        mailClaims: await purgeSentMailClaims(db),
        webhookEvents: await webhooks.purgeExpired(),
      };
    },
  };
}
