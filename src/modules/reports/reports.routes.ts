import type Joi from 'joi';
import { defineHotelRoute, type RouteDefinition } from '../../platform/http/route';
import { HOTEL_MANAGEMENT, type Role } from '../../platform/http/roles';
import { MONEY_DESK } from '../payments';
import { TOURIST_TAX_REPORT_READERS, touristTaxReportSchema } from '../tourist-tax';
import { slugParams } from '../../platform/http/schemas';
import { dailyPdf } from './reports.daily';
import { REPORT_MEDIA, sendReport } from './reports.formats';
import * as schemas from './reports.schemas';
import type { ReportsService } from './reports.service';
import { reportTables } from './reports.tables';
import type { Format, Granularity, Range, RevenueGroup } from './reports.types';

/** The money reports: the owner, the managers and the accountant (those of the tourist tax report). */
const MONEY_REPORTS = TOURIST_TAX_REPORT_READERS;
/** Who comes and goes: the desk too (those of the cash desk). */
const DESK_LISTS = MONEY_DESK;
/** The rooms' cleaning status: the desk and housekeeping. */
const HOUSEKEEPING_READERS: readonly Role[] = ['hotel_admin', 'manager', 'receptionist', 'housekeeper'];

const tags = ['Reports'];
const base = '/api/hotels/:slug/reports';
const formats = 'As JSON, CSV or XLSX (`format`; see docs/decisions/reports.md for the definitions).';
const ok = (description: string, schema: Joi.Schema) => ({ 200: { description, schema, media: REPORT_MEDIA } });
const badRange = { 422: { description: 'A range backwards or longer than 731 days' } };

type RangeQuery = Range & { format: Format };

export function reportsRoutes(reports: ReportsService): RouteDefinition[] {
  return [
    defineHotelRoute<unknown, RangeQuery & { granularity: Granularity }>({
      method: 'get',
      path: `${base}/performance`,
      summary: 'Occupancy, ADR and RevPAR by day, week or month',
      description: `Rooms sold (night stays' room-night lines), available (rooms less those out of order), room revenue, occupancy, ADR and RevPAR; day-use stays apart. ${formats}`,
      tags,
      access: { kind: 'hotel', roles: MONEY_REPORTS },
      request: { params: slugParams, query: schemas.performanceQuery },
      responses: { ...ok('The periods', schemas.performanceSchema), ...badRange },
      async handler({ hotel, query, res }) {
        const periods = await reports.performance(hotel.id, query, query.granularity);
        await sendReport(res, query.format, `performance-${query.from}-${query.to}`, {
          json: { periods },
          tables: [reportTables.performance(periods)],
        });
      },
    }),
    defineHotelRoute<unknown, RangeQuery & { by: RevenueGroup }>({
      method: 'get',
      path: `${base}/revenue`,
      summary: 'Room revenue by category, source or tariff',
      description: `The room revenue of the range (day use included) and the nights sold, by the stays' ${'`by`'}. ${formats}`,
      tags,
      access: { kind: 'hotel', roles: MONEY_REPORTS },
      request: { params: slugParams, query: schemas.revenueQuery },
      responses: { ...ok('The groups', schemas.revenueSchema), ...badRange },
      async handler({ hotel, query, res }) {
        const groups = await reports.revenue(hotel.id, query, query.by);
        await sendReport(res, query.format, `revenue-${query.by}-${query.from}-${query.to}`, {
          json: { by: query.by, groups },
          tables: [reportTables.revenue(query.by, groups)],
        });
      },
    }),
    defineHotelRoute<unknown, RangeQuery & { pickup_days: number }>({
      method: 'get',
      path: `${base}/on-the-books`,
      summary: 'On the books and pickup, against the same day last year',
      description: `Per night: rooms and revenue on the books now, their change over the last ${'`pickup_days`'}, and what was on the books for the same weekday 364 days earlier at the same time before it. ${formats}`,
      tags,
      access: { kind: 'hotel', roles: MONEY_REPORTS },
      request: { params: slugParams, query: schemas.onTheBooksQuery },
      responses: { ...ok('The nights', schemas.onTheBooksSchema), ...badRange },
      async handler({ hotel, query, res }) {
        const nights = await reports.onTheBooks(hotel.id, query, query.pickup_days);
        await sendReport(res, query.format, `on-the-books-${query.from}-${query.to}`, {
          json: { nights },
          tables: [reportTables.generic('on the books', nights, ['date'])],
        });
      },
    }),
    defineHotelRoute<unknown, { date: string; format: Format }>({
      method: 'get',
      path: `${base}/stays`,
      summary: 'Arrivals, departures and in-house stays of a date',
      description: `Confirmed, checked-in and checked-out stays arriving, leaving or staying the night of ${'`date`'}. ${formats}`,
      tags,
      access: { kind: 'hotel', roles: DESK_LISTS },
      request: { params: slugParams, query: schemas.dateQuery },
      responses: ok('The lists', schemas.staysSchema),
      async handler({ hotel, query, res }) {
        const lists = await reports.stays(hotel.id, query.date);
        await sendReport(res, query.format, `stays-${query.date}`, { json: lists, tables: reportTables.stays(lists) });
      },
    }),
    defineHotelRoute<unknown, { format: Format }>({
      method: 'get',
      path: `${base}/housekeeping`,
      summary: "The rooms' housekeeping status now",
      description: `Every room's status and whether it is occupied, and the count per status. ${formats}`,
      tags,
      access: { kind: 'hotel', roles: HOUSEKEEPING_READERS },
      request: { params: slugParams, query: schemas.formatQuery },
      responses: ok('The rooms', schemas.housekeepingSchema),
      async handler({ hotel, query, res }) {
        const status = await reports.housekeeping(hotel.id);
        await sendReport(res, query.format, 'housekeeping', {
          json: status,
          tables: [
            reportTables.generic('rooms', status.rooms, ['room_id', 'room', 'category', 'status', 'occupied']),
            reportTables.generic('by status', status.by_status, ['status', 'count']),
          ],
        });
      },
    }),
    defineHotelRoute<unknown, RangeQuery>({
      method: 'get',
      path: `${base}/payments`,
      summary: 'Payments by day, method and staff member (the shift report)',
      description: `From the folio's payment and refund lines and their corrections: money received (positive), given back and removed, and the net, per business date, method and the staff member who took it. ${formats}`,
      tags,
      access: { kind: 'hotel', roles: MONEY_REPORTS },
      request: { params: slugParams, query: schemas.rangeQuery },
      responses: { ...ok('The rows', schemas.paymentsSchema), ...badRange },
      async handler({ hotel, query, res }) {
        const rows = await reports.payments(hotel.id, query);
        await sendReport(res, query.format, `payments-${query.from}-${query.to}`, {
          json: { rows },
          tables: [reportTables.generic('payments', rows, ['date', 'method', 'staff_id', 'staff_name', 'net'])],
        });
      },
    }),
    defineHotelRoute<unknown, { month: string; format: Format }>({
      method: 'get',
      path: `${base}/tourist-tax`,
      summary: 'The tourist tax of a month',
      description: `The tourist tax module's monthly report (GET …/tourist-tax/report), as it is. ${formats}`,
      tags,
      access: { kind: 'hotel', roles: MONEY_REPORTS },
      request: { params: slugParams, query: schemas.monthQuery },
      responses: ok('The month', touristTaxReportSchema),
      async handler({ hotel, query, res }) {
        const report = await reports.touristTax(hotel.id, query.month);
        await sendReport(res, query.format, `tourist-tax-${query.month}`, {
          json: report,
          tables: reportTables.touristTax(report),
        });
      },
    }),
    defineHotelRoute<unknown, { date: string; format: 'json' | 'pdf' }>({
      method: 'get',
      path: `${base}/daily`,
      summary: 'The daily report',
      description:
        "A business date's figures (occupancy, ADR, RevPAR, revenue by category, payments by method, arrivals, " +
        'departures, in house) and the last 30 days and next 30 nights the chart shows; as JSON or PDF (`format`).',
      tags,
      access: { kind: 'hotel', roles: MONEY_REPORTS },
      request: { params: slugParams, query: schemas.dailyQuery },
      responses: { 200: { description: 'The report', schema: schemas.dailySchema, media: ['application/pdf'] } },
      async handler({ hotel, query, res }) {
        const report = await reports.daily(hotel.id, query.date);
        if (query.format === 'json') {
          res.json(report);
          return;
        }
        res.set('Content-Disposition', `attachment; filename="daily-${query.date}.pdf"`);
        res.type('application/pdf').send(await dailyPdf(report));
      },
    }),
    defineHotelRoute<{ date: string }>({
      method: 'post',
      path: `${base}/daily/send`,
      summary: 'E-mail the daily report now',
      description:
        "Sends the date's daily report with its chart to the hotel's owner and managers, within seconds; at most once a " +
        'day per date and recipient (asked again the same day, it answers the same workflow and sends nothing more).',
      tags,
      access: { kind: 'hotel', roles: HOTEL_MANAGEMENT },
      request: { params: slugParams, body: schemas.sendDailyBody },
      responses: { 202: { description: 'Being sent', schema: schemas.sentSchema } },
      async handler({ hotel, body, res }) {
        res.status(202).json(await reports.resendDailyReport(hotel.id, body.date));
      },
    }),
  ];
}
