import type { ReceiptInput, SettlementMethod } from '../../integrations/atol';
import type { PaymentInput, PaymentSettings } from '../payments';
import { formatMoney, parseMoney } from '../pricing';
import { amountDue } from './bookings.present';
import type { Booking } from './bookings.types';

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

const day = (date: string | null) => (date ? date.split('-').reverse().join('.') : '');

/**
 * The receipt for a payment of a booking taken at a desk (`booking` as the payment left it): a sale, or a return for a refund
 * (a negative amount), of the stay as a service, paid in cash or by card; the guest's e-mail or phone gets a copy.
 */
export function paymentReceipt(
  booking: Booking,
  payment: PaymentInput & { method: keyof typeof RECEIPT_METHODS },
  settings: Pick<PaymentSettings, 'fiscal_taxation' | 'fiscal_vat'>,
  operatorName: string,
): PaymentReceipt {
  const cents = parseMoney(payment.amount);
  const refund = cents < 0n;
  const amount = formatMoney(refund ? -cents : cents);
  const stay = booking.check_in ? ` ${day(booking.check_in)}–${day(booking.check_out)}` : '';
  const contact = booking.guest_email
    ? { email: booking.guest_email }
    : booking.guest_phone && { phone: booking.guest_phone };
  return {
    operation: refund ? 'sellReturn' : 'sell',
    source_kind: refund ? 'refund' : 'booking_payment',
    receipt: {
      operator: { name: operatorName },
      taxation: settings.fiscal_taxation,
      ...(contact && { customer: contact }),
      lines: [
        {
          name: `Проживание${stay}`,
          unitPrice: amount,
          quantity: 1,
          vat: settings.fiscal_vat,
          method: settlementOf(booking),
          object: 'service',
        },
      ],
      payments: [{ kind: RECEIPT_METHODS[payment.method], amount }],
    },
  };
}
