import { hotelTable } from '../../platform/db/hotel-table';
import type { DbOrTrx } from '../../platform/db/knex';
import type { OnlinePayment } from './billing.types';

const onlinePaymentRows = hotelTable<OnlinePayment, Partial<OnlinePayment>>('online_payments');

export const onlinePaymentsRepository = {
  insert: onlinePaymentRows.insert,

  find(db: DbOrTrx, hotelId: string, id: string, { forUpdate = false } = {}): Promise<OnlinePayment | undefined> {
    const query = db<OnlinePayment>('online_payments').where({ hotel_id: hotelId, id }).first();
    return (forUpdate ? query.forUpdate() : query) as Promise<OnlinePayment | undefined>;
  },

  // The callers hold the row (or have just read it), so an update always finds it.
  update: (db: DbOrTrx, hotelId: string, id: string, changes: Partial<OnlinePayment>) =>
    onlinePaymentRows.update(db, hotelId, id, changes) as Promise<OnlinePayment>,

  /**
   * The online payment (of whichever hotel) that follows a provider payment: the provider's notification names only
   * the payment, so this lookup is not scoped by a hotel; what it finds is then acted on within that hotel.
   */
  byProviderPayment: (db: DbOrTrx, providerPaymentId: string): Promise<OnlinePayment | undefined> =>
    db<OnlinePayment>('online_payments').where({ provider_payment_id: providerPaymentId }).first(),

  async forBooking(db: DbOrTrx, hotelId: string, bookingId: string): Promise<OnlinePayment[]> {
    return db('online_payments').where({ hotel_id: hotelId, booking_id: bookingId }).orderBy(['created_at', 'id']);
  },
};
