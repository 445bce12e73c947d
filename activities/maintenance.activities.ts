import type { Config } from '../src/config';
import { sessionsRepository } from '../src/modules/auth';
import { purgeIdempotencyKeys } from '../src/platform/db/idempotency';
import { purgeDeliveredOutbox } from '../src/platform/db/outbox';
import type { Db } from '../src/platform/db/knex';
import { purgeClosedRateLimitWindows } from '../src/platform/http/rate-limit';
import { purgeRealtimeEvents } from '../src/platform/realtime/events';

export function createMaintenanceActivities(db: Db, config: Config) {
  return {
    /** Idempotent: each run deletes whatever has expired by then. */
    async purgeExpiredRecords(): Promise<{
      sessions: number;
      rateLimitCounters: number;
      outbox: number;
      realtimeEvents: number;
      idempotencyKeys: number;
    }> {
      return {
        sessions: await sessionsRepository.deleteExpired(db),
        rateLimitCounters: await purgeClosedRateLimitWindows(db, config.rateLimit.windowSeconds),
        outbox: await purgeDeliveredOutbox(db),
        // Older than the replay window (24 h): a client that far behind is told to reload instead.
        realtimeEvents: await purgeRealtimeEvents(db),
        idempotencyKeys: await purgeIdempotencyKeys(db),
      };
    },
  };
}

export type MaintenanceActivities = ReturnType<typeof createMaintenanceActivities>;
