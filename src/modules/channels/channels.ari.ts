import { addDays } from '../../platform/dates';
import { AppError } from '../../platform/errors';
import { hotelToday, type BookingsService } from '../bookings';
import type { HotelsService } from '../hotels';
import type { PricingService, QuoteService } from '../pricing';
import type { RestrictionsService } from '../restrictions';
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
}

type Night = Awaited<ReturnType<RestrictionsService['read']>>[number];

/** A category-wide night and one of the tariff's both apply: the stricter of each. */
function restrictionsOf(nights: Night[], tariffMinNights: number): Omit<RateValues, 'rate'> {
  const most = (field: 'min_stay_arrival' | 'min_stay_through') =>
    Math.max(1, ...nights.map((night) => night[field] ?? 1));
  const maxStays = nights.flatMap((night) => (night.max_stay === null ? [] : [night.max_stay]));
  const any = (field: 'closed_to_arrival' | 'closed_to_departure' | 'stop_sell') =>
    nights.some((night) => night[field]);
  return {
    min_stay_arrival: Math.max(most('min_stay_arrival'), tariffMinNights),
    min_stay_through: most('min_stay_through'),
    max_stay: maxStays.length > 0 ? Math.min(...maxStays) : 0,
    closed_to_arrival: any('closed_to_arrival'),
    closed_to_departure: any('closed_to_departure'),
    stop_sell: any('stop_sell'),
  };
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
    const from = hotelToday(hotel?.timezone ?? 'UTC');
    const to = addDays(from, SYNC_DAYS);
    const calendar = await sources.bookings.calendar(hotelId, { from, to });
    const dates = calendar.nights;
    const free = new Map(calendar.categories.map((category) => [category.category_id, category.free]));
    const availability = new Map(
      mapping.room_types.map((item) => [item.room_type_id, free.get(item.category_id) ?? dates.map(() => 0)]),
    );
    const categoryOf = new Map(mapping.room_types.map((item) => [item.room_type_id, item.category_id]));
    const rates = new Map<string, RateValues[]>();
    const nightsOf = new Map<string, Night[]>();
    for (const plan of mapping.rate_plans) {
      const categoryId = categoryOf.get(plan.room_type_id);
      if (!categoryId) continue;
      let nights = nightsOf.get(categoryId);
      if (!nights) {
        nights = await sources.restrictions.read(hotelId, {
          from,
          to: dates[dates.length - 1],
          category_id: categoryId,
        });
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
      const ofNight = (night: string) =>
        nights.filter((row) => row.night === night && (row.tariff_id === null || row.tariff_id === plan.tariff_id));
      rates.set(
        plan.rate_plan_id,
        dates.map((date, index) => {
          const values = restrictionsOf(ofNight(date), tariff?.min_nights ?? 1);
          return { rate: prices[index], ...values, stop_sell: values.stop_sell || !quoted };
        }),
      );
    }
    return { dates, availability, rates };
  };
}
