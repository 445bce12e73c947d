import type { DateRange } from './channels.manager';

/** One day's value, by its place in the window's dates. */
export interface DayValue<V> {
  date: string;
  value: V;
}

/**
 * Consecutive days (of `days`, in date order, each the day after the one before) with equal values become one range:
 * the fewest items a push needs. `same` compares two values. Days left out (unchanged ones) break a range.
 */
export function rangesOf<V>(
  days: DayValue<V>[],
  same: (a: V, b: V) => boolean,
  nextDay: (date: string) => string,
): (DateRange & { value: V })[] {
  const ranges: (DateRange & { value: V })[] = [];
  for (const day of days) {
    const last = ranges[ranges.length - 1];
    if (last && nextDay(last.date_to) === day.date && same(last.value, day.value)) last.date_to = day.date;
    else ranges.push({ date_from: day.date, date_to: day.date, value: day.value });
  }
  return ranges;
}

/** The days of `current` whose value differs from `before` (every day when `before` is absent: a full push). */
export function changedDays<V>(
  dates: string[],
  current: readonly V[],
  before: Record<string, V> | undefined,
  same: (a: V, b: V) => boolean,
): DayValue<V>[] {
  return dates.flatMap((date, index) => {
    const value = current[index];
    const previous = before?.[date];
    return previous !== undefined && same(previous, value) ? [] : [{ date, value }];
  });
}
