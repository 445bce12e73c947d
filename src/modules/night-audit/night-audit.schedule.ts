import {
  ScheduleAlreadyRunning,
  ScheduleNotFoundError,
  ScheduleOverlapPolicy,
  type Client,
  type ScheduleOptionsStartWorkflowAction,
} from '@temporalio/client';
import { searchAttributeKeys } from '../../platform/temporal/client';
import { nightAuditIds, type NightAuditWorkflow } from '../../../workflows/contracts/night-audit';

/** What a hotel's audit schedule is made from: the hour of its own clock, its zone, its slug (for the Web UI). */
export interface ScheduleTarget {
  hotelId: string;
  slug: string;
  hour: number;
  timezone: string;
}

/**
 * Brings the hotel's schedule to `target`: made, or changed to it (the last settings win); without a target (the audit
 * off, the hotel gone) removed, if there is one. Its runs carry the hotel's `HotelSlug`, and a run still going when
 * the next is due makes that one skip.
 */
export async function syncAuditSchedule(
  client: Client,
  taskQueue: string,
  hotelId: string,
  target: ScheduleTarget | null,
): Promise<'present' | 'absent'> {
  const scheduleId = nightAuditIds.schedule(hotelId);
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
  const action: ScheduleOptionsStartWorkflowAction<NightAuditWorkflow> = {
    type: 'startWorkflow',
    workflowType: 'nightAudit',
    taskQueue,
    workflowId: scheduleId,
    args: [{ hotelId }],
    typedSearchAttributes: [{ key: searchAttributeKeys.HotelSlug, value: target.slug }],
  };
  try {
    await client.schedule.create({ scheduleId, spec, action, policies: { overlap: ScheduleOverlapPolicy.SKIP } });
  } catch (error) {
    if (!(error instanceof ScheduleAlreadyRunning)) throw error;
    await handle.update((previous) => ({ ...previous, spec, action }));
  }
  return 'present';
}
