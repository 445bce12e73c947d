import type { Db } from '../../platform/db/knex';
import { sendClaimedToEach, type SentToEach, type WhenInDoubt } from '../../platform/db/mail-claims';
import type { Mailer } from '../../platform/mail';
import type { HotelRole, NotificationsService } from '../notifications';
import { dailyEmailOf } from './reports.daily';
import type { ReportsService } from './reports.service';

/** Who the daily report goes to: the hotel's active owner and managers, every one of them. */
const DAILY_REPORT_ROLES: readonly HotelRole[] = ['hotel_admin', 'manager'];

export interface DailyMailDeps {
  db: Db;
  mailer: Mailer;
  reports: Pick<ReportsService, 'daily'>;
  notifications: Pick<NotificationsService, 'staffOf'>;
}

/**
 * The daily report of `date` e-mailed to each of its recipients, its chart rendered once; each e-mail claimed under
 * `keyOf(recipient id)`, so a retry sends only what is still unsent and one recipient's failure stops nobody else's.
 */
export async function mailDailyReport(
  deps: DailyMailDeps,
  hotelId: string,
  date: string,
  keyOf: (recipientId: string) => string,
  whenInDoubt: WhenInDoubt,
): Promise<SentToEach> {
  const [messageTo, recipients] = await Promise.all([
    dailyEmailOf(deps.reports, hotelId, date),
    deps.notifications.staffOf(hotelId, DAILY_REPORT_ROLES),
  ]);
  return sendClaimedToEach(
    deps.db,
    recipients,
    (recipient) => keyOf(recipient.id),
    (recipient) => deps.mailer.send(messageTo(recipient.email)),
    whenInDoubt,
  );
}
