import type { DbOrTrx } from '../../platform/db/knex';
import { settingsTable } from '../../platform/db/settings-table';
import type { BookingPayment, PaymentSettings } from './payments.types';

export const paymentSettingsRepository = settingsTable<PaymentSettings>('payment_settings');

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
