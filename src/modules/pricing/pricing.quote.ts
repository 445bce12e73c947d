import type { Db, DbOrTrx } from '../../platform/db/knex';
import { BusinessRuleError, NotFoundError, ValidationError } from '../../platform/errors';
import type { Hotel, HotelSettingsRow, HotelsService } from '../hotels';
import type { Room, RoomCategory, RoomsService } from '../rooms';
import { NO_TOURIST_TAX, type TouristTaxService } from '../tourist-tax';
import { quoteHours, quoteNights, type Fee, type PriceSources, type Quote, type TariffRule } from './pricing.engine';
import { parseMoney } from '../../platform/money';
import { categoryPriceRows, tariffsRepository } from './pricing.repository';
import type { Tariff } from './pricing.types';

export interface QuoteRequest {
  category_id?: string;
  room_id?: string;
  check_in?: string;
  check_out?: string;
  start_at?: Date;
  end_at?: Date;
  tariff_id?: string;
  discount?: string;
  early_checkin: boolean;
  late_checkout: boolean;
}

export const quoteMessages = {
  roomNotFound: 'Номер не найден',
  categoryNotFound: 'Категория не найдена',
  tariffUnavailable: 'Тариф не найден или не активен',
  hourlyNotAllowed: 'В этой категории нет почасового проживания',
  earlyCheckinDisabled: 'Ранний заезд в отеле не предусмотрен',
  lateCheckoutDisabled: 'Поздний выезд в отеле не предусмотрен',
  minNights: (nights: number) => `Минимальный срок проживания по тарифу — ${nights} ноч.`,
};

/** The hotel-local calendar date of an instant. */
function localDate(instant: Date, timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(
    instant,
  );
}

function toWire(quote: Quote) {
  return {
    kind: quote.kind,
    units: quote.units,
    lines: quote.lines.map((line) => ({
      date: line.date,
      ...(line.hour !== undefined && { hour: line.hour, starts_at: line.startsAt }),
      source: line.source,
      source_id: line.sourceId,
      base_price: line.basePrice,
      tariff_adjustment: line.tariffAdjustment,
      price: line.price,
    })),
    subtotal: quote.subtotal,
    discount_percent: quote.discountPercent,
    discount_amount: quote.discountAmount,
    fees: quote.fees,
    fees_total: quote.feesTotal,
    total: quote.total,
  };
}

/**
 * Answers "what does this stay cost" from the hotel's prices: per night (or hour) the override for that date, else
 * the seasonal period covering it, else the base price (the room's own rate, else its category's).
 */
/**
 * Rows the caller has read already for this stay (a booking being written reads its hotel, room, category and tariff
 * to check them): the quote uses them instead of reading them again.
 */
export interface KnownRows {
  hotel?: Hotel;
  room?: Room;
  category?: RoomCategory;
  tariff?: Tariff;
  settings?: HotelSettingsRow;
}

export interface QuoteDependencies {
  hotels: Pick<HotelsService, 'find' | 'settingsOf'>;
  rooms: Pick<RoomsService, 'findRoom' | 'findCategory' | 'roomsOfCategory'>;
  touristTax: Pick<TouristTaxService, 'forStay'>;
}

export function createQuoteService(pool: Db, { hotels, rooms: roomsService, touristTax }: QuoteDependencies) {
  async function resolveTarget(
    db: DbOrTrx,
    hotelId: string,
    request: QuoteRequest,
    known: KnownRows,
  ): Promise<{ category: RoomCategory; room?: Room }> {
    const categoryOf = async (id: string) =>
      known.category?.id === id ? known.category : roomsService.findCategory(hotelId, id, db);
    if (request.room_id) {
      const room =
        known.room?.id === request.room_id ? known.room : await roomsService.findRoom(hotelId, request.room_id, db);
      if (!room) throw new NotFoundError(quoteMessages.roomNotFound);
      return { category: (await categoryOf(room.category_id))!, room };
    }
    const category = await categoryOf(request.category_id!);
    if (!category) throw new NotFoundError(quoteMessages.categoryNotFound);
    return { category };
  }

  async function tariffRule(
    db: DbOrTrx,
    hotelId: string,
    tariffId: string | undefined,
    nights: number | undefined,
    known: KnownRows,
  ) {
    if (!tariffId) return undefined;
    const tariff = known.tariff?.id === tariffId ? known.tariff : await tariffsRepository.find(db, hotelId, tariffId);
    if (!tariff || !tariff.is_active) throw new BusinessRuleError(quoteMessages.tariffUnavailable);
    if (nights !== undefined && nights < tariff.min_nights)
      throw new BusinessRuleError(quoteMessages.minNights(tariff.min_nights));
    const rule: TariffRule = {
      tariffId: tariff.id,
      adjustmentType: tariff.adjustment_type,
      adjustmentValue: tariff.adjustment_value,
    };
    return rule;
  }

  /** A room's own fee; for a category, the highest fee among its rooms (the quote never understates). */
  async function feesOf(
    db: DbOrTrx,
    hotelId: string,
    request: QuoteRequest,
    category: RoomCategory,
    room: Room | undefined,
    known: KnownRows,
  ) {
    if (!request.early_checkin && !request.late_checkout) return [];
    const settings = known.settings ?? (await hotels.settingsOf(hotelId, db));
    if (request.early_checkin && !settings?.early_checkin_enabled)
      throw new BusinessRuleError(quoteMessages.earlyCheckinDisabled);
    if (request.late_checkout && !settings?.late_checkout_enabled)
      throw new BusinessRuleError(quoteMessages.lateCheckoutDisabled);
    const rooms = room ? [room] : await roomsService.roomsOfCategory(hotelId, category.id, db);
    const highest = (field: 'early_checkin_fee' | 'late_checkout_fee') =>
      rooms.map((r) => r[field]).reduce((max, fee) => (parseMoney(fee) > parseMoney(max) ? fee : max), '0.00');
    const list: Fee[] = [];
    if (request.early_checkin) list.push({ kind: 'early_checkin', amount: highest('early_checkin_fee') });
    if (request.late_checkout) list.push({ kind: 'late_checkout', amount: highest('late_checkout_fee') });
    return list;
  }

  async function priceSources(
    db: DbOrTrx,
    hotelId: string,
    category: RoomCategory,
    room: Room | undefined,
    from: string,
    to: string,
  ) {
    const { periods, overrides } = await categoryPriceRows(db, hotelId, category.id, from, to);
    const sources: PriceSources = {
      basePrice: room?.base_rate ?? category.base_price,
      baseHourlyPrice: room?.hourly_rate ?? category.hourly_base_price,
      periods: periods.map((p) => ({
        periodId: p.period_id,
        dateFrom: p.date_from,
        dateTo: p.date_to,
        price: p.price,
        hourlyPrice: p.hourly_price,
      })),
      overrides: overrides.map((o) => ({
        overrideId: o.id,
        date: o.date,
        price: o.price,
        hourlyPrice: o.hourly_price,
      })),
    };
    return sources;
  }

  return {
    /** `conn`: the caller's transaction, when the quote prices a stay being written in it. */
    async quote(hotelId: string, request: QuoteRequest, conn: DbOrTrx = pool, known: KnownRows = {}) {
      const db = conn;
      const hotel = known.hotel ?? (await hotels.find(hotelId, db));
      const { category, room } = await resolveTarget(db, hotelId, request, known);
      const fees = await feesOf(db, hotelId, request, category, room, known);
      const adjustments = { discountPercent: request.discount, fees };
      let quote: Quote;
      let tax = NO_TOURIST_TAX;
      if (request.check_in && request.check_out) {
        if (request.check_out <= request.check_in)
          throw new ValidationError('Дата выезда должна быть позже даты заезда');
        const nights = Math.round((Date.parse(request.check_out) - Date.parse(request.check_in)) / 86_400_000);
        quote = quoteNights({
          checkIn: request.check_in,
          checkOut: request.check_out,
          sources: await priceSources(db, hotelId, category, room, request.check_in, request.check_out),
          tariff: await tariffRule(db, hotelId, request.tariff_id, nights, known),
          ...adjustments,
        });
        const [check_in, check_out, weights] = [request.check_in, request.check_out, quote.lines.map((l) => l.price)];
        tax = await touristTax.forStay(hotelId, { check_in, check_out, price: quote.total, weights }, db);
      } else {
        if (!category.allow_hourly) throw new BusinessRuleError(quoteMessages.hourlyNotAllowed);
        const timeZone = hotel!.timezone;
        const [startAt, endAt] = [request.start_at!, request.end_at!];
        quote = quoteHours({
          startAt,
          endAt,
          timeZone,
          sources: await priceSources(
            db,
            hotelId,
            category,
            room,
            localDate(startAt, timeZone),
            localDate(endAt, timeZone),
          ),
          tariff: await tariffRule(db, hotelId, request.tariff_id, undefined, known),
          ...adjustments,
        });
      }
      return {
        currency: hotel!.currency,
        category_id: category.id,
        room_id: room?.id ?? null,
        tariff_id: request.tariff_id ?? null,
        ...toWire(quote),
        tourist_tax: tax,
      };
    },
  };
}

export type QuoteService = ReturnType<typeof createQuoteService>;
