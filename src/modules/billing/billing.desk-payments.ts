import { idempotent } from '../../platform/db/idempotency';
import type { Db, DbOrTrx } from '../../platform/db/knex';
import { transactionWithRetry } from '../../platform/db/retry';
import { BusinessRuleError } from '../../platform/errors';
import { parseMoney } from '../../platform/money';
import type { WorkstationDevice } from '../agents';
import { presentBooking, type Booking, type BookingsService } from '../bookings';
import type { FiscalService } from '../fiscal';
import type { FoliosService } from '../folios';
import type { BookingPayment, PaymentInput, PaymentsService } from '../payments';
import type { UsersService } from '../users';
import { paymentReceipt, printedShares, RECEIPT_METHODS } from './billing.receipts';
import { receiptSharesRepository } from './billing.repository';
import { paymentShares } from './billing.shares';

export const deskPaymentMessages = {
  receiptMethod: 'Чек на кассе печатается только для оплаты наличными или картой',
};

export interface DeskPaymentsDependencies {
  bookings: Pick<BookingsService, 'get' | 'payments'>;
  payments: Pick<PaymentsService, 'ledger' | 'settingsOf'>;
  fiscal: Pick<FiscalService, 'issue' | 'registerAt'>;
  folios: Pick<FoliosService, 'receiptDues'>;
  users: Pick<UsersService, 'findInHotel'>;
}

/** A payment as the desk records it: `workstation_id` names the desk whose fiscal register prints its receipt. */
export type DeskPaymentInput = PaymentInput & { workstation_id?: string };

/**
 * The payments of a booking staff record at the desk: rows of the payments module's ledger, which the bookings module
 * records with the booking's `paid_amount` in step, and the fiscal receipt a payment taken at a desk triggers.
 */
export function createDeskPayments(db: Db, { bookings, payments, fiscal, folios, users }: DeskPaymentsDependencies) {
  async function deskRegister(hotelId: string, workstationId: string, payment: PaymentInput) {
    if (!(payment.method in RECEIPT_METHODS)) {
      throw new BusinessRuleError(deskPaymentMessages.receiptMethod, [], 'receipt_method');
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
    const { id: bookingId, paid_amount: paidAfter } = recorded.booking;
    const cents = parseMoney(payment.amount);
    const dues = await folios.receiptDues(trx, hotelId, recorded.booking);
    const receipted = await receiptSharesRepository.ofBooking(trx, hotelId, bookingId);
    const split = paymentShares(cents, dues, receipted, parseMoney(paidAfter) - cents);
    const shares = printedShares(split, settings);
    const sign = cents < 0n ? -1n : 1n;
    const given = shares.map((share) => ({ ...share, amount: share.amount * sign }));
    await receiptSharesRepository.insert(trx, hotelId, bookingId, recorded.payment.id, given);
    const described = paymentReceipt(
      recorded.booking,
      { ...payment, method },
      settings,
      operator?.name ?? 'Кассир',
      shares,
    );
    return {
      ...described,
      source_id: recorded.payment.id,
      workstation_id: register.workstation_id,
      device_id: register.id,
    };
  }

  return {
    async list(hotelId: string, bookingId: string) {
      await bookings.get(hotelId, bookingId);
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
            const recorded = await bookings.payments.recordWithin(trx, hotel.id, bookingId, payment, createdBy);
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

    remove: bookings.payments.remove,
  };
}

export type DeskPayments = ReturnType<typeof createDeskPayments>;
