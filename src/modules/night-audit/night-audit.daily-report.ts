import type { Db } from '../../platform/db/knex';
import type { Mailer } from '../../platform/mail';
import type { HotelsService } from '../hotels';
import type { NotificationsService } from '../notifications';
import { mailDailyReport, type ReportsService } from '../reports';
import { runsRepository, snapshotsRepository } from './night-audit.repository';

/**
 * The daily report of a closed day (the reports module's e-mail: its figures and chart) to the hotel's active owner
 * and managers, each e-mail at most once (claimed before it is sent). A recipient that fails does not stop the others: the failures are recorded on
 * the day's run; a relay refusing an address for good is left at that, any other failure fails the attempt once all
 * were tried (its retry sends only what is still unsent).
 */
export function createDailyReport(deps: {
  db: Db;
  mailer: Mailer;
  hotels: Pick<HotelsService, 'find'>;
  notifications: Pick<NotificationsService, 'staffOf'>;
  reports: Pick<ReportsService, 'daily'>;
}) {
  return async function sendDailyReport(hotelId: string, date: string): Promise<number> {
    const [closed, hotel] = await Promise.all([
      snapshotsRepository.exists(deps.db, hotelId, date),
      deps.hotels.find(hotelId),
    ]);
    if (!closed || !hotel) return 0;
    const { sent, failures, retry } = await mailDailyReport(
      deps,
      hotelId,
      date,
      (managerId) => `night-audit-report:${hotelId}:${date}:${managerId}`,
      'skip',
    );
    await runsRepository.noteReport(
      deps.db,
      hotelId,
      date,
      failures.length > 0 ? failures.join('; ').slice(0, 2000) : null,
    );
    if (retry) throw new Error(`the daily report of ${date} did not reach: ${failures.join('; ')}`);
    return sent;
  };
}
