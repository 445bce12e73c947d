import { proxyActivities, workflowInfo } from '@temporalio/workflow';
import type {
  RetentionActivities,
  RetentionSweepInput,
  RetentionSweepReport,
  SweepCursor,
} from './contracts/retention';

const { eraseExpiredGuests } = proxyActivities<RetentionActivities>({
  startToCloseTimeout: '5 minutes',
  retry: { maximumAttempts: 5 },
});

/** A backlog larger than this many batches waits for the next day's run rather than keeping one run going. */
const MAX_PASSES = 200;

/**
 * Run by a schedule: erases the personal data of guests whose hotel's retention period has passed since their last
 * stay, batch by batch. Time comes from the argument, or from the run's start (recorded in its history).
 */
export async function retentionSweep(input: RetentionSweepInput = {}): Promise<number> {
  const now = input.now ?? workflowInfo().runStartTime.toISOString();
  let erased = 0;
  let after: SweepCursor | null = null;
  for (let pass = 0; pass < MAX_PASSES; pass++) {
    const report: RetentionSweepReport = await eraseExpiredGuests(now, after);
    erased += report.erased;
    after = report.after;
    if (!report.more) break;
  }
  return erased;
}
