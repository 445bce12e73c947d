import { ScheduleAlreadyRunning, type Client } from '@temporalio/client';
import type { Duration } from '@temporalio/common';

export interface ScheduleDefinition {
  scheduleId: string;
  workflowType: string;
  every: Duration;
}

/**
 * Creates each schedule, or brings an existing one to the declared interval and workflow: every worker replica can
 * run this at start-up, any number of times.
 */
export async function ensureSchedules(
  client: Client,
  taskQueue: string,
  schedules: ScheduleDefinition[],
): Promise<void> {
  for (const schedule of schedules) {
    const spec = { intervals: [{ every: schedule.every }] };
    const action = {
      type: 'startWorkflow' as const,
      workflowType: schedule.workflowType,
      taskQueue,
      workflowId: `schedule:${schedule.scheduleId}`,
      args: [],
    };
    try {
      await client.schedule.create({ scheduleId: schedule.scheduleId, spec, action });
    } catch (error) {
      if (!(error instanceof ScheduleAlreadyRunning)) throw error;
      await client.schedule.getHandle(schedule.scheduleId).update((previous) => ({ ...previous, spec, action }));
    }
  }
}
