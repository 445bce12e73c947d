import { idempotent } from '../../platform/db/idempotency';
import type { Db, DbOrTrx } from '../../platform/db/knex';
import { transactionWithRetry } from '../../platform/db/retry';
import { BusinessRuleError, NotFoundError } from '../../platform/errors';
import type { WorkstationDevice } from '../agents';
import type { FiscalService } from '../fiscal';
import type { BookingPayment, PaymentInput, PaymentsService } from '../payments';
import type { UsersService } from '../users';
import { paymentReceipt, RECEIPT_METHODS } from './bookings.receipts';
import { fitsMoneyColumn, formatMoney, parseMoney } from '../../platform/money';
import { announceBooking } from './bookings.effects';
import { bookingMessages, presentBooking } from './bookings.present';
import { bookingsRepository } from './bookings.repository';
import type { Booking } from './bookings.types';

/** Payments add up in `paid_amount`: a sum its column cannot hold is refused, whichever way it grows. */
function assertPaidFits(booking: Booking, changeCents: bigint): void {
  if (!fitsMoneyColumn(parseMoney(booking.paid_amount) + changeCents))
    throw new BusinessRuleError(bookingMessages.paidOutOfRange, [], 'amount_limit');
}

/**
 * A booking's payments: rows of the payments module's ledger, with the booking's `paid_amount` kept in step in the
 * same transaction (the booking row locked meanwhile) and the change shown to staff.
 */
export interface ReceiptDependencies {
  payments: Pick<PaymentsService, 'ledger' | 'settingsOf'>;
  fiscal: Pick<FiscalService, 'issue' | 'registerAt'>;
  users: Pick<UsersService, 'findInHotel'>;
}

/** A payment as the desk records it: `workstation_id` names the desk whose fiscal register prints its receipt. */
export type DeskPaymentInput = PaymentInput & { workstation_id?: string };

export function createBookingPayments(db: Db, { payments, fiscal, users }: ReceiptDependencies) {
  async function lockBooking(trx: DbOrTrx, hotelId: string, id: string) {
    const booking = await bookingsRepository.find(trx, hotelId, id, { forUpdate: true });
    if (!booking) throw new NotFoundError(bookingMessages.notFound);
    return booking;
  }

  /** Records a payment of a booking whose row the caller holds locked; returns the payment and the booking after. */
  async function record(trx: DbOrTrx, booking: Booking, payment: PaymentInput, createdBy: string | null) {
    assertPaidFits(booking, parseMoney(payment.amount));
    const row = await payments.ledger.record(trx, booking.hotel_id, booking.id, payment, createdBy);
    const updated = await bookingsRepository.addToPaid(trx, booking.hotel_id, booking.id, payment.amount);
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
    await announceBooking(trx, recorded.booking, 'booking_updated', { paid_amount: recorded.booking.paid_amount });
    return recorded;
  }

  async function deskRegister(hotelId: string, workstationId: string, payment: PaymentInput) {
    if (!(payment.method in RECEIPT_METHODS)) {
      throw new BusinessRuleError(bookingMessages.receiptMethod, [], 'receipt_method');
    }
    return fiscal.registerAt(hotelId, workstationId);
  }

  async function receiptFor(
    trx: DbOrTrx,
    recorded: { payment: BookingPayment; booking: Booking },
    payment: PaymentInput,
    register: WorkstationDevice,
    createdBy: string | null,
  ) {
    const { hotel_id: hotelId } = recorded.booking;
    const settings = await payments.settingsOf(hotelId, trx);
    const operator = createdBy ? await users.findInHotel(hotelId, createdBy) : undefined;
    const method = payment.method as keyof typeof RECEIPT_METHODS;
    const { id: bookingId } = recorded.booking;
    const roomService = await bookingsRepository.sumCharges(trx, hotelId, bookingId, 'room_service');
    const described = paymentReceipt(
      recorded.booking,
      { ...payment, method },
      settings,
      operator?.name ?? 'Кассир',
      parseMoney(roomService),
    );
    return {
      ...described,
      source_id: recorded.payment.id,
      workstation_id: register.workstation_id,
      device_id: register.id,
    };
  }

  return {
    record,
    recordWithin,

    async list(hotelId: string, bookingId: string) {
      if (!(await bookingsRepository.find(db, hotelId, bookingId))) throw new NotFoundError(bookingMessages.notFound);
      return payments.ledger.list(hotelId, bookingId);
    },

    /**
     * Idempotent with `Idempotency-Key`, like booking creation. Taken at a desk (`workstation_id`), its receipt is
     * recorded and sent to that desk's register in the same transaction: no register there, or money that does not pass
     * it (a transfer), is a 422 and nothing is recorded.
     */
    async create(
      hotel: { id: string; slug: string },
      bookingId: string,
      { workstation_id: desk, ...payment }: DeskPaymentInput,
      createdBy: string | null,
      idempotencyKey?: string,
    ) {
      const body = { ...payment, workstation_id: desk };
      return transactionWithRetry(db, (trx) =>
        idempotent(
          trx,
          { hotelId: hotel.id, scope: `payments.create:${bookingId}`, key: idempotencyKey, body },
          async () => {
            const register = desk && (await deskRegister(hotel.id, desk, payment));
            const recorded = await recordWithin(trx, hotel.id, bookingId, payment, createdBy);
            const receipt = register
              ? await fiscal.issue(trx, hotel, await receiptFor(trx, recorded, payment, register, createdBy), bookingId)
              : null;
            return {
              status: 201,
              body: { payment: recorded.payment, booking: presentBooking(recorded.booking), fiscal_receipt: receipt },
            };
          },
        ),
      );
    },

    async remove(hotelId: string, bookingId: string, paymentId: string) {
      return transactionWithRetry(db, async (trx) => {
        const booking = await lockBooking(trx, hotelId, bookingId);
        const removed = await payments.ledger.remove(trx, hotelId, bookingId, paymentId);
        if (!removed) throw new NotFoundError(bookingMessages.paymentNotFound);
        const refund = -parseMoney(removed.amount);
        assertPaidFits(booking, refund);
        const updated = await bookingsRepository.addToPaid(trx, hotelId, bookingId, formatMoney(refund));
        await announceBooking(trx, updated, 'booking_updated', { paid_amount: updated.paid_amount });
        return presentBooking(updated);
      });
    },
  };
}
