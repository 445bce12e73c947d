import type { Db, DbOrTrx } from '../../platform/db/knex';
import { ValidationError } from '../../platform/errors';
import type { ExpectedVersion } from '../../platform/http/concurrency';
import { parseMoney } from '../pricing';
import { ledgerRepository, paymentSettingsRepository } from './payments.repository';
import type { BookingPayment, PaymentInput, PaymentSettings } from './payments.types';

export const paymentMessages = {
  zeroPayment: 'Сумма платежа не может быть нулевой',
};

export function createPaymentsService(db: Db) {
  return {
    getSettings: (hotelId: string) => paymentSettingsRepository.get(db, hotelId),
    settingsOf: (hotelId: string, conn: DbOrTrx = db) => paymentSettingsRepository.get(conn, hotelId),
    async updateSettings(
      hotelId: string,
      changes: Partial<Pick<PaymentSettings, 'require_payment_checkin'>>,
      expected?: ExpectedVersion,
    ) {
      await paymentSettingsRepository.update(db, hotelId, changes, expected);
      return paymentSettingsRepository.get(db, hotelId);
    },

    /**
     * The payment ledger of bookings: rows of money received (or returned, as negative amounts). The bookings
     * module keeps each booking's `paid_amount` in step, in the same transaction.
     */
    ledger: {
      list: (hotelId: string, bookingId: string) => ledgerRepository.list(db, hotelId, bookingId),

      async record(
        trx: DbOrTrx,
        hotelId: string,
        bookingId: string,
        payment: PaymentInput,
        createdBy: string | null,
      ): Promise<BookingPayment> {
        if (parseMoney(payment.amount) === 0n) {
          throw new ValidationError(paymentMessages.zeroPayment, [
            { path: 'body.amount', message: paymentMessages.zeroPayment },
          ]);
        }
        return ledgerRepository.insert(trx, hotelId, {
          booking_id: bookingId,
          amount: payment.amount,
          method: payment.method,
          note: payment.note ?? '',
          ...(payment.paid_at && { paid_at: payment.paid_at }),
          created_by: createdBy,
        });
      },

      /** The removed row, or undefined when the booking has no payment by that id. */
      remove: (trx: DbOrTrx, hotelId: string, bookingId: string, paymentId: string) =>
        ledgerRepository.delete(trx, hotelId, bookingId, paymentId),
    },
  };
}

export type PaymentsService = ReturnType<typeof createPaymentsService>;
