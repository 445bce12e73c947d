import type { ReceiptInput, SettlementMethod, VatRate } from '../../integrations/atol';
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
 * What a payment (or a refund) of `cents` settles on the bill, for its receipt lines: money pays the lodging (the
 * price, less loyalty discounts) first and room service after it, and a refund gives back in the reverse order; what
 * goes beyond the whole bill is an advance on the lodging. `booking` is as the payment left it.
 */
export function paymentShares(booking: Booking, cents: bigint, roomService: bigint) {
  const lodgingDue = amountDue(booking) - roomService;
  const roomServicePaid = (paid: bigint) => {
    const beyondLodging = paid - lodgingDue;
    if (beyondLodging <= 0n) return 0n;
    return beyondLodging < roomService ? beyondLodging : roomService;
  };
  const paidAfter = parseMoney(booking.paid_amount);
  const moved = roomServicePaid(paidAfter) - roomServicePaid(paidAfter - cents);
  const roomServiceShare = moved < 0n ? -moved : moved;
  const whole = cents < 0n ? -cents : cents;
  return { lodging: whole - roomServiceShare, roomService: roomServiceShare };
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
  roomService: bigint,
): PaymentReceipt {
  const cents = parseMoney(payment.amount);
  const refund = cents < 0n;
  const amount = formatMoney(refund ? -cents : cents);
  const stay = booking.check_in ? ` ${day(booking.check_in)}–${day(booking.check_out)}` : '';
  const shares = paymentShares(booking, cents, roomService);
  const line = (name: string, cents: bigint, vat: VatRate) => ({
    name,
    unitPrice: formatMoney(cents),
    quantity: 1,
    vat,
    method: settlementOf(booking),
    object: 'service' as const,
  });
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
      lines: [
        ...(shares.lodging > 0n ? [line(`Проживание${stay}`, shares.lodging, settings.fiscal_vat)] : []),
        ...(shares.roomService > 0n
          ? [line('Обслуживание в номер', shares.roomService, settings.fiscal_vat_room_service)]
          : []),
      ],
      payments: [{ kind: RECEIPT_METHODS[payment.method], amount }],
    },
  };
}
