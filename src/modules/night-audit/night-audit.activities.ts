import { Context, getClient } from '@temporalio/activity';
import type { WorkerContext } from '../../platform/modules';
import type { NightAuditActivities } from '../../../workflows/contracts/night-audit';
import { createDailyReport } from './night-audit.daily-report';
import { syncAuditSchedule } from './night-audit.schedule';
import type { NightAuditDependencies, NightAuditService } from './night-audit.service';

const workflowId = () => Context.current().info.workflowExecution!.workflowId;

/** The night audit workflows' activities: thin calls into the service, its steps and the daily report. */
export function nightAuditActivities(
  audit: NightAuditService,
  { db, mailer }: WorkerContext,
  deps: NightAuditDependencies,
): NightAuditActivities {
  const sendDailyReport = createDailyReport({ db, mailer, ...deps });
  const { steps } = audit;
  const syncSchedule = async (hotelId: string) =>
    syncAuditSchedule(getClient(), Context.current().info.taskQueue, hotelId, await audit.scheduleTarget(hotelId));
  return {
    // A scheduled run first brings its schedule to the hotel as it is now: its time zone changed, its audit turned
    // off, the hotel gone (the schedule then removed).
    async beginNightAudit({ hotelId, businessDate }) {
      if (!businessDate) await syncSchedule(hotelId);
      return audit.begin(hotelId, workflowId(), businessDate);
    },
    postAuditNights: (hotelId, date) => steps.postNights(hotelId, date),
    cancelAuditNoShows: (hotelId, date) => steps.cancelNoShows(hotelId, date),
    markAuditStayovers: (hotelId, date) => steps.markStayovers(hotelId, date),
    closeAuditDay: (hotelId, date) => steps.closeDay(hotelId, date),
    writeAuditSnapshot: (hotelId, date) => steps.writeSnapshot(hotelId, date),
    sendAuditReport: (hotelId, date) => sendDailyReport(hotelId, date),
    finishNightAudit: (hotelId, date) => audit.finish(hotelId, date, workflowId()),
    failNightAudit: (hotelId, date, reason) => audit.fail(hotelId, date, workflowId(), reason),
    syncNightAuditSchedule: (hotelId) => syncSchedule(hotelId),
  };
}
