import type { Db, DbOrTrx } from '../../platform/db/knex';
import { enqueueOutbox, startWorkflowMessage } from '../../platform/db/outbox';
import { BusinessRuleError, NotFoundError } from '../../platform/errors';
import { daysBetween } from '../../platform/http/schemas';
import { addDays } from '../../platform/dates';
import { formatMoney, parseMoney } from '../../platform/money';
import type { DailyReportWorkflow } from '../../../workflows/contracts/reports';
import { hotelToday } from '../bookings';
import type { HotelsService } from '../hotels';
import type { TouristTaxService } from '../tourist-tax';
import { reportsRepository } from './reports.repository';
import { bookedByNight, percent, performance } from './reports.rules';
import { MAX_RANGE_DAYS, type Granularity, type NightsOfDay, type Range, type RevenueGroup } from './reports.types';

export interface ReportsDependencies {
  hotels: Pick<HotelsService, 'find'>;
  touristTax: Pick<TouristTaxService, 'report'>;
}

export const reportMessages = {
  backwards: 'Конец периода раньше его начала',
  tooLong: (days: number) => `Период отчёта не длиннее ${days} дней`,
  hotelNotFound: 'Отель не найден',
};

/** The same day last year: 364 days back, the same weekday. */
const LAST_YEAR = 364;

function assertRange({ from, to }: Range): void {
  if (to < from) throw new BusinessRuleError(reportMessages.backwards, ['to'], 'report_range');
  if (daysBetween(from, to) + 1 > MAX_RANGE_DAYS)
    throw new BusinessRuleError(reportMessages.tooLong(MAX_RANGE_DAYS), ['to'], 'report_range');
}

/** The hotel's reports: read from its folio lines and stays (docs/decisions/reports.md); nothing here writes. */
export function createReportsService(db: Db, deps: ReportsDependencies) {
  async function hotelOf(hotelId: string) {
    const hotel = await deps.hotels.find(hotelId);
    if (!hotel) throw new NotFoundError(reportMessages.hotelNotFound);
    return hotel;
  }

  /**
   * A report's queries, one after another in one read-only REPEATABLE READ transaction: one connection of the pool
   * and one snapshot, so its figures agree with each other.
   */
  const reading = <T>(work: (trx: DbOrTrx) => Promise<T>): Promise<T> =>
    db.transaction(work, { isolationLevel: 'repeatable read', readOnly: true });

  async function performanceOf(trx: DbOrTrx, hotelId: string, range: Range, granularity: Granularity) {
    assertRange(range);
    const days = await reportsRepository.capacity(trx, hotelId, range);
    const byDay = new Map<string, Partial<NightsOfDay>>();
    for (const sold of await reportsRepository.nightsSold(trx, hotelId, range)) byDay.set(sold.date, sold);
    for (const revenue of await reportsRepository.revenue(trx, hotelId, range))
      byDay.set(revenue.date, { ...byDay.get(revenue.date), ...revenue });
    return performance(days, byDay, granularity);
  }

  /** Rooms and revenue on the books for each night of the range, as now and as at `asOf`. */
  async function onTheBooks(trx: DbOrTrx, hotelId: string, range: Range, asOf: Date, timeZone: string) {
    const stays = await reportsRepository.bookedAt(trx, hotelId, range, asOf, timeZone);
    return bookedByNight(stays, range.from, range.to);
  }

  async function forward(trx: DbOrTrx, hotelId: string, range: Range, pickupDays: number, timeZone: string) {
    assertRange(range);
    const now = new Date();
    const lastYear = { from: addDays(range.from, -LAST_YEAR), to: addDays(range.to, -LAST_YEAR) };
    const days = await reportsRepository.capacity(trx, hotelId, range);
    const current = await onTheBooks(trx, hotelId, range, now, timeZone);
    const before = await onTheBooks(trx, hotelId, range, new Date(now.getTime() - pickupDays * 86_400_000), timeZone);
    const stly = await onTheBooks(trx, hotelId, lastYear, new Date(now.getTime() - LAST_YEAR * 86_400_000), timeZone);
    return days.map((day) => {
      const held = current.get(day.date)!;
      const earlier = before.get(day.date)!;
      const lastYearDate = addDays(day.date, -LAST_YEAR);
      const then = stly.get(lastYearDate)!;
      const available = day.rooms - day.out_of_order;
      return {
        date: day.date,
        rooms_available: available,
        rooms: held.rooms,
        occupancy: percent(held.rooms, available),
        revenue: formatMoney(held.revenue),
        pickup_rooms: held.rooms - earlier.rooms,
        pickup_revenue: formatMoney(held.revenue - earlier.revenue),
        last_year_date: lastYearDate,
        last_year_rooms: then.rooms,
        last_year_revenue: formatMoney(then.revenue),
        rooms_vs_last_year: held.rooms - then.rooms,
      };
    });
  }

  async function stayLists(trx: DbOrTrx, hotelId: string, date: string, timeZone: string) {
    const list = (name: 'arrivals' | 'departures' | 'in_house') =>
      reportsRepository.stays(trx, hotelId, date, name, timeZone);
    return {
      date,
      arrivals: await list('arrivals'),
      departures: await list('departures'),
      in_house: await list('in_house'),
    };
  }

  /**
   * E-mails the daily report of `date` to the hotel's owner and managers on staff's request (the night audit sends it
   * by its own step, `mailDailyReport`). It is sent by a workflow through the outbox, once per `key`.
   */
  async function sendDailyReport(hotelId: string, date: string, key: string) {
    const hotel = await hotelOf(hotelId);
    const workflowId = `daily-report:${hotelId}:${date}:${key}`;
    await enqueueOutbox(
      db,
      startWorkflowMessage<DailyReportWorkflow>('dailyReport', workflowId, [{ hotelId, date, key }], {
        HotelSlug: hotel.slug,
      }),
    );
    return { workflow_id: workflowId };
  }

  /** The day's figures, and the last 30 days' and next 30 nights' for the chart, from one snapshot. */
  async function daily(hotelId: string, date: string) {
    const hotel = await hotelOf(hotelId);
    const day = { from: date, to: date };
    const read = await reading(async (trx) => ({
      byCategory: await reportsRepository.revenueBy(trx, hotelId, day, 'category'),
      payments: await reportsRepository.payments(trx, hotelId, day),
      stays: await reportsRepository.stayCounts(trx, hotelId, date, hotel.timezone),
      history: await performanceOf(trx, hotelId, { from: addDays(date, -29), to: date }, 'day'),
      ahead: await forward(trx, hotelId, { from: addDays(date, 1), to: addDays(date, 30) }, 1, hotel.timezone),
    }));
    const methods = new Map<string, bigint>();
    for (const row of read.payments) methods.set(row.method, (methods.get(row.method) ?? 0n) + parseMoney(row.net));
    return {
      hotel: { name: hotel.name, slug: hotel.slug },
      date,
      today: hotelToday(hotel.timezone),
      // The day is the last of the 30 the chart shows: its figures are that row, not read again.
      figures: read.history.at(-1)!,
      revenue_by_category: read.byCategory,
      payments_by_method: [...methods].map(([method, net]) => ({ method, net: formatMoney(net) })),
      ...read.stays,
      history: read.history.map(({ period, occupancy, adr }) => ({ date: period, occupancy, adr })),
      on_the_books: read.ahead.map(({ date: night, occupancy, rooms }) => ({ date: night, occupancy, rooms })),
    };
  }

  return {
    performance: (hotelId: string, range: Range, granularity: Granularity) =>
      reading((trx) => performanceOf(trx, hotelId, range, granularity)),

    async onTheBooks(hotelId: string, range: Range, pickupDays: number) {
      assertRange(range);
      const { timezone } = await hotelOf(hotelId);
      return reading((trx) => forward(trx, hotelId, range, pickupDays, timezone));
    },

    async stays(hotelId: string, date: string) {
      const { timezone } = await hotelOf(hotelId);
      return reading((trx) => stayLists(trx, hotelId, date, timezone));
    },

    async revenue(hotelId: string, range: Range, group: RevenueGroup) {
      assertRange(range);
      return reading((trx) => reportsRepository.revenueBy(trx, hotelId, range, group));
    },

    async payments(hotelId: string, range: Range) {
      assertRange(range);
      return reading((trx) => reportsRepository.payments(trx, hotelId, range));
    },

    async housekeeping(hotelId: string) {
      const rooms = await reportsRepository.housekeeping(db, hotelId);
      const counts = new Map<string, number>();
      for (const room of rooms) counts.set(String(room.status), (counts.get(String(room.status)) ?? 0) + 1);
      return { rooms, by_status: [...counts].map(([status, count]) => ({ status, count })) };
    },

    /** The tourist tax module's monthly report as it is (not computed again here). */
    touristTax: (hotelId: string, month: string) => deps.touristTax.report(hotelId, month),

    daily,

    /**
     * Staff's request to e-mail a date's daily report again: keyed by the hotel's today, so it goes at most once a day
     * per date and recipient however often it is asked (no one's mailbox filled without bound).
     */
    async resendDailyReport(hotelId: string, date: string) {
      const hotel = await hotelOf(hotelId);
      return sendDailyReport(hotelId, date, `request-${hotelToday(hotel.timezone)}`);
    },
  };
}

export type ReportsService = ReturnType<typeof createReportsService>;

export type DailyReport = Awaited<ReturnType<ReportsService['daily']>>;
