import { addDays } from '../../platform/dates';

/** Days of a refused range kept apart at most (a range is a year at most: the window). */
const MAX_DAYS = 400;

/** A value the channel refused under a 200 (its `meta.warnings`): the value's keys and dates, and why. */
interface Warning {
  room_type_id?: unknown;
  rate_plan_id?: unknown;
  date?: unknown;
  date_from?: unknown;
  date_to?: unknown;
}

const text = (value: unknown) => (typeof value === 'string' ? value : undefined);

/** The days the warnings name, as `<id> <date>`, for the key `idField` (room types or rate plans). */
export function refusedDays(warnings: unknown[], idField: 'room_type_id' | 'rate_plan_id'): Set<string> {
  const days = new Set<string>();
  for (const warning of warnings as Warning[]) {
    const id = text(warning?.[idField]);
    const from = text(warning?.date_from) ?? text(warning?.date);
    const to = text(warning?.date_to) ?? from;
    if (!id || !from || !to) continue;
    for (let date = from, n = 0; date <= to && n < MAX_DAYS; date = addDays(date, 1), n += 1) days.add(`${id} ${date}`);
  }
  return days;
}

/** What staff read on the connection while values are refused (null: none). */
export function refusedSummary(warnings: unknown[]): string | null {
  return warnings.length > 0 ? `${warnings.length} value(s) refused: ${JSON.stringify(warnings[0])}` : null;
}
