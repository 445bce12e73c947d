import { proxyActivities } from '@temporalio/workflow';
import type { DailyReportInput, ReportActivities } from './contracts/reports';

const { sendDailyReportEmail } = proxyActivities<ReportActivities>({
  // Rendering the chart and the report takes a few seconds under load; a lost attempt is retried after this.
  startToCloseTimeout: '1 minute',
  // A relay down for a while must not lose the day's report.
  scheduleToCloseTimeout: '1 day',
  retry: { initialInterval: '2 seconds', backoffCoefficient: 2, maximumInterval: '10 minutes' },
});

/** E-mails a day's report to the hotel's managers with retries; answers how many were sent. */
export async function dailyReport(input: DailyReportInput): Promise<number> {
  return sendDailyReportEmail(input);
}
