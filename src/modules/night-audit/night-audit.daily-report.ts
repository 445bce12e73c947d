import type { Db } from '../../platform/db/knex';
import { sendClaimed } from '../../platform/db/mail-claims';
import { escapeHtml, PermanentMailError, type MailMessage, type Mailer } from '../../platform/mail';
import type { HotelsService } from '../hotels';
import type { NotificationsService } from '../notifications';
import { runsRepository, snapshotsRepository } from './night-audit.repository';
import type { AuditSnapshot } from './night-audit.types';

const ROWS: [keyof AuditSnapshot, string][] = [
  ['rooms', 'Номеров в отеле'],
  ['out_of_order', 'Не в продаже'],
  ['available', 'Доступно'],
  ['sold', 'Продано'],
  ['occupancy', 'Загрузка'],
  ['room_revenue', 'Доход от номеров, ₽'],
  ['adr', 'ADR, ₽'],
  ['revpar', 'RevPAR, ₽'],
  ['arrivals', 'Заезды'],
  ['departures', 'Выезды'],
  ['no_shows', 'Незаезды'],
  ['tourist_tax', 'Туристический налог, ₽'],
];

function reportOf(hotelName: string, snapshot: AuditSnapshot): Omit<MailMessage, 'to'> {
  const cell = (key: keyof AuditSnapshot) => String(snapshot[key]);
  const subject = `${hotelName}: итоги дня ${snapshot.business_date}`;
  const rows = ROWS.map(([key, label]) => `<tr><th align="left">${label}</th><td>${escapeHtml(cell(key))}</td></tr>`);
  return {
    subject,
    text: [subject, ...ROWS.map(([key, label]) => `${label}: ${cell(key)}`)].join('\n'),
    html: `<h1>${escapeHtml(subject)}</h1><table border="1" cellpadding="4">${rows.join('')}</table>`,
  };
}

/** The roles the daily report goes to: the hotel's owner and its managers. */
const REPORT_ROLES = ['hotel_admin', 'manager'] as const;

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * The daily report of a closed day to the hotel's active owner and managers (a table of its snapshot), each e-mail at
 * most once (claimed before it is sent). A recipient that fails does not stop the others: the failures are recorded on
 * the day's run; a relay refusing an address for good is left at that, any other failure fails the attempt once all
 * were tried (its retry sends only what is still unsent). One function for the reports module to replace.
 */
export function createDailyReport(deps: {
  db: Db;
  mailer: Mailer;
  hotels: Pick<HotelsService, 'find'>;
  notifications: Pick<NotificationsService, 'staffOf'>;
}) {
  return async function sendDailyReport(hotelId: string, date: string): Promise<number> {
    const [snapshot, hotel] = await Promise.all([
      snapshotsRepository.find(deps.db, hotelId, date),
      deps.hotels.find(hotelId),
    ]);
    if (!snapshot || !hotel) return 0;
    const report = reportOf(hotel.name, snapshot);
    let sent = 0;
    const failures: string[] = [];
    let retry = false;
    for (const manager of await deps.notifications.staffOf(hotelId, REPORT_ROLES)) {
      const key = `night-audit-report:${hotelId}:${date}:${manager.id}`;
      try {
        const outcome = await sendClaimed(
          deps.db,
          key,
          () => deps.mailer.send({ ...report, to: manager.email }),
          'skip',
        );
        if (outcome === 'busy') throw new Error('being sent by another attempt');
        if (outcome === 'sent') sent += 1;
      } catch (error) {
        failures.push(`${manager.email}: ${messageOf(error)}`);
        retry ||= !(error instanceof PermanentMailError);
      }
    }
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
