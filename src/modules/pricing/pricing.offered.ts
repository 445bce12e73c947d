import type { Db } from '../../platform/db/knex';
import { NotFoundError } from '../../platform/errors';
import type { HotelsService } from '../hotels';
import type { RestrictedStay, RestrictionsService, StayDates } from '../restrictions';
import type { QuoteRequest, QuoteService } from './pricing.quote';

export interface OfferedQuoteDependencies {
  hotels: Pick<HotelsService, 'find'>;
  restrictions: Pick<RestrictionsService, 'offering'>;
}

/**
 * For a stay and its shifts: whether the units held out of every sale (group blocks) leave its category a room on each
 * night they hold. Pricing does not count rooms, so the module that does registers this (the bookings, from the
 * availability's own count).
 */
export type HeldUnits = (hotelId: string, stay: RestrictedStay) => Promise<(dates: StayDates) => boolean>;

/**
 * The quote as the staff are offered it: the price, and whether the stay can be sold under the hotel's restrictions
 * (of its category, category-wide and of its tariff) and what group blocks hold, which restrictions it breaks, and
 * the nearest shifts by up to 3 days that break none and are not held. Pricing does not see the stays holding rooms:
 * a stay whose rooms are all booked is still quoted sellable (the staff availability checks free rooms as well).
 * An hourly stay has no nights to restrict.
 */
export function createOfferedQuotes(db: Db, quotes: Pick<QuoteService, 'quote'>, deps: OfferedQuoteDependencies) {
  let heldUnits: HeldUnits = () => Promise.resolve(() => true);
  async function offeredQuote(hotelId: string, request: QuoteRequest) {
    const quote = await quotes.quote(hotelId, request);
    const { check_in, check_out } = request;
    if (!check_in || !check_out) return { ...quote, sellable: true, restrictions: [], alternatives: [] };
    const hotel = await deps.hotels.find(hotelId);
    if (!hotel) throw new NotFoundError('Отель не найден');
    const stay = { category_id: quote.category_id, tariff_id: quote.tariff_id, check_in, check_out };
    const [offering, leftAfterHolds] = await Promise.all([
      deps.restrictions.offering(db, hotel, [stay]),
      heldUnits(hotelId, stay),
    ]);
    return { ...quote, ...offering.verdict(stay, leftAfterHolds) };
  }
  return {
    offeredQuote,
    /** Called by the module that counts held units against rooms, when it is built (after pricing). */
    seeHeldUnits(registered: HeldUnits): void {
      heldUnits = registered;
    },
  };
}

export type OfferedQuote = ReturnType<typeof createOfferedQuotes>['offeredQuote'];
