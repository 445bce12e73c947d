import type { Knex } from 'knex';
import { hotelTable } from '../../platform/db/hotel-table';
import { pageOf, type Page, type PageRequest, type SortKey } from '../../platform/db/keyset';
import type { DbOrTrx } from '../../platform/db/knex';
import { settingsTable } from '../../platform/db/settings-table';
import type { ExpectedVersion } from '../../platform/http/concurrency';
import type {
  BookingPayment,
  DeductionPreset,
  GatewayColumns,
  GatewayProvider,
  HotelPaymentMethod,
  PaymentGatewayRow,
  PaymentMethodFilter,
  PaymentMethodInput,
  PaymentSettings,
  PaymentSettingsChanges,
} from './payments.types';

const settingsRows = settingsTable<PaymentSettings>('payment_settings');

export const paymentSettingsRepository = {
  ...settingsRows,

  update(db: DbOrTrx, hotelId: string, changes: PaymentSettingsChanges, expected?: ExpectedVersion): Promise<void> {
    const { deduction_presets: presets, ...plain } = changes;
    // A jsonb column takes JSON text: node-postgres would send an array as a PostgreSQL array.
    const presetsAsJson = presets && { deduction_presets: JSON.stringify(presets) as unknown as DeductionPreset[] };
    return settingsRows.update(db, hotelId, { ...plain, ...presetsAsJson }, expected);
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

const METHOD_ORDER: SortKey[] = [
  { sql: 'sort_order', type: 'integer' },
  { sql: 'name', type: 'text' },
  { sql: 'id', type: 'uuid' },
];

export const methodsRepository = {
  ...hotelTable<HotelPaymentMethod, PaymentMethodInput>('payment_methods'),

  async list(
    db: DbOrTrx,
    hotelId: string,
    filter: PaymentMethodFilter,
    page: PageRequest,
  ): Promise<Page<HotelPaymentMethod>> {
    const query = db('payment_methods').select('*').where({ hotel_id: hotelId });
    if (filter.is_active !== undefined) query.where({ is_active: filter.is_active });
    if (filter.type) query.where({ type: filter.type });
    return pageOf(db, query, METHOD_ORDER, page);
  },
};

const GATEWAY_ORDER: SortKey[] = [
  { sql: 'provider', type: 'text' },
  { sql: 'id', type: 'uuid' },
];

export const gatewaysRepository = {
  ...hotelTable<PaymentGatewayRow, GatewayColumns>('payment_gateways'),

  async list(db: DbOrTrx, hotelId: string, page: PageRequest): Promise<Page<PaymentGatewayRow>> {
    return pageOf(db, db('payment_gateways').select('*').where({ hotel_id: hotelId }), GATEWAY_ORDER, page);
  },

  async active(db: DbOrTrx, hotelId: string, provider: GatewayProvider): Promise<PaymentGatewayRow | undefined> {
    return db<PaymentGatewayRow>('payment_gateways').where({ hotel_id: hotelId, provider, is_active: true }).first();
  },

  /** Key rotation: up to `limit` gateways (of one hotel, when given) whose secret is under another key, locked. */
  async lockUnderOtherKey(
    trx: Knex.Transaction,
    selection: { currentKeyId: string; limit: number; hotelId?: string },
  ): Promise<PaymentGatewayRow[]> {
    const { currentKeyId, limit, hotelId } = selection;
    return trx<PaymentGatewayRow>('payment_gateways')
      .whereNot('secret_key_id', currentKeyId)
      .modify((query) => hotelId && query.where({ hotel_id: hotelId }))
      .limit(limit)
      .forUpdate();
  },

  /** Rewrites the secret's envelope only: re-encryption is not a change of the gateway, `updated_at` stays. */
  async setSecret(
    db: DbOrTrx,
    hotelId: string,
    id: string,
    columns: Pick<PaymentGatewayRow, 'secret_key_encrypted' | 'secret_key_id'>,
  ): Promise<void> {
    await db('payment_gateways').where({ hotel_id: hotelId, id }).update(columns);
  },
};
