import { ActivityFailure, ApplicationFailure, proxyActivities, setHandler } from '@temporalio/workflow';
import {
  nightAuditScheduleSignal,
  type NightAuditActivities,
  type NightAuditInput,
  type NightAuditResult,
} from './contracts/night-audit';

// An attempt lost with its worker is tried again after a minute: each step of a 200-room hotel takes seconds.
const audit = proxyActivities<NightAuditActivities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '2 seconds', backoffCoefficient: 2, maximumInterval: '1 minute', maximumAttempts: 6 },
});

/** The failure's own words, for the managers. */
function reasonOf(error: unknown): string {
  const cause = error instanceof ActivityFailure ? error.cause : error;
  return cause instanceof Error ? cause.message : String(cause);
}

/**
 * Closes one business day of a hotel: its nights posted, its no-shows handled, stayover rooms marked for cleaning,
 * the day closed, its statistics written once, the managers sent the daily report. Each step is an idempotent
 * activity, retried; a step that keeps failing ends the run, the managers told.
 */
export async function nightAudit(input: NightAuditInput): Promise<NightAuditResult> {
  const date = await audit.beginNightAudit(input);
  const result: NightAuditResult = {
    businessDate: date,
    nightsPosted: 0,
    noShows: 0,
    roomsMarked: 0,
    dayClosed: 0,
    snapshots: 0,
    reportsSent: 0,
  };
  if (!date) return result;
  const { hotelId } = input;
  try {
    result.nightsPosted = await audit.postAuditNights(hotelId, date);
    result.noShows = await audit.cancelAuditNoShows(hotelId, date);
    result.roomsMarked = await audit.markAuditStayovers(hotelId, date);
    result.dayClosed = await audit.closeAuditDay(hotelId, date);
    result.snapshots = await audit.writeAuditSnapshot(hotelId, date);
    result.reportsSent = await audit.sendAuditReport(hotelId, date);
  } catch (error) {
    await audit.failNightAudit(hotelId, date, reasonOf(error));
    throw ApplicationFailure.nonRetryable(`night audit of ${date} failed: ${reasonOf(error)}`, 'NightAuditFailed');
  }
  await audit.finishNightAudit(hotelId, date);
  return result;
}

/**
 * Brings the hotel's audit schedule to its settings, again for each change signalled while it runs (a change after it
 * ends starts a new run): the last settings always win.
 */
export async function nightAuditSchedule(hotelId: string): Promise<void> {
  let pending = true;
  setHandler(nightAuditScheduleSignal, () => {
    pending = true;
  });
  while (pending) {
    pending = false;
    await audit.syncNightAuditSchedule(hotelId);
  }
}
