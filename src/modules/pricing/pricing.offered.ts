import type { Db } from '../../platform/db/knex';
import { NotFoundError } from '../../platform/errors';
import type { HotelsService } from '../hotels';
import type { RestrictionsService } from '../restrictions';
import type { QuoteRequest, QuoteService } from './pricing.quote';

export interface OfferedQuoteDependencies {
  hotels: Pick<HotelsService, 'find'>;
  restrictions: Pick<RestrictionsService, 'offering'>;
}

/**
 * The quote as the staff are offered it: the price, and whether the stay can be sold under the hotel's restrictions
 * (of its category, category-wide and of its tariff), which it breaks, and the nearest shifts by up to 3 days that
 * break none. Pricing does not see the stays holding rooms: its alternatives are checked against the restrictions
 * only (the staff availability checks free rooms as well). An hourly stay has no nights to restrict.
 */
export function createOfferedQuotes(db: Db, quotes: Pick<QuoteService, 'quote'>, deps: OfferedQuoteDependencies) {
  return async function offeredQuote(hotelId: string, request: QuoteRequest) {
    const quote = await quotes.quote(hotelId, request);
    const { check_in, check_out } = request;
    if (!check_in || !check_out) return { ...quote, sellable: true, restrictions: [], alternatives: [] };
    const hotel = await deps.hotels.find(hotelId);
    if (!hotel) throw new NotFoundError('Отель не найден');
    const stay = { category_id: quote.category_id, tariff_id: quote.tariff_id, check_in, check_out };
    const offering = await deps.restrictions.offering(db, hotel, [stay]);
    return { ...quote, ...offering.verdict(stay) };
  };
}

export type OfferedQuote = ReturnType<typeof createOfferedQuotes>;
