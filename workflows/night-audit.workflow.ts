import {
  ActivityFailure,
  ApplicationFailure,
  CancellationScope,
  proxyActivities,
  setHandler,
} from '@temporalio/workflow';
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

// The run's record (done, or failed and the managers told) outlasts an outage of the database: tried for a day.
const record = proxyActivities<NightAuditActivities>({
  startToCloseTimeout: '1 minute',
  scheduleToCloseTimeout: '1 day',
  retry: { initialInterval: '5 seconds', backoffCoefficient: 2, maximumInterval: '10 minutes' },
});

// The daily report, after the day is closed: a relay down for a while delays it, never fails the day.
const report = proxyActivities<NightAuditActivities>({
  startToCloseTimeout: '5 minutes',
  scheduleToCloseTimeout: '6 hours',
  retry: { initialInterval: '10 seconds', backoffCoefficient: 2, maximumInterval: '30 minutes' },
});

/** A scheduled run closes at most this many days that have ended (a hotel catching up); the next run goes on. */
const MAX_DAYS_PER_RUN = 31;

/** The failure's own words, for the managers. */
function reasonOf(error: unknown): string {
  const cause = error instanceof ActivityFailure ? error.cause : error;
  return cause instanceof Error ? cause.message : String(cause);
}

/** One day audited into `result` (its date, or null: nothing to do); a step that keeps failing fails the run. */
async function auditDay(input: NightAuditInput, result: NightAuditResult): Promise<string | null> {
  const { hotelId } = input;
  let date = input.businessDate ?? null;
  try {
    date = await audit.beginNightAudit(input);
    if (!date) return null;
    result.businessDate = date;
    result.nightsPosted += await audit.postAuditNights(hotelId, date);
    result.noShows += await audit.cancelAuditNoShows(hotelId, date);
    result.roomsMarked += await audit.markAuditStayovers(hotelId, date);
    result.dayClosed += await audit.closeAuditDay(hotelId, date);
    result.snapshots += await audit.writeAuditSnapshot(hotelId, date);
    await record.finishNightAudit(hotelId, date);
  } catch (error) {
    // Recorded even when the run is cancelled: a run is never left `running`.
    await CancellationScope.nonCancellable(() => record.failNightAudit(hotelId, date, reasonOf(error)));
    throw ApplicationFailure.nonRetryable(
      `night audit of ${date ?? 'the day'} failed: ${reasonOf(error)}`,
      'NightAuditFailed',
    );
  }
  try {
    result.reportsSent += await report.sendAuditReport(hotelId, date);
  } catch {
    // The recipients it could not reach are recorded on the run by the report itself; the day stays closed.
  }
  return date;
}

/**
 * Closes business days of a hotel: the day named (a run by hand), or each day ended and not closed, one after another
 * (a scheduled run). For each its nights posted, its no-shows handled, stayover rooms marked for cleaning, the day
 * closed, its statistics written once, the run recorded done, then the managers sent the daily report. Each step is
 * an idempotent activity, retried; a step that keeps failing ends the run, recorded failed and the managers told.
 */
export async function nightAudit(input: NightAuditInput): Promise<NightAuditResult> {
  const result: NightAuditResult = {
    businessDate: null,
    nightsPosted: 0,
    noShows: 0,
    roomsMarked: 0,
    dayClosed: 0,
    snapshots: 0,
    reportsSent: 0,
  };
  for (let day = 0; day < MAX_DAYS_PER_RUN; day += 1) {
    const date = await auditDay(input, result);
    if (!date || input.businessDate) break;
  }
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
