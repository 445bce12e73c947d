import type { DbOrTrx } from '../../platform/db/knex';
import { formatMoney, parseMoney, sumMoney } from '../../platform/money';
import { hotelToday, type Booking } from '../bookings';
import type { HotelsService } from '../hotels';
import { nightsOf, type TouristTaxService } from '../tourist-tax';
import { linesRepository } from './folios.repository';
import { nightLine, nightShares, nightsStayed, taxLine, type HotelVat, type NightPoster } from './folios.rules';
import type { LineInput } from './folios.types';

export interface NightsDependencies {
  hotels: Pick<HotelsService, 'find'>;
  touristTax: Pick<TouristTaxService, 'ofNight'>;
  post(trx: DbOrTrx, hotelId: string, bookingId: string, line: LineInput): Promise<{ created: boolean }>;
  vatOf(conn: DbOrTrx, hotelId: string): Promise<HotelVat>;
  businessDate(conn: DbOrTrx, hotelId: string): Promise<string>;
}

/** The key of the line a check-out posts to bring a stay's room nights to its price (and of its tax's change). */
const AT_CHECK_OUT = 'check_out';
const isNight = (key: string) => /^\d{4}-\d{2}-\d{2}$/.test(key);

/**
 * A stay's room nights, posted night by night (docs/decisions/folios.md): by the night audit as each night passes, at
 * check-in for nights before the business date (a late arrival), at check-out for the nights stayed not yet posted,
 * the check-out then bringing the total to the price. A night's amount is what the price leaves once the nights
 * posted are taken off, shared equally over the nights not yet posted; its tourist tax is the tax of that amount.
 */
export function createNightPostings(deps: NightsDependencies) {
  /** The stay's room-night lines: their total and each night's (or key's) amount. */
  async function postedOf(conn: DbOrTrx, booking: Booking) {
    const prefix = `room_night:${booking.id}:`;
    const lines = await linesRepository.bySourcePrefix(conn, booking.hotel_id, prefix);
    const byKey = new Map<string, bigint>();
    for (const line of lines) {
      const key = line.source.slice(prefix.length);
      byKey.set(key, (byKey.get(key) ?? 0n) + parseMoney(line.amount));
    }
    return { total: sumMoney(lines.map((line) => parseMoney(line.amount))), byKey };
  }

  /** A night's line and its tourist tax, each once: the lines written. */
  async function postNight(trx: DbOrTrx, booking: Booking, date: string, amount: bigint, via: NightPoster) {
    const { hotel_id: hotelId, id } = booking;
    const vat = await deps.vatOf(trx, hotelId);
    let written = (await deps.post(trx, hotelId, id, nightLine(id, date, amount, vat, via))).created ? 1 : 0;
    const tax = parseMoney(await deps.touristTax.ofNight(hotelId, id, date, formatMoney(amount), trx));
    if (tax > 0n && (await deps.post(trx, hotelId, id, taxLine(id, date, tax, via))).created) written += 1;
    return written;
  }

  /** Those of `dates` that are nights of the stay not posted yet, in order, each its share then. */
  async function postNights(trx: DbOrTrx, booking: Booking, dates: readonly string[], via: NightPoster) {
    if (!booking.check_in || !booking.check_out) return 0;
    const posted = await postedOf(trx, booking);
    let total = posted.total;
    let unposted = nightsOf(booking.check_in, booking.check_out).filter((night) => !posted.byKey.has(night));
    let written = 0;
    for (const date of [...dates].sort()) {
      const amount = nightShares(booking.price, total, unposted).get(date);
      if (amount === undefined) continue;
      written += await postNight(trx, booking, date, amount, via);
      total += amount;
      unposted = unposted.filter((night) => night !== date);
    }
    return written;
  }

  /** A day-use stay's one line of its whole price, on the day. */
  async function postHourly(trx: DbOrTrx, booking: Booking, date: string, via: NightPoster) {
    const vat = await deps.vatOf(trx, booking.hotel_id);
    const line = nightLine(booking.id, date, parseMoney(booking.price), vat, via, 'hourly');
    return (await deps.post(trx, booking.hotel_id, booking.id, line)).created ? 1 : 0;
  }

  /** The stay's total brought to its price on its last night posted, and that night's tax to its new amount. */
  async function bringToPrice(trx: DbOrTrx, booking: Booking) {
    const { hotel_id: hotelId, id } = booking;
    const posted = await postedOf(trx, booking);
    const rest = parseMoney(booking.price) - posted.total;
    const last = [...posted.byKey.keys()].filter(isNight).sort().pop();
    if (rest === 0n || !last) return;
    const lastLine = await linesRepository.bySource(trx, hotelId, `room_night:${id}:${last}`);
    await deps.post(trx, hotelId, id, {
      ...nightLine(id, last, rest, await deps.vatOf(trx, hotelId), 'check_out', AT_CHECK_OUT),
      kind: rest > 0n ? 'room_night' : 'correction',
      corrects_line_id: rest > 0n ? null : (lastLine?.id ?? null),
    });
    const amount = formatMoney(posted.byKey.get(last)! + rest);
    const taxed = await linesRepository.bySource(trx, hotelId, `tourist_tax:${id}:${last}`);
    const change =
      parseMoney(await deps.touristTax.ofNight(hotelId, id, last, amount, trx)) - parseMoney(taxed?.amount ?? '0');
    if (change !== 0n) await deps.post(trx, hotelId, id, taxLine(id, last, change, 'check_out', AT_CHECK_OUT));
  }

  return {
    /**
     * The tourist tax of the stay's nights not posted yet, each on the share of the price it will be posted at: what
     * the desk collects with the lodging paid ahead of the nights (a day-use stay has none).
     */
    async pendingTax(conn: DbOrTrx, booking: Booking): Promise<bigint> {
      if (!booking.check_in || !booking.check_out) return 0n;
      const posted = await postedOf(conn, booking);
      const unposted = nightsOf(booking.check_in, booking.check_out).filter((night) => !posted.byKey.has(night));
      let tax = 0n;
      for (const [night, amount] of nightShares(booking.price, posted.total, unposted))
        tax += parseMoney(
          await deps.touristTax.ofNight(booking.hotel_id, booking.id, night, formatMoney(amount), conn),
        );
      return tax;
    },

    /** At check-in: the nights before the business date (a late arrival after a close); a day-use stay's line. */
    async checkIn(trx: DbOrTrx, booking: Booking): Promise<void> {
      const today = await deps.businessDate(trx, booking.hotel_id);
      if (!booking.check_in || !booking.check_out) await postHourly(trx, booking, today, 'check_in');
      else
        await postNights(
          trx,
          booking,
          nightsOf(booking.check_in, booking.check_out).filter((n) => n < today),
          'check_in',
        );
    },

    /** The night audit's night of the stay (a day-use stay's line if its check-in did not post it): lines written. */
    audit(trx: DbOrTrx, booking: Booking, date: string): Promise<number> {
      if (!booking.check_in || !booking.check_out) return postHourly(trx, booking, date, 'night_audit');
      return postNights(trx, booking, [date], 'night_audit');
    },

    /** At check-out: the nights stayed not yet posted, then the total brought to the price. */
    async checkOut(trx: DbOrTrx, booking: Booking): Promise<void> {
      if (!booking.check_in || !booking.check_out) return;
      const hotel = await deps.hotels.find(booking.hotel_id, trx);
      await postNights(trx, booking, nightsStayed(booking, hotelToday(hotel!.timezone)), 'check_out');
      await bringToPrice(trx, booking);
    },
  };
}
