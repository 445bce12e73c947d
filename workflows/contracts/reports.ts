/**
 * The daily report's contract: what the reports module starts (through the outbox) and the activity it implements.
 * Both sides import this file; neither imports the other.
 */
export interface DailyReportInput {
  hotelId: string;
  /** The business date reported, `YYYY-MM-DD`. */
  date: string;
  /** What asked for it (`audit`, or a staff request's key): one e-mail per date and key. */
  key: string;
}

export interface ReportActivities {
  /** Renders the day's report and chart and e-mails it to the hotel's owner and managers, once per input. */
  sendDailyReportEmail(input: DailyReportInput): Promise<number>;
}

export type DailyReportWorkflow = (input: DailyReportInput) => Promise<number>;
