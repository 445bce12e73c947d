import { addDays } from '../../platform/dates';
import type { VatRate } from '../../integrations/atol';
import { formatMoney, parseMoney, sumMoney } from '../../platform/money';
import type { Booking, LedgerEntry } from '../bookings';
import { nightsOf, spread } from '../tourist-tax';
import type { FolioLine, LineInput } from './folios.types';

/** The VAT rates a hotel's receipts name: its lodging's and its room service's (payment settings). */
export interface HotelVat {
  lodging: VatRate;
  roomService: VatRate;
}

/** The balance of lines: their sum (positive: the payer owes it; negative: the hotel owes the payer). */
export function balanceOf(lines: readonly Pick<FolioLine, 'amount'>[]): string {
  return formatMoney(sumMoney(lines.map((line) => parseMoney(line.amount))));
}

/** The business date a posting belongs to: the day asked, or today, but never a day already closed. */
export function openDate(closedThrough: string | null, wanted: string): string {
  if (!closedThrough || wanted > closedThrough) return wanted;
  return addDays(closedThrough, 1);
}

export const isClosed = (closedThrough: string | null, date: string) => closedThrough !== null && date <= closedThrough;

const negated = (amount: string) => formatMoney(-parseMoney(amount));

/**
 * The folio line of what a stay's records took in: a charge or discount, a payment (negative) or refund (a negative
 * payment: positive), and a payment deleted (a correction, positive, pointing to the payment's line). The payment's
 * method is kept on the line (the ledger's row of a deleted payment is gone; the shift report groups by it).
 */
export function lineOfEntry(entry: LedgerEntry, vat: HotelVat): LineInput {
  if (entry.kind === 'charge') {
    const { charge } = entry;
    const roomService = charge.kind === 'room_service';
    return {
      kind: roomService ? 'room_service' : 'discount',
      amount: charge.amount,
      vat_rate: roomService ? vat.roomService : vat.lodging,
      description: charge.description,
      source: `charge:${charge.kind}:${charge.source_id}`,
      posted_via: roomService ? 'room_service' : 'loyalty',
    };
  }
  const { payment } = entry;
  if (entry.kind === 'payment_removed')
    return {
      kind: 'correction',
      amount: payment.amount,
      vat_rate: 'none',
      description: `Платёж удалён (${payment.method})`,
      source: `payment_removed:${payment.id}`,
      posted_via: 'payments',
      posted_by: entry.removedBy,
      payment_method: payment.method,
    };
  // A desk payment of a negative amount is money given back: a refund, which the guest owes again.
  const refund = parseMoney(payment.amount) < 0n;
  return {
    kind: refund ? 'refund' : 'payment',
    amount: negated(payment.amount),
    vat_rate: 'none',
    description: `${refund ? 'Возврат' : 'Оплата'} (${payment.method})`,
    source: `payment:${payment.id}`,
    posted_via: 'payments',
    posted_by: payment.created_by,
    payment_method: payment.method,
  };
}

/** How a stay's night was posted: at check-in (a late arrival), by the night audit, or at check-out. */
export type NightPoster = 'check_in' | 'night_audit' | 'check_out';

/** A night of a stay as its line, under `room_night:<booking>:<key>` (the night's date; `hourly` for a day-use stay). */
export function nightLine(
  bookingId: string,
  date: string,
  amount: bigint,
  vat: HotelVat,
  via: NightPoster,
  key = date,
) {
  return {
    kind: 'room_night',
    amount: formatMoney(amount),
    vat_rate: vat.lodging,
    description: `Проживание, ночь ${date}`,
    source: `room_night:${bookingId}:${key}`,
    posted_via: via,
    business_date: date,
  } satisfies LineInput;
}

/** A night's tourist tax as its line, under `tourist_tax:<booking>:<key>`. */
export function taxLine(bookingId: string, date: string, amount: bigint, via: NightPoster, key = date) {
  return {
    kind: amount > 0n ? 'tourist_tax' : 'correction',
    amount: formatMoney(amount),
    vat_rate: 'none',
    description: `Туристический налог, ночь ${date}`,
    source: `tourist_tax:${bookingId}:${key}`,
    posted_via: via,
    business_date: date,
  } satisfies LineInput;
}

/**
 * The amount of each night not yet posted: what the price leaves once the stay's posted room nights are taken off,
 * shared equally over them (the remainder on the last, as the tourist tax shares a price).
 */
export function nightShares(price: string, posted: bigint, unposted: readonly string[]): Map<string, bigint> {
  const shares = spread(
    parseMoney(price) - posted,
    unposted.map(() => 0n),
  );
  return new Map(unposted.map((night, index) => [night, shares[index]]));
}

/** The nights of a stay a check-out finds stayed: those before the day the guest left (the first if none). */
export function nightsStayed(booking: Pick<Booking, 'check_in' | 'check_out'>, leftOn: string): string[] {
  if (!booking.check_in || !booking.check_out) return [];
  const nights = nightsOf(booking.check_in, booking.check_out);
  const stayed = nights.filter((night) => night < leftOn);
  return stayed.length > 0 ? stayed : nights.slice(0, 1);
}
