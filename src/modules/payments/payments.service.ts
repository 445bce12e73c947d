import type { Db, DbOrTrx } from '../../platform/db/knex';

export const CHECKIN_PAYMENT_LEVELS = ['none', 'soft', 'hard'] as const;
export type CheckinPaymentLevel = (typeof CHECKIN_PAYMENT_LEVELS)[number];

export interface PaymentSettings {
  hotel_id: string;
  require_payment_checkin: CheckinPaymentLevel;
  updated_at: Date;
}

export const paymentSettingsRepository = {
  /** Every hotel has payment settings: the defaults row is made on first use. */
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

export function createPaymentsService(db: Db) {
  return {
    getSettings: (hotelId: string) => paymentSettingsRepository.get(db, hotelId),
    updateSettings: (hotelId: string, changes: Partial<Pick<PaymentSettings, 'require_payment_checkin'>>) =>
      paymentSettingsRepository.update(db, hotelId, changes),
  };
}

export type PaymentsService = ReturnType<typeof createPaymentsService>;
