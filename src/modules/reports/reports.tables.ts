import { touristTaxRows, type MonthReport } from '../tourist-tax';
import type { ReportsService } from './reports.service';
import type { ColumnType, ReportTable } from './reports.types';

type Rows = readonly object[];

/** The reports' columns that are not text: money, counts and calendar dates (a spreadsheet types cells by these). */
const COLUMN_TYPES: Record<string, ColumnType> = Object.fromEntries([
  ...[
    'room_revenue',
    'room_discounts',
    'adr',
    'revpar',
    'day_use_revenue',
    'revenue',
    'discounts',
    'pickup_revenue',
    'last_year_revenue',
    'received',
    'refunded',
    'removed',
    'net',
    'price',
    'base',
    'tax',
  ].map((key) => [key, 'money'] as const),
  ...[
    'rooms_available',
    'rooms_out_of_order',
    'rooms_sold',
    'occupancy',
    'day_use_stays',
    'nights',
    'rooms',
    'pickup_rooms',
    'last_year_rooms',
    'rooms_vs_last_year',
    'payments',
    'guests_count',
    'count',
  ].map((key) => [key, 'number'] as const),
  ...['period', 'from', 'to', 'date', 'last_year_date', 'check_in', 'check_out'].map((key) => [key, 'date'] as const),
]);

/** A table of the rows' `keys` (the column's type by its key, text unless listed above). */
function table(name: string, rows: Rows, keys: string[]): ReportTable {
  return {
    name,
    columns: keys.map((key) => ({ key, header: key, type: COLUMN_TYPES[key] ?? 'text' })),
    rows: rows.map((row) =>
      Object.fromEntries(
        keys.map((key) => [key, ((row as Record<string, unknown>)[key] ?? null) as string | number | null]),
      ),
    ),
  };
}

const keysOf = (rows: Rows, fallback: string[]) => (rows.length > 0 ? Object.keys(rows[0]) : fallback);

export const reportTables = {
  performance: (periods: Awaited<ReturnType<ReportsService['performance']>>) =>
    table('performance', periods, [
      'period',
      'from',
      'to',
      'rooms_available',
      'rooms_out_of_order',
      'rooms_sold',
      'occupancy',
      'room_revenue',
      'adr',
      'revpar',
      'day_use_stays',
      'day_use_revenue',
    ]),
  revenue: (by: string, groups: Rows) =>
    table(`revenue by ${by}`, groups, ['key', 'name', 'nights', 'day_use_stays', 'revenue']),
  generic: (name: string, rows: Rows, fallback: string[]) => table(name, rows, keysOf(rows, fallback)),
  stays(lists: Awaited<ReturnType<ReportsService['stays']>>): ReportTable[] {
    const keys = [
      'list',
      'booking_id',
      'room',
      'kind',
      'status',
      'guest',
      'guests_count',
      'check_in',
      'check_out',
      'price',
    ];
    const named = (list: string, rows: Rows) => rows.map((row) => ({ list, ...row }));
    const all = [
      ...named('arrivals', lists.arrivals),
      ...named('departures', lists.departures),
      ...named('in_house', lists.in_house),
    ];
    return [
      table(`stays ${lists.date}`, all, keys),
      table('arrivals', named('arrivals', lists.arrivals), keys),
      table('departures', named('departures', lists.departures), keys),
      table('in house', named('in_house', lists.in_house), keys),
    ];
  },
  /** The tourist tax module's own table of its report (the one its CSV is), not built again here. */
  touristTax(report: MonthReport): ReportTable[] {
    const [keys, ...rows] = touristTaxRows(report);
    const records = rows.map((row) => Object.fromEntries(keys.map((key, i) => [key, row[i]])));
    return [table(`tourist tax ${report.month}`, records, keys)];
  },
};
