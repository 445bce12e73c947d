import type { DbOrTrx } from '../../platform/db/knex';
import { BusinessRuleError, NotFoundError, ValidationError } from '../../platform/errors';
import { daysBetween } from '../../platform/http/schemas';
import type { HotelsService } from '../hotels';
import { fitsMoneyColumn, formatMoney, parseMoney } from '../../platform/money';
import { MAX_RENTAL_DAYS, rentalMessages } from './rentals.messages';
import { rentalBookingsRepository } from './rentals.repository';
import type { RentalBooking, RentalObject, RentalSchedule, Span } from './rentals.types';

export const HOUR_MS = 3_600_000;
export const MINUTE_MS = 60_000;

export function bodyError(field: string, message: string): ValidationError {
  return new ValidationError(message, [{ path: `body.${field}`, message }]);
}

export async function hotelTimeZone(hotels: Pick<HotelsService, 'find'>, conn: DbOrTrx, hotelId: string) {
  const hotel = await hotels.find(hotelId, conn);
  if (!hotel) throw new NotFoundError(rentalMessages.hotelNotFound);
  return hotel.timezone;
}

/** The hotel-local calendar day (YYYY-MM-DD) an instant falls on. */
function localDay(instant: Date, timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(
    instant,
  );
}

/** Hours of one day: on whole hours (of the hotel's clock), within the object's opening hours of that day. */
async function hourlySpan(conn: DbOrTrx, timeZone: string, object: RentalObject, start: Date, end: Date) {
  if (end <= start) throw bodyError('end_at', rentalMessages.endBeforeStart);
  const day = localDay(start, timeZone);
  const opening = await rentalBookingsRepository.openingSpan(conn, timeZone, day, day, object);
  const offHour = (instant: Date) => (instant.getTime() - opening.start.getTime()) % HOUR_MS !== 0;
  if (offHour(start)) throw bodyError('start_at', rentalMessages.wholeHours);
  if (offHour(end)) throw bodyError('end_at', rentalMessages.wholeHours);
  if (start < opening.start || end > opening.end) throw new BusinessRuleError(rentalMessages.outsideHours(object));
  return { span: { start, end }, units: (end.getTime() - start.getTime()) / HOUR_MS };
}

/** Whole days: the object is held from its opening on the first day to its closing on the last. */
async function dailySpan(conn: DbOrTrx, timeZone: string, object: RentalObject, from: string, to: string) {
  const days = daysBetween(from, to) + 1;
  if (days < 1) throw bodyError('date_to', rentalMessages.lastDayFirst);
  if (days > MAX_RENTAL_DAYS) throw bodyError('date_to', rentalMessages.tooManyDays);
  return { span: await rentalBookingsRepository.openingSpan(conn, timeZone, from, to, object), units: days };
}

export type BookingPlan = Pick<
  RentalBooking,
  'kind' | 'date_from' | 'date_to' | 'start_at' | 'end_at' | 'buffer_minutes' | 'blocked_until' | 'price'
>;

/**
 * Where a booking of the object sits in time and what it costs, from the object's hours and rates as they are now
 * (a price sent by the client plays no part). The object's buffer is kept free after the booking, up to
 * `blocked_until`: the database keeps what bookings hold from overlapping.
 */
export async function planBooking(
  conn: DbOrTrx,
  timeZone: string,
  object: RentalObject,
  schedule: RentalSchedule,
): Promise<BookingPlan> {
  const { kind, start_at, end_at, date_from, date_to } = schedule;
  const hourly = kind === 'hourly';
  if (hourly ? !start_at || !end_at || date_from : !date_from || !date_to || start_at)
    throw bodyError('kind', rentalMessages.kindFields[kind]);
  const { span, units } = hourly
    ? await hourlySpan(conn, timeZone, object, start_at!, end_at!)
    : await dailySpan(conn, timeZone, object, date_from!, date_to!);
  const price = BigInt(units) * parseMoney(hourly ? object.price_per_hour : object.price_per_day);
  if (!fitsMoneyColumn(price)) throw new BusinessRuleError(rentalMessages.priceTooHigh, [], 'amount_limit');
  return {
    kind,
    date_from: date_from ?? null,
    date_to: date_to ?? null,
    start_at: span.start,
    end_at: span.end,
    buffer_minutes: object.buffer_minutes,
    blocked_until: new Date(span.end.getTime() + object.buffer_minutes * MINUTE_MS),
    price: formatMoney(price),
  };
}

/** What a booking holds of its object: from its start to the end of the buffer after it. */
export function heldSpan(booking: Pick<RentalBooking, 'start_at' | 'blocked_until'>): Span {
  return { start: booking.start_at, end: booking.blocked_until };
}
