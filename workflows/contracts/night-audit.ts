import { defineSignal } from '@temporalio/workflow';

/** The night audit's contract, imported by the night-audit module (which implements the activities) and its workflows. */

export interface NightAuditInput {
  hotelId: string;
  /** The business date to audit; a scheduled run has none and audits the day ready to close, if it has ended. */
  businessDate?: string;
}

/** What each step changed (rows written): a re-run of a closed day changes nothing, every figure 0. */
export interface NightAuditResult {
  /** The (last) day audited, or null: none. */
  businessDate: string | null;
  nightsPosted: number;
  noShows: number;
  roomsMarked: number;
  dayClosed: number;
  snapshots: number;
  reportsSent: number;
}

export interface NightAuditActivities {
  /** The day this run audits (and its run recorded as going on), or null: nothing to audit now, or the hotel is gone. */
  beginNightAudit(input: NightAuditInput): Promise<string | null>;
  /** Each in-house stay's room night and tourist tax of the day, once (lines created). */
  postAuditNights(hotelId: string, date: string): Promise<number>;
  /** The day's no-shows, by the hotel's no-show rules (bookings cancelled). */
  cancelAuditNoShows(hotelId: string, date: string): Promise<number>;
  /** The rooms of stays going on past the day, shown clean, marked dirty for their daily clean. */
  markAuditStayovers(hotelId: string, date: string): Promise<number>;
  /** Closes the business day (1), or nothing when it is closed already (0). */
  closeAuditDay(hotelId: string, date: string): Promise<number>;
  /** The day's statistics, written once (1), or nothing when they exist (0). */
  writeAuditSnapshot(hotelId: string, date: string): Promise<number>;
  /**
   * The daily report to the managers, each once (e-mails sent); a recipient refused is recorded on the run and left
   * out, one the relay could not take now fails the attempt after the others (retried; those sent stay sent).
   */
  sendAuditReport(hotelId: string, date: string): Promise<number>;
  /** The run recorded as done. */
  finishNightAudit(hotelId: string, date: string): Promise<void>;
  /** The run recorded as failed (the day named, or the one this workflow holds if null) and the managers told. */
  failNightAudit(hotelId: string, date: string | null, reason: string): Promise<void>;
  /** Brings the hotel's Temporal schedule to its settings: made or changed, or removed (audit off, hotel gone). */
  syncNightAuditSchedule(hotelId: string): Promise<'present' | 'absent'>;
}

export const nightAuditScheduleSignal = defineSignal('syncSchedule');

export const nightAuditIds = {
  schedule: (hotelId: string) => `night-audit:${hotelId}`,
  scheduleSync: (hotelId: string) => `night-audit-schedule:${hotelId}`,
};

export type NightAuditWorkflow = (input: NightAuditInput) => Promise<NightAuditResult>;
export type NightAuditScheduleWorkflow = (hotelId: string) => Promise<void>;
