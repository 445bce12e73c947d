import type { DbOrTrx } from '../../platform/db/knex';
import type { BookingPayment, PaymentSettings } from './payments.types';

export const paymentSettingsRepository = {
  async insertDefaults(db: DbOrTrx, hotelId: string): Promise<void> {
    await db('payment_settings').insert({ hotel_id: hotelId }).onConflict('hotel_id').ignore();
  },

  /** Every hotel has its row from registration on. */
  async get(db: DbOrTrx, hotelId: string): Promise<PaymentSettings> {
    return (await db<PaymentSettings>('payment_settings').where({ hotel_id: hotelId }).first())!;
  },

  async update(db: DbOrTrx, hotelId: string, changes: Partial<Pick<PaymentSettings, 'require_payment_checkin'>>) {
    await db('payment_settings')
      .where({ hotel_id: hotelId })
      .update({ ...changes, updated_at: db.fn.now() });
    return this.get(db, hotelId);
  },
};

export const ledgerRepository = {
  async list(db: DbOrTrx, hotelId: string, bookingId: string): Promise<BookingPayment[]> {
    return db<BookingPayment>('booking_payments')
      .where({ hotel_id: hotelId, booking_id: bookingId })
      .orderBy('paid_at');
  },

  async insert(db: DbOrTrx, hotelId: string, payment: Partial<BookingPayment>): Promise<BookingPayment> {
    const [row] = await db<BookingPayment>('booking_payments')
      .insert({ ...payment, hotel_id: hotelId })
      .returning('*');
    return row;
  },

  async delete(db: DbOrTrx, hotelId: string, bookingId: string, id: string): Promise<BookingPayment | undefined> {
    const [row] = await db<BookingPayment>('booking_payments')
      .where({ hotel_id: hotelId, booking_id: bookingId, id })
      .delete()
      .returning('*');
    return row;
  },
};
