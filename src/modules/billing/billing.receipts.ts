import type { ReceiptInput, ReceiptLine, SettlementMethod } from '../../integrations/atol';
import { amountDue, type Booking } from '../bookings';
import type { PaymentInput, PaymentSettings } from '../payments';
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

/**
 * What the stay owes besides its lodging, in kopecks, from its guest folio (folios `receiptDues`) and its room service
 * charges: each has its own receipt line.
 */
export interface StayDues {
  touristTax: bigint;
  roomService: bigint;
  minibar: bigint;
  rental: bigint;
}

/** The order money settles the bill in after the lodging (a refund gives back in the reverse order). */
const DUE_ORDER = ['touristTax', 'roomService', 'minibar', 'rental'] as const satisfies readonly (keyof StayDues)[];

export type PaymentShares = StayDues & { lodging: bigint };

/**
 * What a payment (or a refund) of `cents` settles on the bill, for its receipt lines: money pays the lodging (the
 * price, less loyalty discounts) first, then the tourist tax, room service, the minibar and rentals, each up to what it
 * owes; a refund gives back in the reverse order; what goes beyond the whole bill is an advance on the lodging.
 * `booking` is as the payment left it.
 */
export function paymentShares(booking: Booking, cents: bigint, dues: StayDues): PaymentShares {
  const paidAfter = parseMoney(booking.paid_amount);
  const whole = cents < 0n ? -cents : cents;
  const shares: PaymentShares = { lodging: 0n, touristTax: 0n, roomService: 0n, minibar: 0n, rental: 0n };
  let start = amountDue(booking) - dues.roomService;
  const covered = (paid: bigint, due: bigint) => {
    const beyond = paid - start;
    return beyond <= 0n ? 0n : beyond < due ? beyond : due;
  };
  for (const key of DUE_ORDER) {
    const moved = covered(paidAfter, dues[key]) - covered(paidAfter - cents, dues[key]);
    shares[key] = moved < 0n ? -moved : moved;
    start += dues[key];
  }
  shares.lodging = whole - DUE_ORDER.reduce((sum, key) => sum + shares[key], 0n);
  return shares;
}

type ReceiptVat = Pick<PaymentSettings, 'fiscal_vat' | 'fiscal_vat_room_service'>;

/**
 * A receipt line per share the payment settles, each with its name, VAT and settlement object (docs/decisions/
 * receipts.md): the lodging and rentals are services; room service and the minibar are sold at the hotel's rate for
 * what is not lodging, the minibar as goods; the tourist tax is not a sale of anything (the Federal Tax Service: it is
 * not an object of settlement), so it goes as "another object" without VAT.
 */
function receiptLines(shares: PaymentShares, lodging: string, vat: ReceiptVat) {
  const described: Array<Omit<ReceiptLine, 'unitPrice' | 'quantity' | 'method'> & { share: bigint }> = [
    { name: lodging, share: shares.lodging, vat: vat.fiscal_vat, object: 'service' },
    { name: 'Туристический налог', share: shares.touristTax, vat: 'none', object: 'another' },
    { name: 'Обслуживание в номер', share: shares.roomService, vat: vat.fiscal_vat_room_service, object: 'service' },
    { name: 'Мини-бар', share: shares.minibar, vat: vat.fiscal_vat_room_service, object: 'commodity' },
    { name: 'Аренда', share: shares.rental, vat: vat.fiscal_vat_room_service, object: 'service' },
  ];
  return described.filter((line) => line.share > 0n);
}

const day = (date: string | null) => (date ? date.split('-').reverse().join('.') : '');

/**
 * The receipt for a payment of a booking taken at a desk (`booking` as the payment left it): a sale, or a return for a refund
 * (a negative amount), of the stay as a service, paid in cash or by card; the guest's e-mail or phone gets a copy.
 */
export function paymentReceipt(
  booking: Booking,
  payment: PaymentInput & { method: keyof typeof RECEIPT_METHODS },
  settings: Pick<PaymentSettings, 'fiscal_taxation' | 'fiscal_vat' | 'fiscal_vat_room_service'>,
  operatorName: string,
  dues: StayDues,
): PaymentReceipt {
  const cents = parseMoney(payment.amount);
  const refund = cents < 0n;
  const amount = formatMoney(refund ? -cents : cents);
  const stay = booking.check_in ? ` ${day(booking.check_in)}–${day(booking.check_out)}` : '';
  const shares = paymentShares(booking, cents, dues);
  const method = settlementOf(booking);
  const lines = receiptLines(shares, `Проживание${stay}`, settings).map(({ share, ...line }) => ({
    ...line,
    unitPrice: formatMoney(share),
    quantity: 1,
    method,
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
