import type { Db } from '../../platform/db/knex';
import { sendClaimed } from '../../platform/db/mail-claims';
import { escapeHtml, type MailMessage, type Mailer } from '../../platform/mail';
import type { HotelsService } from '../hotels';
import { dayRepository, snapshotsRepository } from './night-audit.repository';
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

/**
 * The daily report of a closed day to the hotel's owner and managers (a table of its snapshot), each e-mail at most
 * once (claimed before it is sent). One function for the reports module to replace with its full report.
 */
export function createDailyReport(deps: { db: Db; mailer: Mailer; hotels: Pick<HotelsService, 'find'> }) {
  return async function sendDailyReport(hotelId: string, date: string): Promise<number> {
    const [snapshot, hotel] = await Promise.all([
      snapshotsRepository.find(deps.db, hotelId, date),
      deps.hotels.find(hotelId),
    ]);
    if (!snapshot || !hotel) return 0;
    const report = reportOf(hotel.name, snapshot);
    let sent = 0;
    for (const manager of await dayRepository.managers(deps.db, hotelId)) {
      const key = `night-audit-report:${hotelId}:${date}:${manager.id}`;
      const outcome = await sendClaimed(deps.db, key, () => deps.mailer.send({ ...report, to: manager.email }), 'skip');
      if (outcome === 'busy') throw new Error(`the daily report of ${date} to ${manager.id} is being sent`);
      if (outcome === 'sent') sent += 1;
    }
    return sent;
  };
}
