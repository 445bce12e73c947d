import type { ReportActivities } from '../../../workflows/contracts/reports';
import { sendClaimed } from '../../platform/db/mail-claims';
import { HOTEL_MANAGEMENT } from '../../platform/http/roles';
import type { WorkerContext } from '../../platform/modules';
import { sendingClaimed } from '../../platform/temporal/mail-failures';
import type { UsersService } from '../users';
import { dailyEmailOf } from './reports.daily';
import type { ReportsService } from './reports.service';

/** The daily report e-mail: each recipient's message claimed once per date and key (a retry never sends it twice). */
export function reportActivities(
  reports: ReportsService,
  { db, mailer }: WorkerContext,
  users: Pick<UsersService, 'listInHotel'>,
): ReportActivities {
  return {
    async sendDailyReportEmail({ hotelId, date, key }) {
      const messageTo = await dailyEmailOf(reports, hotelId, date);
      const pages = await Promise.all(
        HOTEL_MANAGEMENT.map((role) => users.listInHotel(hotelId, { role, active: true }, { limit: 100 })),
      );
      let sent = 0;
      for (const user of pages.flatMap((page) => page.items)) {
        const message = messageTo(user.email);
        const outcome = await sendingClaimed(
          () =>
            sendClaimed(db, `daily-report:${hotelId}:${date}:${key}:${user.id}`, () => mailer.send(message), 'send'),
          { type: 'DailyReportBusy', message: 'the daily report e-mail is being sent' },
        );
        if (outcome === 'sent') sent += 1;
      }
      return sent;
    },
  };
}
