import { escapeHtml, type MailMessage } from '../../platform/mail';
import { renderPdf } from '../../platform/pdf';
import { chartPng } from './reports.chart';
import type { DailyReport, ReportsService } from './reports.service';

const CHART_CID = 'daily-chart@reports';

/** The day's key figures, in the order the e-mail and the PDF show them. */
function keyFigures(report: DailyReport): [string, string][] {
  const { figures } = report;
  return [
    ['Номеров в продаже', String(figures.rooms_available)],
    ['Не работают', String(figures.rooms_out_of_order)],
    ['Продано номеров', String(figures.rooms_sold)],
    ['Загрузка, %', figures.occupancy],
    ['Доход от номеров, ₽', figures.room_revenue],
    ['Скидки на проживание, ₽', figures.room_discounts],
    ['ADR, ₽', figures.adr],
    ['RevPAR, ₽', figures.revpar],
    ['Дневное пребывание: заезды / доход, ₽', `${figures.day_use_stays} / ${figures.day_use_revenue}`],
    ['Заезды / выезды / проживают', `${report.arrivals} / ${report.departures} / ${report.in_house}`],
    ...report.payments_by_method.map(({ method, net }): [string, string] => [`Оплаты: ${method}, ₽`, net]),
  ];
}

/**
 * The e-mail: the figures as a table, the chart (`chart`, a PNG rendered once for every recipient) attached inline
 * (by CID, so every mail client shows it).
 */
function dailyEmail(report: DailyReport, chart: Buffer, to: string): MailMessage {
  const title = `${report.hotel.name}: отчёт за ${report.date}`;
  const rows = keyFigures(report)
    .map(([name, value]) => `<tr><td>${escapeHtml(name)}</td><td align="right">${escapeHtml(value)}</td></tr>`)
    .join('');
  const text = keyFigures(report)
    .map(([name, value]) => `${name}: ${value}`)
    .join('\n');
  return {
    to,
    subject: title,
    text: `${title}\n\n${text}\n`,
    html:
      `<!doctype html><html><body><h2>${escapeHtml(title)}</h2><table cellpadding="4">${rows}</table>` +
      `<p><img id="chart" src="cid:${CHART_CID}" width="720" alt="Загрузка и ADR"></p></body></html>`,
    attachments: [{ filename: 'chart.png', content: chart, cid: CHART_CID, contentType: 'image/png' }],
  };
}

/** The daily report e-mail of `date`, its chart rendered once: the message for each recipient. */
export async function dailyEmailOf(
  reports: Pick<ReportsService, 'daily'>,
  hotelId: string,
  date: string,
): Promise<(to: string) => MailMessage> {
  const report = await reports.daily(hotelId, date);
  const chart = await chartPng(report);
  return (to) => dailyEmail(report, chart, to);
}

/** The day's report as a one-page PDF (pdfkit, with the packaged Cyrillic font). */
export function dailyPdf(report: DailyReport): Promise<Buffer> {
  return renderPdf({ title: `Daily report ${report.date}`, margin: 48 }, (doc) => {
    doc.fontSize(16).text(`${report.hotel.name}: отчёт за ${report.date}`).moveDown();
    doc.fontSize(11);
    for (const [name, value] of keyFigures(report)) doc.text(`${name}: ${value}`);
    doc.moveDown().fontSize(13).text('Доход от номеров по категориям').fontSize(11);
    for (const row of report.revenue_by_category) doc.text(`${row.name ?? '—'}: ${row.nights} ноч., ${row.revenue} ₽`);
  });
}
