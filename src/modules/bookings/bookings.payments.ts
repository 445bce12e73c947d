import type { DbOrTrx } from '../../platform/db/knex';
import { BusinessRuleError, NotFoundError } from '../../platform/errors';
import type { PaymentInput, PaymentsService } from '../payments';
import { fitsMoneyColumn, formatMoney, parseMoney } from '../../platform/money';
import type { BookingEffects } from './bookings.effects';
import type { LedgerFollowers } from './bookings.ledger';
import { bookingMessages, presentBooking } from './bookings.present';
import type { BookingsRepository } from './bookings.repository';
import type { Booking } from './bookings.types';

/** Payments add up in `paid_amount`: a sum its column cannot hold is refused, whichever way it grows. */
function assertPaidFits(booking: Booking, changeCents: bigint): void {
  if (!fitsMoneyColumn(parseMoney(booking.paid_amount) + changeCents))
    throw new BusinessRuleError(bookingMessages.paidOutOfRange, [], 'amount_limit');
}

/**
 * A booking's payments: rows of the payments module's ledger, with the booking's `paid_amount` kept in step in the
 * same transaction (the booking row locked meanwhile) and the change shown to staff. The desk's flow around them (the
 * fiscal receipt a payment triggers) is the billing module's.
 */
export function createBookingPayments({
  repository: { transaction, bookings },
  effects,
  payments,
  ledger,
}: {
  repository: Pick<BookingsRepository, 'transaction' | 'bookings'>;
  effects: Pick<BookingEffects, 'announce'>;
  payments: Pick<PaymentsService, 'ledger'>;
  ledger: Pick<LedgerFollowers, 'tell'>;
}) {
  async function lockBooking(trx: DbOrTrx, hotelId: string, id: string) {
    const booking = await bookings.find(trx, hotelId, id, { forUpdate: true });
    if (!booking) throw new NotFoundError(bookingMessages.notFound);
    return booking;
  }

  /** Records a payment of a booking whose row the caller holds locked; returns the payment and the booking after. */
  async function record(trx: DbOrTrx, booking: Booking, payment: PaymentInput, createdBy: string | null) {
    assertPaidFits(booking, parseMoney(payment.amount));
    const row = await payments.ledger.record(trx, booking.hotel_id, booking.id, payment, createdBy);
    const updated = await bookings.addToPaid(trx, booking.hotel_id, booking.id, payment.amount);
    await ledger.tell(trx, { kind: 'payment', booking: updated, payment: row });
    return { payment: row, booking: updated };
  }

  /** Records a payment in the caller's transaction (the booking locked for it) and shows the change to staff. */
  async function recordWithin(
    trx: DbOrTrx,
    hotelId: string,
    bookingId: string,
    payment: PaymentInput,
    createdBy: string | null,
  ) {
    const booking = await lockBooking(trx, hotelId, bookingId);
    const recorded = await record(trx, booking, payment, createdBy);
    await effects.announce(trx, recorded.booking, 'booking_updated', { paid_amount: recorded.booking.paid_amount });
    return recorded;
  }

  return {
    record,
    recordWithin,

    async remove(hotelId: string, bookingId: string, paymentId: string, removedBy: string) {
      return transaction(async (trx) => {
        const booking = await lockBooking(trx, hotelId, bookingId);
        const removed = await payments.ledger.remove(trx, hotelId, bookingId, paymentId);
        if (!removed) throw new NotFoundError(bookingMessages.paymentNotFound);
        const refund = -parseMoney(removed.amount);
        assertPaidFits(booking, refund);
        const updated = await bookings.addToPaid(trx, hotelId, bookingId, formatMoney(refund));
        await ledger.tell(trx, { kind: 'payment_removed', booking: updated, payment: removed, removedBy });
        await effects.announce(trx, updated, 'booking_updated', { paid_amount: updated.paid_amount });
        return presentBooking(updated);
      });
    },
  };
}
