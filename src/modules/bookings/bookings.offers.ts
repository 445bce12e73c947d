import Joi from 'joi';
import { BusinessRuleError, ValidationError } from '../../platform/errors';
import { calendarDate, dateSpan, daysBetween } from '../../platform/http/schemas';
import { validate } from '../../platform/http/validate';
import type { Hotel } from '../hotels';
import { formatMoney, parseMoney } from '../../platform/money';
import type { QuoteService } from '../pricing';
import type { RoomCategory } from '../rooms';
import type { StayTax } from '../tourist-tax';
import { MAX_SHIFT_DAYS, type Offering, type StayVerdict } from '../restrictions';
import { leftAfterHolds, roomFree, widened, type Offerings } from './bookings.availability';
import {
  nightsFrom,
  roomsFitting,
  sellableRooms,
  type Inventory,
  type InventorySnapshot,
  type RoomNights,
} from './bookings.inventory';
import type { BookingsRepository } from './bookings.repository';
import { splitStay } from './bookings.split';

const MAX_OFFER_NIGHTS = 31;
const MAX_OFFER_GUESTS = 20;

export interface OffersQuery {
  from: string;
  to: string;
  guests: number;
}

/** The stay the public widget asks about; the service checks it again, so any caller is bounded. */
export const offersQuery = Joi.object<OffersQuery>({
  from: calendarDate.required(),
  to: calendarDate.required(),
  guests: Joi.number().integer().min(1).max(MAX_OFFER_GUESTS).required(),
}).custom(dateSpan('from', 'to', { maxDays: MAX_OFFER_NIGHTS }));

export interface CategoryOffer extends StayVerdict {
  category_id: string;
  name: string;
  description: string;
  photos: string[];
  /** The most guests any of the category's sellable rooms takes. */
  max_guests: number;
  /** Per night, the rooms of the category that can be sold to that many guests. */
  free: number[];
  /**
   * One of those rooms is free for the whole stay and the stay breaks none of the category's restrictions: a booking
   * of the category can be placed (the same as `sellable`; `restrictions` and `alternatives` say why not and what can).
   */
  available: boolean;
  /** The price of the whole stay by the quote engine (no tariff, no discount), when available. */
  total: string | null;
  /** total / nights, to the cent. */
  per_night: string | null;
  /** The tourist tax of the stay, charged on top of `total` (Tax Code ch. 33.1), when available. */
  tourist_tax: StayTax | null;
  hourly: { allowed: boolean; price_per_hour: string | null };
  /**
   * When no one room is free every night but some room is each night (and no restriction is broken): the nights of
   * each room of the stay split over rooms with the fewest moves (the rooms are not shown); a booking may take it.
   */
  split?: { from: string; to: string }[];
}

export interface Offers {
  from: string;
  to: string;
  nights: string[];
  categories: CategoryOffer[];
}

export const offerMessages = {
  checkOutFirst: 'Дата выезда должна быть позже даты заезда',
  past: 'Дата заезда уже прошла',
};

const HOUR_MS = 3_600_000;
const todayFormats = new Map<string, Intl.DateTimeFormat>();

/** Today's date in the hotel's time zone. */
export function hotelToday(timeZone: string): string {
  let format = todayFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    todayFormats.set(timeZone, format);
  }
  return format.format(new Date());
}

function queryError(field: keyof OffersQuery, message: string): ValidationError {
  return new ValidationError(message, [{ path: `query.${field}`, message }]);
}

/**
 * What the public widget shows for a stay: per category that has rooms for the party, the nights free and the price.
 * Served from the inventory's memory like staff availability; quotes are computed once per inventory version, which
 * moves with every change of rates, periods, overrides and categories as well as stays.
 */
export function createOffers({
  repository: { db, bookings },
  inventory,
  quotes,
  offerings: { restrictions, holds },
}: {
  repository: Pick<BookingsRepository, 'db' | 'bookings'>;
  inventory: Inventory;
  quotes: Pick<QuoteService, 'quote'>;
  offerings: Offerings;
}) {
  type Priced = Pick<Parameters<QuoteService['quote']>[1], 'check_in' | 'check_out' | 'start_at' | 'end_at'>;
  const quoted = async (hotel: Hotel, category: RoomCategory, stay: Priced) => {
    const request = { ...stay, category_id: category.id, early_checkin: false, late_checkout: false };
    const { total, tourist_tax } = await quotes.quote(hotel.id, request, db, { hotel, category });
    return { total, tourist_tax };
  };

  /** The price of the whole stay in a category, as a guest booking it by category would be quoted. */
  const stayPrice = (snapshot: InventorySnapshot, hotel: Hotel, category: RoomCategory, stay: OffersQuery) =>
    snapshot.derive(`stay:${category.id}:${stay.from}:${stay.to}`, () =>
      quoted(hotel, category, { check_in: stay.from, check_out: stay.to }),
    );

  /** The first hour from check-in time on the first day, as an hourly stay would be quoted; null when none is priced. */
  const hourPrice = (snapshot: InventorySnapshot, hotel: Hotel, category: RoomCategory, stay: OffersQuery) =>
    snapshot.derive(`hour:${category.id}:${stay.from}`, async () => {
      const { start } = await bookings.nightlySpan(db, hotel, stay.from, stay.to);
      try {
        const hour = { start_at: start, end_at: new Date(start.getTime() + HOUR_MS) };
        return (await quoted(hotel, category, hour)).total;
      } catch (error) {
        // No hourly price on that date at any level (override, period, base): nothing to show.
        if (error instanceof BusinessRuleError) return null;
        throw error;
      }
    });

  async function offerOf(
    snapshot: InventorySnapshot,
    hotel: Hotel,
    category: RoomCategory,
    rooms: RoomNights[],
    stay: OffersQuery,
    { offering, held }: { offering: Offering; held: number[] | undefined },
  ): Promise<CategoryOffer | undefined> {
    const sellable = sellableRooms(rooms, category.id);
    const fitting = roomsFitting(sellable, stay.guests);
    if (fitting.length === 0) return undefined;
    const dates = { check_in: stay.from, check_out: stay.to };
    const nights = daysBetween(stay.from, stay.to);
    // Units held by blocks take free rooms of the category off each night, whichever rooms they end in.
    const unheld = (night: number) => sellable.filter((room) => room.free[night]).length - (held?.[night] ?? 0);
    const free = Array.from({ length: nights }, (_, night) =>
      Math.max(
        0,
        Math.min(fitting.filter((room) => room.free[MAX_SHIFT_DAYS + night]).length, unheld(MAX_SHIFT_DAYS + night)),
      ),
    );
    const { first } = widened(dates);
    const verdict = offering.verdict(
      { ...dates, category_id: category.id, tariff_id: null },
      (shift) => roomFree(fitting, first, shift) && leftAfterHolds(sellable, held, first, shift),
    );
    const available = verdict.sellable;
    const split =
      available || verdict.restrictions.length > 0
        ? undefined
        : splitStay(
            fitting.map((room) => ({ ...room, free: room.free.slice(MAX_SHIFT_DAYS, MAX_SHIFT_DAYS + nights) })),
            stay.from,
            nights,
          );
    const [price, pricePerHour] = await Promise.all([
      available ? stayPrice(snapshot, hotel, category, stay) : null,
      category.allow_hourly ? hourPrice(snapshot, hotel, category, stay) : null,
    ]);
    return {
      category_id: category.id,
      name: category.name,
      description: category.description,
      photos: category.photos,
      max_guests: Math.max(...sellable.map((room) => room.max_guests)),
      free,
      available,
      total: price?.total ?? null,
      per_night: price ? formatMoney(averageOver(parseMoney(price.total), nights)) : null,
      tourist_tax: price?.tourist_tax ?? null,
      hourly: { allowed: category.allow_hourly, price_per_hour: pricePerHour },
      ...verdict,
      ...(split && { split: split.map(({ from, to }) => ({ from, to })) }),
    };
  }

  return async function offers(hotelId: string, query: OffersQuery): Promise<Offers> {
    const stay = validate<OffersQuery>(offersQuery, query, 'query');
    const nightCount = daysBetween(stay.from, stay.to);
    if (nightCount < 1) throw queryError('to', offerMessages.checkOutFirst);
    const snapshot = await inventory.snapshot(hotelId);
    const hotel = await snapshot.hotel();
    const today = hotelToday(hotel.timezone);
    if (stay.from < today) throw queryError('from', offerMessages.past);
    return snapshot.answer(`offers:${stay.from}:${stay.to}:${stay.guests}:${today}`, async () => {
      const wide = widened({ check_in: stay.from, check_out: stay.to });
      const [categories, rooms] = await Promise.all([snapshot.categories(), snapshot.nights(wide.first, wide.count)]);
      const stays = categories.map((category) => ({
        category_id: category.id,
        tariff_id: null,
        check_in: stay.from,
        check_out: stay.to,
      }));
      const [offering, held] = await Promise.all([
        restrictions.offering(db, hotel, stays),
        holds.held(db, hotelId, wide.first, wide.count),
      ]);
      const offered = await Promise.all(
        categories.map((category) =>
          offerOf(snapshot, hotel, category, rooms, stay, { offering, held: held.get(category.id) }),
        ),
      );
      return {
        from: stay.from,
        to: stay.to,
        nights: nightsFrom(stay.from, nightCount),
        categories: offered.filter((offer) => offer !== undefined),
      };
    });
  };
}

/** cents / count to the nearest cent, halves up (prices are never negative). */
function averageOver(cents: bigint, count: number): bigint {
  const divisor = BigInt(count);
  return (cents * 2n + divisor) / (2n * divisor);
}
