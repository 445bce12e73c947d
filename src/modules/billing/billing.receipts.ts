import type { ReceiptInput, ReceiptLine, SettlementMethod, VatRate } from '../../integrations/atol';
import { amountDue, type Booking } from '../bookings';
import type { DueKind } from '../folios';
import type { ReceiptShare } from './billing.shares';
import type { PaymentInput, PaymentSettings } from '../payments';
import { russianDate } from '../../platform/dates';
import { normalizePhone } from '../../platform/phone';
import { formatMoney, parseMoney } from '../../platform/money';

/** Only money that passes the desk's register gets its receipt there; transfers and online payments get theirs elsewhere. */
export const RECEIPT_METHODS = { cash: 'cash', card: 'card' } as const;

export interface PaymentReceipt {
  operation: 'sell' | 'sellReturn';
  source_kind: 'booking_payment' | 'refund';
  receipt: ReceiptInput;
}

/**
 * 54-FZ: money for a stay not yet begun is a prepayment (of all that was due, or of a part); from check-in on it pays
 * for the service itself. `booking` is as the payment left it.
 */
function settlementOf(booking: Booking): SettlementMethod {
  if (booking.status === 'checked_in' || booking.status === 'checked_out') return 'full_payment';
  return parseMoney(booking.paid_amount) >= amountDue(booking) ? 'full_prepayment' : 'prepayment';
}

type ReceiptVat = Pick<PaymentSettings, 'fiscal_vat'>;

/** Each thing's receipt line: its name and settlement object (docs/decisions/folio-charges-and-receipts.md). */
const THINGS: Record<DueKind, { name: string; object: ReceiptLine['object'] }> = {
  lodging: { name: 'Проживание', object: 'service' },
  // Not a sale of anything (the Federal Tax Service: not an object of settlement): "another object", without VAT.
  tourist_tax: { name: 'Туристический налог', object: 'another' },
  room_service: { name: 'Обслуживание в номер', object: 'service' },
  service: { name: 'Услуги', object: 'service' },
  minibar: { name: 'Мини-бар', object: 'commodity' },
  rental: { name: 'Аренда', object: 'service' },
};

/** A share as printed: the lodging at the hotel's lodging rate, the tourist tax without VAT, the rest at their lines'. */
export type PrintedShare = Omit<ReceiptShare, 'vat_rate'> & { vat_rate: VatRate };

export const printedShares = (shares: readonly ReceiptShare[], vat: ReceiptVat): PrintedShare[] =>
  shares.map((share) => ({
    ...share,
    vat_rate: share.kind === 'tourist_tax' ? 'none' : (share.vat_rate ?? vat.fiscal_vat),
  }));

const day = (date: string | null) => (date ? russianDate(date) : '');

/**
 * The receipt for a payment of a booking taken at a desk (`booking` as the payment left it): a sale, or a return for a refund
 * (a negative amount), a line per thing its `shares` pay (billing.shares.ts), paid in cash or by card; the guest's
 * e-mail or phone gets a copy.
 */
export function paymentReceipt(
  booking: Booking,
  payment: PaymentInput & { method: keyof typeof RECEIPT_METHODS },
  settings: Pick<PaymentSettings, 'fiscal_taxation' | 'fiscal_vat'>,
  operatorName: string,
  shares: readonly PrintedShare[],
): PaymentReceipt {
  const cents = parseMoney(payment.amount);
  const refund = cents < 0n;
  const amount = formatMoney(refund ? -cents : cents);
  const stay = booking.check_in ? ` ${day(booking.check_in)}–${day(booking.check_out)}` : '';
  const method = settlementOf(booking);
  const lines = shares.map(({ kind, vat_rate, amount }) => ({
    name: kind === 'lodging' ? `${THINGS.lodging.name}${stay}` : THINGS[kind].name,
    unitPrice: formatMoney(amount),
    quantity: 1,
    vat: vat_rate,
    method,
    object: THINGS[kind].object,
  }));
  // A phone that does not parse is never sent: the receipt then goes without a contact (printed at the desk).
  const phone = normalizePhone(booking.guest_phone);
  const contact = booking.guest_email ? { email: booking.guest_email } : phone && { phone };
  return {
    operation: refund ? 'sellReturn' : 'sell',
    source_kind: refund ? 'refund' : 'booking_payment',
    receipt: {
      operator: { name: operatorName },
      taxation: settings.fiscal_taxation,
      ...(contact && { customer: contact }),
      lines,
      payments: [{ kind: RECEIPT_METHODS[payment.method], amount }],
    },
  };
}
