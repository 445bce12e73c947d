import { addDays } from '../../platform/dates';
import { AppError } from '../../platform/errors';
import { hotelToday, type BookingsService } from '../bookings';
import type { HotelsService } from '../hotels';
import type { PricingService, QuoteService } from '../pricing';
import { inForce, type RestrictionsService } from '../restrictions';
import type { RateValues } from './channels.manager';
import type { ChannelMapping } from './channels.types';

/** The window a sync covers: the hotel's today and the 364 nights after it. */
export const SYNC_DAYS = 365;

export interface AriSources {
  hotels: Pick<HotelsService, 'find'>;
  bookings: Pick<BookingsService, 'calendar'>;
  restrictions: Pick<RestrictionsService, 'read'>;
  pricing: Pick<PricingService, 'findTariff'> & { quotes: Pick<QuoteService, 'quote'> };
}

/** What the hotel sells on each date of the window, per mapped room type and rate plan. */
export interface Ari {
  dates: string[];
  availability: Map<string, number[]>;
  rates: Map<string, RateValues[]>;
  /** The hotel's next midnight, a minute past (epoch ms): the window moves then. */
  nextDayAt: number;
}

/**
 * A minute past the next midnight in `timeZone` (epoch ms), by the zone's offset now (a change of offset before
 * midnight moves it by that much: the wake comes an hour early or late, and pushes then what moved).
 */
export function nextMidnight(timeZone: string, now = Date.now()): number {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(now);
  const part = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((item) => item.type === type)?.value);
  const wall = Date.UTC(part('year'), part('month') - 1, part('day'), part('hour'), part('minute'), part('second'));
  const today = new Date(wall).toISOString().slice(0, 10);
  const offset = wall - Math.floor(now / 1000) * 1000;
  return Date.parse(`${addDays(today, 1)}T00:00:00Z`) - offset + 60_000;
}

type Night = Awaited<ReturnType<RestrictionsService['read']>>[number];

/**
 * A night's restrictions as the channel names them, from those in force for the tariff (the restrictions module's
 * own rule: the stricter of a category-wide row and the tariff's), with the tariff's minimum nights. The booking
 * window (`min_advance_days`, `max_advance_days`, read on the arrival night) has no field at the channel: a date
 * outside it for its lead (days from the hotel's today) is pushed closed to arrival, which is what it refuses
 * (arriving then; stays through it are still sold).
 */
function restrictionsOf(
  nights: Night[],
  stay: { category_id: string; tariff_id: string },
  lead: number,
  tariffMinNights: number,
): Omit<RateValues, 'rate'> {
  const values = inForce(nights, stay);
  const count = (
    field: 'min_stay_arrival' | 'min_stay_through' | 'max_stay' | 'min_advance_days' | 'max_advance_days',
  ) => values[field] as number | null;
  const minAdvance = count('min_advance_days');
  const maxAdvance = count('max_advance_days');
  const outsideWindow = (minAdvance !== null && lead < minAdvance) || (maxAdvance !== null && lead > maxAdvance);
  return {
    min_stay_arrival: Math.max(count('min_stay_arrival') ?? 1, tariffMinNights),
    min_stay_through: count('min_stay_through') ?? 1,
    max_stay: count('max_stay') ?? 0,
    closed_to_arrival: values.closed_to_arrival === true || outsideWindow,
    closed_to_departure: values.closed_to_departure === true,
    stop_sell: values.stop_sell === true,
  };
}

/** A category's restriction rows grouped by night (one pass; each date then reads only its own). */
function byNight(rows: Night[]): Map<string, Night[]> {
  const nights = new Map<string, Night[]>();
  for (const row of rows) nights.set(row.night, [...(nights.get(row.night) ?? []), row]);
  return nights;
}

/**
 * The hotel's availability, prices and restrictions over the window, read from the services the widget and the
 * staff read: rooms to sell are the revenue calendar's `free` (free rooms less the units blocks hold, the same
 * `freeOn` as the availability), prices the quote of the tariff (periods, overrides, the tariff's adjustment), and
 * restrictions the category-wide and the tariff's ones (the stricter), with the tariff's minimum nights. A tariff
 * that cannot be sold (inactive) is pushed closed at the category's price.
 */
export function createAriReader(sources: AriSources) {
  return async function readAri(hotelId: string, mapping: ChannelMapping): Promise<Ari> {
    const hotel = await sources.hotels.find(hotelId);
    const timeZone = hotel?.timezone ?? 'UTC';
    const from = hotelToday(timeZone);
    const to = addDays(from, SYNC_DAYS);
    const calendar = await sources.bookings.calendar(hotelId, { from, to });
    const dates = calendar.nights;
    const free = new Map(calendar.categories.map((category) => [category.category_id, category.free]));
    const availability = new Map(
      mapping.room_types.map((item) => [item.room_type_id, free.get(item.category_id) ?? dates.map(() => 0)]),
    );
    const categoryOf = new Map(mapping.room_types.map((item) => [item.room_type_id, item.category_id]));
    const rates = new Map<string, RateValues[]>();
    const nightsOf = new Map<string, Map<string, Night[]>>();
    for (const plan of mapping.rate_plans) {
      const categoryId = categoryOf.get(plan.room_type_id);
      if (!categoryId) continue;
      let nights = nightsOf.get(categoryId);
      if (!nights) {
        nights = byNight(
          await sources.restrictions.read(hotelId, { from, to: dates[dates.length - 1], category_id: categoryId }),
        );
        nightsOf.set(categoryId, nights);
      }
      const tariff = await sources.pricing.findTariff(hotelId, plan.tariff_id);
      const request = {
        category_id: categoryId,
        check_in: from,
        check_out: to,
        early_checkin: false,
        late_checkout: false,
      };
      const quoted = await sources.pricing.quotes
        .quote(hotelId, { ...request, tariff_id: plan.tariff_id })
        .catch((error: unknown) => {
          if (error instanceof AppError && error.status < 500) return undefined;
          throw error;
        });
      const prices = (quoted ?? (await sources.pricing.quotes.quote(hotelId, request))).lines.map((line) => line.price);
      rates.set(
        plan.rate_plan_id,
        dates.map((date, index) => {
          const stay = { category_id: categoryId, tariff_id: plan.tariff_id };
          const values = restrictionsOf(nights.get(date) ?? [], stay, index, tariff?.min_nights ?? 1);
          return { rate: prices[index], ...values, stop_sell: values.stop_sell || !quoted };
        }),
      );
    }
    return { dates, availability, rates, nextDayAt: nextMidnight(timeZone) };
  };
}
