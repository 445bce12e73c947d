import type { RetentionActivities } from '../../../workflows/contracts/retention';
import type { RetentionService } from './retention.service';

/** The retention sweep's activity: a thin call into the service. */
export function retentionActivities(retention: RetentionService): RetentionActivities {
  return { eraseExpiredGuests: (now, after) => retention.sweep(now, after ?? null) };
}
