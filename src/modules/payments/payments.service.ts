import type { PageRequest } from '../../platform/db/keyset';
import type { Db, DbOrTrx } from '../../platform/db/knex';
import { ValidationError } from '../../platform/errors';
import type { ExpectedVersion } from '../../platform/http/concurrency';
import { parseMoney } from '../../platform/money';
import { createGatewaysService } from './payments.gateways';
import type { PaymentsConfig } from './payments.env';
import { createProvider } from './payments.provider';
import { hotelRecords } from './payments.records';
import { ledgerRepository, methodsRepository, paymentSettingsRepository } from './payments.repository';
import type {
  BookingPayment,
  PaymentInput,
  PaymentMethodFilter,
  PaymentMethodInput,
  PaymentSettingsChanges,
} from './payments.types';

export const paymentMessages = {
  zeroPayment: 'Сумма платежа не может быть нулевой',
  methodNotFound: 'Способ оплаты не найден',
};

export function createPaymentsService(db: Db, config: PaymentsConfig) {
  const methodRecords = hotelRecords(db, methodsRepository, paymentMessages.methodNotFound);
  const gateways = createGatewaysService(db, config);

  return {
    getSettings: (hotelId: string) => paymentSettingsRepository.get(db, hotelId),
    /** The hotel's whole payment settings row (deposit rules included), within the caller's transaction when given. */
    settingsOf: (hotelId: string, conn: DbOrTrx = db) => paymentSettingsRepository.get(conn, hotelId),
    async updateSettings(hotelId: string, changes: PaymentSettingsChanges, expected?: ExpectedVersion) {
      await paymentSettingsRepository.update(db, hotelId, changes, expected);
      return paymentSettingsRepository.get(db, hotelId);
    },

    /** The ways of paying the hotel's desk offers, in the order staff arranged them. */
    methods: {
      list: (hotelId: string, { limit, cursor, ...filter }: PaymentMethodFilter & PageRequest) =>
        methodsRepository.list(db, hotelId, filter, { limit, cursor }),
      ...methodRecords,
      create: (hotelId: string, input: PaymentMethodInput) => methodsRepository.insert(db, hotelId, input),
    },

    gateways,

    /** The payment provider (YooKassa) with the hotel's credentials: every call to it goes through this. */
    provider: createProvider(config, gateways),
    /** The provider's and the money workflows' settings, for the areas that take money through it. */
    moneyConfig: config,

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
