import { searchAttributeKeys } from '../../platform/temporal/client';
import { syncDailySchedule } from '../../platform/temporal/schedules';
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
  client: Parameters<typeof syncDailySchedule>[0],
  taskQueue: string,
  hotelId: string,
  target: ScheduleTarget | null,
): Promise<'present' | 'absent'> {
  const scheduleId = nightAuditIds.schedule(hotelId);
  return syncDailySchedule<NightAuditWorkflow>(
    client,
    scheduleId,
    target && {
      hour: target.hour,
      timezone: target.timezone,
      action: {
        workflowType: 'nightAudit',
        taskQueue,
        workflowId: scheduleId,
        args: [{ hotelId }],
        typedSearchAttributes: [{ key: searchAttributeKeys.HotelSlug, value: target.slug }],
      },
    },
  );
}
