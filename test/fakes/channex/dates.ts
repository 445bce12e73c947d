const DAY_MS = 86_400_000;

/** How far ahead Channex keeps ARI (beyond it a value is refused with a warning). */
export const MAX_DAYS_AHEAD = 730;

export function isIsoDate(value: unknown): value is string {
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const parsed = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(parsed.getTime()) && parsed.toISOString().startsWith(value);
}

export function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);
}

/** Every date from `from` to `to`, both included. */
export function eachDate(from: string, to: string): string[] {
  const dates: string[] = [];
  for (let date = from; date <= to; date = addDays(date, 1)) dates.push(date);
  return dates;
}

export function isoDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

const WEEKDAYS = ['su', 'mo', 'tu', 'we', 'th', 'fr', 'sa'];

export function weekday(date: string): string {
  return WEEKDAYS[new Date(`${date}T00:00:00Z`).getUTCDay()];
}

export function isWeekday(value: unknown): boolean {
  return typeof value === 'string' && WEEKDAYS.includes(value);
}
