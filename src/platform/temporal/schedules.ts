import {
  ScheduleAlreadyRunning,
  ScheduleNotFoundError,
  ScheduleOverlapPolicy,
  type Client,
  type ScheduleOptionsStartWorkflowAction,
} from '@temporalio/client';
import type { Workflow } from '@temporalio/common';
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

/** A schedule at an hour of a time zone's clock, every day, starting `action` (a run still going makes the next skip). */
export interface DailySchedule<W extends Workflow> {
  hour: number;
  timezone: string;
  action: Omit<ScheduleOptionsStartWorkflowAction<W>, 'type'>;
}

/**
 * Brings the schedule `scheduleId` to `target`: made, or changed to it (the last call wins); without a target removed,
 * if there is one. Answers whether it exists now.
 */
export async function syncDailySchedule<W extends Workflow>(
  client: Client,
  scheduleId: string,
  target: DailySchedule<W> | null,
): Promise<'present' | 'absent'> {
  const handle = client.schedule.getHandle(scheduleId);
  if (!target) {
    try {
      await handle.delete();
    } catch (error) {
      if (!(error instanceof ScheduleNotFoundError)) throw error;
    }
    return 'absent';
  }
  const spec = { calendars: [{ hour: target.hour, minute: 0 }], timezone: target.timezone };
  const action = { type: 'startWorkflow', ...target.action } as ScheduleOptionsStartWorkflowAction<W>;
  try {
    await client.schedule.create({ scheduleId, spec, action, policies: { overlap: ScheduleOverlapPolicy.SKIP } });
  } catch (error) {
    if (!(error instanceof ScheduleAlreadyRunning)) throw error;
    await handle.update((previous) => ({ ...previous, spec, action }));
  }
  return 'present';
}
