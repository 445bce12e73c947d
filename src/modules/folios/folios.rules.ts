import type { VatRate } from '../../integrations/atol';
import { formatMoney, parseMoney, sumMoney } from '../../platform/money';
import type { Booking, LedgerEntry } from '../bookings';
import { nightsOf, spread, type StayTax } from '../tourist-tax';
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
  const next = new Date(`${closedThrough}T00:00:00Z`);
  next.setUTCDate(next.getUTCDate() + 1);
  return next.toISOString().slice(0, 10);
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

/**
 * A stay's nights as lines: its price shared equally among them (the remainder on the last, as the tourist tax shares
 * it), each with its tax beside it when the hotel charges the tax. An hourly stay is one line of its whole price.
 */
export function stayLines(booking: Booking, tax: StayTax, vat: HotelVat, today: string): LineInput[] {
  const night = (date: string, amount: bigint, key: string): LineInput => ({
    kind: 'room_night',
    amount: formatMoney(amount),
    vat_rate: vat.lodging,
    description: `Проживание, ночь ${date}`,
    source: `room_night:${booking.id}:${key}`,
    posted_via: 'check_in',
    business_date: date,
  });
  if (!booking.check_in || !booking.check_out) return [night(today, parseMoney(booking.price), 'hourly')];
  const nights = nightsOf(booking.check_in, booking.check_out);
  const prices = spread(
    parseMoney(booking.price),
    nights.map(() => 0n),
  );
  const lines = nights.map((date, index) => night(date, prices[index], date));
  const taxes: LineInput[] = tax.per_night
    .filter((nightTax) => parseMoney(nightTax.tax) > 0n)
    .map((nightTax) => ({
      kind: 'tourist_tax',
      amount: formatMoney(parseMoney(nightTax.tax)),
      vat_rate: 'none',
      description: `Туристический налог, ночь ${nightTax.date}`,
      source: `tourist_tax:${booking.id}:${nightTax.date}`,
      posted_via: 'check_in',
      business_date: nightTax.date,
    }));
  return [...lines, ...taxes];
}
