import { addDays } from '../../platform/dates';
import { divideMoney, formatMoney, parseMoney } from '../../platform/money';
import { nightsOf, spread } from '../tourist-tax';
import type { BookedStay, DayCapacity, Granularity, NightsOfDay, Performance } from './reports.types';

/** The days from `from` to `to`, both included. */
function daysOf(from: string, to: string): string[] {
  return nightsOf(from, addDays(to, 1));
}

/** The period a day belongs to: itself, its ISO week's Monday, or its month's first day. */
export function periodOf(date: string, granularity: Granularity): string {
  if (granularity === 'day') return date;
  if (granularity === 'month') return `${date.slice(0, 8)}01`;
  const weekday = (new Date(`${date}T00:00:00Z`).getUTCDay() + 6) % 7;
  return addDays(date, -weekday);
}

/** `part / whole` in hundredths of a percent, rounded half up, as `12.34`. */
export function percent(part: number, whole: number): string {
  if (whole === 0) return '0.00';
  return (Math.round((part * 10_000) / whole) / 100).toFixed(2);
}

/** Kopecks divided by a count, rounded half up to the kopeck. */
export function perUnit(cents: bigint, count: number): string {
  return formatMoney(divideMoney(cents, count));
}

/** The days' figures summed by period, then occupancy, ADR and RevPAR of each period computed from the sums. */
export function performance(
  days: readonly DayCapacity[],
  nights: ReadonlyMap<string, Partial<NightsOfDay>>,
  granularity: Granularity,
): Performance[] {
  const periods = new Map<
    string,
    {
      from: string;
      to: string;
      available: number;
      ooo: number;
      sold: number;
      revenue: bigint;
      discounts: bigint;
      dayUse: number;
      dayUseRevenue: bigint;
    }
  >();
  for (const day of days) {
    const key = periodOf(day.date, granularity);
    const sums = periods.get(key) ?? {
      from: day.date,
      to: day.date,
      available: 0,
      ooo: 0,
      sold: 0,
      revenue: 0n,
      discounts: 0n,
      dayUse: 0,
      dayUseRevenue: 0n,
    };
    const sold = nights.get(day.date);
    sums.to = day.date;
    sums.available += day.rooms - day.out_of_order;
    sums.ooo += day.out_of_order;
    sums.sold += sold?.rooms_sold ?? 0;
    sums.revenue += parseMoney(sold?.room_revenue ?? '0');
    sums.discounts += parseMoney(sold?.room_discounts ?? '0');
    sums.dayUse += sold?.day_use_stays ?? 0;
    sums.dayUseRevenue += parseMoney(sold?.day_use_revenue ?? '0');
    periods.set(key, sums);
  }
  return [...periods].map(([period, sums]) => ({
    period,
    from: sums.from,
    to: sums.to,
    rooms_available: sums.available,
    rooms_out_of_order: sums.ooo,
    rooms_sold: sums.sold,
    occupancy: percent(sums.sold, sums.available),
    room_revenue: formatMoney(sums.revenue),
    room_discounts: formatMoney(sums.discounts),
    adr: perUnit(sums.revenue, sums.sold),
    revpar: perUnit(sums.revenue, sums.available),
    day_use_stays: sums.dayUse,
    day_use_revenue: formatMoney(sums.dayUseRevenue),
  }));
}

/**
 * A stay's nights and their prices as the folio posts them: its price shared equally among its nights (the kopecks
 * left on the last); a stay left early has only the nights stayed, the rest of its price on the last of them.
 */
export function pricedNights(stay: BookedStay): [string, bigint][] {
  const planned = nightsOf(stay.check_in, stay.check_out);
  const price = parseMoney(stay.price);
  const prices = spread(
    price,
    planned.map(() => 0n),
  );
  const stayed = planned.filter((night) => stay.left_on === null || night < stay.left_on);
  if (stayed.length === 0 || stayed.length === planned.length) return planned.map((night, i) => [night, prices[i]]);
  const earlier = prices.slice(0, stayed.length - 1).reduce((sum, share) => sum + share, 0n);
  return stayed.map((night, i) => [night, i === stayed.length - 1 ? price - earlier : prices[i]]);
}

/** Rooms and revenue on the books per night of [from, to]: each stay's nights priced as the folio posts them. */
export function bookedByNight(
  stays: readonly BookedStay[],
  from: string,
  to: string,
): Map<string, { rooms: number; revenue: bigint }> {
  const byNight = new Map(daysOf(from, to).map((date) => [date, { rooms: 0, revenue: 0n }]));
  for (const stay of stays)
    for (const [night, price] of pricedNights(stay)) {
      const entry = byNight.get(night);
      if (!entry) continue;
      entry.rooms += 1;
      entry.revenue += price;
    }
  return byNight;
}
