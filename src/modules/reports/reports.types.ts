/** The longest range a report covers: two years of days (a leap day included). */
export const MAX_RANGE_DAYS = 731;

/** The longest pickup window, in days. */
export const MAX_PICKUP_DAYS = 365;

export const GRANULARITIES = ['day', 'week', 'month'] as const;
export type Granularity = (typeof GRANULARITIES)[number];

export const FORMATS = ['json', 'csv', 'xlsx'] as const;
export type Format = (typeof FORMATS)[number];

export const REVENUE_GROUPS = ['category', 'source', 'tariff'] as const;
export type RevenueGroup = (typeof REVENUE_GROUPS)[number];

export interface Range {
  from: string;
  to: string;
}

/** The rooms sold of a night (by the night the room-night lines name). */
export interface NightsSold {
  date: string;
  rooms_sold: number;
}

/** The room revenue of a business date: night stays' and day use's apart, and the room discounts. */
export interface RevenueOfDay {
  date: string;
  room_revenue: string;
  day_use_stays: number;
  day_use_revenue: string;
  room_discounts: string;
}

/** What the folio lines say of a day: its night's rooms sold and its business date's revenue. */
export type NightsOfDay = NightsSold & RevenueOfDay;

/** A day's rooms, and how many of them were out of order. */
export interface DayCapacity {
  date: string;
  rooms: number;
  out_of_order: number;
}

/** One day's (or a week's or month's) figures: occupancy in percent, ADR and RevPAR in roubles. */
export interface Performance {
  period: string;
  from: string;
  to: string;
  rooms_available: number;
  rooms_out_of_order: number;
  rooms_sold: number;
  occupancy: string;
  room_revenue: string;
  room_discounts: string;
  adr: string;
  revpar: string;
  day_use_stays: number;
  day_use_revenue: string;
}

/** A stay on the books: its nights and price, when it was made and cancelled. */
export interface BookedStay {
  id: string;
  check_in: string;
  check_out: string;
  price: string;
  /** A checked-out stay's day of departure (its nights end there, an early departure's before `check_out`). */
  left_on: string | null;
  created_at: Date;
  cancelled_at: Date | null;
}

/** What a column holds, which says how a spreadsheet types its cells (never the look of the text). */
export type ColumnType = 'text' | 'money' | 'number' | 'date';

/** A table of a report, as CSV and XLSX show it: the columns (key, header, type) and the rows. */
export interface ReportTable {
  name: string;
  columns: { key: string; header: string; type: ColumnType }[];
  rows: Record<string, string | number | null>[];
}
