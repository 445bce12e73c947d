/** Whether the audit runs on its own, and at which hour of the hotel's own clock. */
export interface AuditSettings {
  hotel_id: string;
  enabled: boolean;
  hour: number;
  updated_at: Date;
}

export type AuditSettingsInput = Pick<AuditSettings, 'enabled' | 'hour'>;

export type RunStatus = 'running' | 'succeeded' | 'failed';
export type RunTrigger = 'schedule' | 'manual';

/** A business date's audit: its last attempt. */
export interface AuditRun {
  hotel_id: string;
  business_date: string;
  status: RunStatus;
  trigger: RunTrigger;
  workflow_id: string;
  report_error: string | null;
  error: string | null;
  started_at: Date;
  finished_at: Date | null;
}

/** What a day's statistics add to the reports' figures of the day (night-audit.figures.ts). */
export interface DayFacts {
  /** The day's tourist tax lines, in kopecks. */
  touristTax: bigint;
  arrivals: number;
  departures: number;
  noShows: number;
}

/** A closed day's statistics, written once. */
export interface AuditSnapshot {
  hotel_id: string;
  business_date: string;
  rooms: number;
  out_of_order: number;
  available: number;
  sold: number;
  occupancy: string;
  room_revenue: string;
  adr: string;
  revpar: string;
  arrivals: number;
  departures: number;
  no_shows: number;
  tourist_tax: string;
  created_at?: Date;
}

/** A stay in house on the night audited: its booking and room, and whether it stays on past the day. */
export interface InHouseStay {
  booking_id: string;
  room_id: string;
  stays_on: boolean;
}

export const RECENT_RUNS = 10;
