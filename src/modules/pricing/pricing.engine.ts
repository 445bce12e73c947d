/**
 * What a stay costs. Pure: every price, date, instant and time zone is passed in.
 *
 * Each unit (a night, or an hour of an hourly stay) is priced by the rules of its calendar date (the hotel-local
 * date for hours), first match wins:
 *   1. the date's override, when its price (hourlyPrice for hours) is set;
 *   2. the seasonal period covering the date, when its price is set;
 *   3. the base: basePrice for nights, baseHourlyPrice for hours (an hourly stay with none of the three is refused).
 * A null price at a level means "not set here" and falls through to the next level, never "free".
 *
 * Then, per unit, the tariff adjusts that price (a percent of it, or a fixed amount) and the result is clamped at 0.
 * Then the discount percent applies to the subtotal of the units, and the fees are added last, undiscounted.
 * All arithmetic is in integer cents; amounts come in and go out as decimal strings.
 */
import { BusinessRuleError } from '../../platform/errors';
import {
  applyPercent,
  atLeastZero,
  formatMoney,
  formatPercent,
  MalformedAmountError,
  parseMoney,
  parsePercent,
  sumMoney,
} from '../../platform/money';

/**
 * Every refusal of the pricing engine, malformed amounts included, so a caller catches one class;
 * a BusinessRuleError so that one escaping to the HTTP layer answers 422 rather than 500.
 */
export class PricingError extends BusinessRuleError {
  constructor(message: string) {
    super(message, [message], 'pricing');
  }
}

/** A quote whose sources hold a malformed amount is refused like any other quote: as a PricingError. */
function refusedAsPricing<T>(compute: () => T): T {
  try {
    return compute();
  } catch (error) {
    if (error instanceof MalformedAmountError) throw new PricingError(error.message);
    throw error;
  }
}

/** Dates YYYY-MM-DD, inclusive at both ends; at most one period covers a date (the database guarantees it). */
export interface PeriodPrice {
  periodId: string;
  dateFrom: string;
  dateTo: string;
  price: string | null;
  hourlyPrice: string | null;
}

/** At most one per date. */
export interface OverridePrice {
  overrideId: string;
  date: string;
  price: string | null;
  hourlyPrice: string | null;
}

export interface PriceSources {
  /** The nightly base: the room's own base_rate, else its category's base_price. */
  basePrice: string;
  /** The room's hourly_rate, else the category's hourly_base_price; null when there is no hourly base. */
  baseHourlyPrice: string | null;
  /** Seasonal periods of the category; ones outside the stay are harmless. */
  periods: PeriodPrice[];
  /** Per-date overrides of the category. */
  overrides: OverridePrice[];
}

/** percent: "-10" takes 10 % off each unit; fixed: an amount added to each unit, possibly negative. */
export interface TariffRule {
  tariffId: string;
  adjustmentType: 'percent' | 'fixed';
  adjustmentValue: string;
}

export interface Fee {
  kind: 'early_checkin' | 'late_checkout';
  amount: string;
}

export type PriceSource = 'base' | 'period' | 'override';

export interface QuoteLine {
  date: string;
  /** Hotel-local hour of day 0-23, hourly lines only. */
  hour?: number;
  /** ISO instant the hour starts at, hourly lines only. */
  startsAt?: string;
  source: PriceSource;
  sourceId: string | null;
  basePrice: string;
  /** Always price - basePrice, so a clamped line still adds up. */
  tariffAdjustment: string;
  price: string;
}

export interface Quote {
  kind: 'nightly' | 'hourly';
  /** Nights, or billed hours. */
  units: number;
  lines: QuoteLine[];
  subtotal: string;
  /** Canonical two-decimal spelling, "0.00" when there is no discount. */
  discountPercent: string;
  /** Negative, or "0.00". */
  discountAmount: string;
  fees: Fee[];
  feesTotal: string;
  total: string;
}

export interface QuoteAdjustments {
  tariff?: TariffRule;
  /** 0..100, at most two decimals; "0" by default. */
  discountPercent?: string;
  fees?: Fee[];
}

export interface NightsRequest extends QuoteAdjustments {
  /** YYYY-MM-DD, the first night. */
  checkIn: string;
  /** YYYY-MM-DD, the morning of departure: not a night. */
  checkOut: string;
  sources: PriceSources;
}

export interface HoursRequest extends QuoteAdjustments {
  startAt: Date;
  endAt: Date;
  /** IANA zone of the hotel, e.g. "Europe/Moscow": decides which date's rules price each hour. */
  timeZone: string;
  sources: PriceSources;
}

export const MAX_NIGHTS = 366;
export const MAX_HOURS = 14 * 24;

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
/** 100 %, in the hundredths of a percent that parsePercent returns. */
const FULL_PERCENT = 10_000n;
const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

interface ResolvedPrice {
  source: PriceSource;
  sourceId: string | null;
  price: string;
}

interface PricedLine {
  line: QuoteLine;
  price: bigint;
}

type LinePlace = Pick<QuoteLine, 'date' | 'hour' | 'startsAt'>;

export function quoteNights(request: NightsRequest): Quote {
  return refusedAsPricing(() => nightlyQuote(request));
}

export function quoteHours(request: HoursRequest): Quote {
  return refusedAsPricing(() => hourlyQuote(request));
}

function nightlyQuote(request: NightsRequest): Quote {
  const firstNight = parseCalendarDate(request.checkIn, 'Некорректная дата заезда');
  const nights = (parseCalendarDate(request.checkOut, 'Некорректная дата выезда') - firstNight) / DAY_MS;
  if (nights <= 0) throw new PricingError('Дата выезда должна быть позже даты заезда');
  if (nights > MAX_NIGHTS) throw new PricingError(`Проживание не может быть дольше ${MAX_NIGHTS} ночей`);

  const datedPrice = datedPriceLookup(request.sources, 'price');
  const base: ResolvedPrice = { source: 'base', sourceId: null, price: request.sources.basePrice };
  const lines = Array.from({ length: nights }, (_, night) => {
    const date = formatCalendarDate(firstNight + night * DAY_MS);
    return priceLine({ date }, datedPrice(date) ?? base, request.tariff);
  });
  return summarize('nightly', lines, request);
}

function hourlyQuote(request: HoursRequest): Quote {
  const start = request.startAt.getTime();
  const duration = request.endAt.getTime() - start;
  if (Number.isNaN(duration)) throw new PricingError('Некорректное время заезда или выезда');
  if (duration <= 0) throw new PricingError('Время выезда должно быть позже времени заезда');
  const hours = Math.ceil(duration / HOUR_MS);
  if (hours > MAX_HOURS) throw new PricingError(`Почасовое проживание не может быть дольше ${MAX_HOURS} часов`);

  const hotelClock = hotelClockIn(request.timeZone);
  const datedPrice = datedPriceLookup(request.sources, 'hourlyPrice');
  const lines = Array.from({ length: hours }, (_, hourIndex) => {
    const instant = new Date(start + hourIndex * HOUR_MS);
    const { date, hour } = hotelClock(instant);
    const resolved = datedPrice(date) ?? hourlyBase(request.sources);
    return priceLine({ date, hour, startsAt: instant.toISOString() }, resolved, request.tariff);
  });
  return summarize('hourly', lines, request);
}

/** A calendar date as its UTC midnight, so that day arithmetic is exact and no zone or DST can shift a night. */
function parseCalendarDate(value: string, refusal: string): number {
  const match = DATE_PATTERN.exec(value);
  const epochMs = match ? Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])) : NaN;
  // Date.UTC rolls 2024-02-30 over into March; the round trip catches it.
  if (Number.isNaN(epochMs) || formatCalendarDate(epochMs) !== value) throw new PricingError(`${refusal}: "${value}"`);
  return epochMs;
}

function formatCalendarDate(epochMs: number): string {
  return new Date(epochMs).toISOString().slice(0, 10);
}

/** The override-then-period levels of the precedence for one price field; undefined leaves the base to the caller. */
function datedPriceLookup(
  sources: PriceSources,
  field: 'price' | 'hourlyPrice',
): (date: string) => ResolvedPrice | undefined {
  const overridesByDate = new Map(sources.overrides.map((override) => [override.date, override]));
  return (date) => {
    const override = overridesByDate.get(date);
    const overridePrice = override?.[field] ?? null;
    if (override && overridePrice !== null) {
      return { source: 'override', sourceId: override.overrideId, price: overridePrice };
    }
    // YYYY-MM-DD strings order like the dates they spell.
    const period = sources.periods.find((candidate) => candidate.dateFrom <= date && date <= candidate.dateTo);
    const periodPrice = period?.[field] ?? null;
    if (period && periodPrice !== null) return { source: 'period', sourceId: period.periodId, price: periodPrice };
    return undefined;
  };
}

function hourlyBase(sources: PriceSources): ResolvedPrice {
  if (sources.baseHourlyPrice === null) throw new PricingError('Почасовая цена не задана');
  return { source: 'base', sourceId: null, price: sources.baseHourlyPrice };
}

/** The hotel-local calendar date and hour of day of an instant, DST included, from the runtime's own zone data. */
function hotelClockIn(timeZone: string): (instant: Date) => { date: string; hour: number } {
  const format = localHourFormat(timeZone);
  return (instant) => {
    const parts = Object.fromEntries(format.formatToParts(instant).map((part) => [part.type, part.value]));
    return { date: `${parts.year}-${parts.month}-${parts.day}`, hour: Number(parts.hour) };
  };
}

function localHourFormat(timeZone: string): Intl.DateTimeFormat {
  try {
    // h23, because the h24 cycle of some locales would call midnight hour 24 of the previous day.
    return new Intl.DateTimeFormat('en-US', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      hourCycle: 'h23',
    });
  } catch {
    throw new PricingError(`Неизвестный часовой пояс: "${timeZone}"`);
  }
}

function priceLine(place: LinePlace, resolved: ResolvedPrice, tariff: TariffRule | undefined): PricedLine {
  const basePrice = parseMoney(resolved.price);
  const price = atLeastZero(basePrice + tariffAdjustment(basePrice, tariff));
  const line: QuoteLine = {
    ...place,
    source: resolved.source,
    sourceId: resolved.sourceId,
    basePrice: formatMoney(basePrice),
    tariffAdjustment: formatMoney(price - basePrice),
    price: formatMoney(price),
  };
  return { line, price };
}

function tariffAdjustment(basePrice: bigint, tariff: TariffRule | undefined): bigint {
  if (!tariff) return 0n;
  if (tariff.adjustmentType === 'percent') return applyPercent(basePrice, tariff.adjustmentValue);
  return parseMoney(tariff.adjustmentValue);
}

function summarize(kind: Quote['kind'], pricedLines: PricedLine[], adjustments: QuoteAdjustments): Quote {
  const discountPercent = adjustments.discountPercent ?? '0';
  const discountHundredths = parsePercent(discountPercent);
  if (discountHundredths < 0n || discountHundredths > FULL_PERCENT) {
    throw new PricingError('Скидка должна быть от 0 до 100 %');
  }
  const fees = (adjustments.fees ?? []).map((fee) => ({ kind: fee.kind, amount: parseMoney(fee.amount) }));

  const subtotal = sumMoney(pricedLines.map((priced) => priced.price));
  const discountAmount = -applyPercent(subtotal, discountPercent);
  const feesTotal = sumMoney(fees.map((fee) => fee.amount));
  return {
    kind,
    units: pricedLines.length,
    lines: pricedLines.map((priced) => priced.line),
    subtotal: formatMoney(subtotal),
    discountPercent: formatPercent(discountHundredths),
    discountAmount: formatMoney(discountAmount),
    fees: fees.map((fee) => ({ kind: fee.kind, amount: formatMoney(fee.amount) })),
    feesTotal: formatMoney(feesTotal),
    total: formatMoney(subtotal + discountAmount + feesTotal),
  };
}
