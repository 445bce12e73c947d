import type { DbOrTrx } from '../../platform/db/knex';
import { BusinessRuleError, NotFoundError } from '../../platform/errors';
import { fitsMoneyColumn, formatMoney, parseMoney } from '../../platform/money';
import type { BookingEffects } from './bookings.effects';
import type { LedgerFollowers } from './bookings.ledger';
import { amountDue, bookingMessages } from './bookings.present';
import type { BookingsRepository } from './bookings.repository';
import type { Booking, BookingCharge, BookingChargeInput, BookingChargeKind } from './bookings.types';

export interface AddedCharge {
  charge: BookingCharge;
  booking: Booking;
  /** False when the source was billed before: the earlier line is answered and nothing changed. */
  created: boolean;
}

/**
 * The lines of a stay's bill beside its price, added by other areas in their own transactions: room service delivered
 * to the room, loyalty points taken off. `charges_amount` is kept in step with the lines under the booking's lock.
 */
export function createBookingCharges({
  repository: { db, bookings },
  effects,
  ledger,
}: {
  repository: Pick<BookingsRepository, 'db' | 'bookings'>;
  effects: Pick<BookingEffects, 'announce'>;
  ledger: Pick<LedgerFollowers, 'tell'>;
}) {
  function refuseUnfit(booking: Booking, line: BookingChargeInput): void {
    if (booking.status === 'cancelled')
      throw new BusinessRuleError(bookingMessages.bookingClosed, [], 'booking_closed');
    const cents = parseMoney(line.amount);
    const charges = parseMoney(booking.charges_amount) + cents;
    if (!fitsMoneyColumn(charges)) throw new BusinessRuleError(bookingMessages.priceTooHigh, [], 'amount_limit');
    if (cents < 0n && amountDue(booking) + cents < 0n)
      throw new BusinessRuleError(bookingMessages.discountExceedsDue, [], 'discount_exceeds_due');
  }

  return {
    /**
     * In the caller's transaction: a charge (positive) or a discount (negative) on the stay, once per source. A repeat
     * answers the first line and changes nothing; a cancelled booking, or a discount beyond what the stay costs, is
     * refused (422).
     */
    async addWithin(trx: DbOrTrx, hotelId: string, bookingId: string, line: BookingChargeInput): Promise<AddedCharge> {
      const booking = await bookings.find(trx, hotelId, bookingId, { forUpdate: true });
      if (!booking) throw new NotFoundError(bookingMessages.notFound);
      const earlier = await bookings.findCharge(trx, hotelId, line.kind, line.source_id);
      if (earlier) return { charge: earlier, booking, created: false };
      refuseUnfit(booking, line);
      const amount = formatMoney(parseMoney(line.amount));
      const charge = await bookings.insertCharge(trx, hotelId, bookingId, { ...line, amount });
      // The booking's lock serializes lines of one booking; a source billed on another booking meanwhile loses here.
      if (!charge)
        return {
          charge: (await bookings.findCharge(trx, hotelId, line.kind, line.source_id))!,
          booking,
          created: false,
        };
      const updated = await bookings.addToCharges(trx, hotelId, bookingId, amount);
      await ledger.tell(trx, { kind: 'charge', booking: updated, charge });
      await effects.announce(trx, updated, 'booking_updated', { charges_amount: updated.charges_amount });
      return { charge, booking: updated, created: true };
    },

    async list(hotelId: string, bookingId: string): Promise<BookingCharge[]> {
      if (!(await bookings.find(db, hotelId, bookingId))) throw new NotFoundError(bookingMessages.notFound);
      return bookings.listCharges(db, hotelId, bookingId);
    },

    /** The sum of the stay's lines of one kind (room service, for the receipt of a payment), in the caller's transaction. */
    sum: (trx: DbOrTrx, hotelId: string, bookingId: string, kind: BookingChargeKind) =>
      bookings.sumCharges(trx, hotelId, bookingId, kind),
  };
}
