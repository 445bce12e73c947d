import { ApplicationFailure } from '@temporalio/activity';
import type { ReportActivities } from '../../../workflows/contracts/reports';
import type { WorkerContext } from '../../platform/modules';
import type { NotificationsService } from '../notifications';
import { mailDailyReport } from './reports.daily-mail';
import type { ReportsService } from './reports.service';

/**
 * The daily report e-mail on request: each recipient's message claimed once per date and key (a retry never sends it
 * twice); an address the relay refuses for good is left at that, any other failure is retried for what is unsent.
 */
export function reportActivities(
  reports: ReportsService,
  { db, mailer }: WorkerContext,
  notifications: Pick<NotificationsService, 'staffOf'>,
): ReportActivities {
  return {
    async sendDailyReportEmail({ hotelId, date, key }) {
      const { sent, failures, retry } = await mailDailyReport(
        { db, mailer, reports, notifications },
        hotelId,
        date,
        (recipientId) => `daily-report:${hotelId}:${date}:${key}:${recipientId}`,
        'send',
      );
      if (retry) throw ApplicationFailure.retryable(`the daily report did not reach: ${failures.join('; ')}`);
      return sent;
    },
  };
}
