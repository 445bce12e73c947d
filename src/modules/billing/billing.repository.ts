import { hotelTable } from '../../platform/db/hotel-table';
import type { DbOrTrx } from '../../platform/db/knex';
import type { VatRate } from '../../integrations/atol';
import { formatMoney, parseMoney } from '../../platform/money';
import type { DueKind } from '../folios';
import type { PrintedShare } from './billing.receipts';
import type { ReceiptShare } from './billing.shares';
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

/** What each desk receipt of a stay gave each thing at its VAT rate (migration 102), as billing.shares.ts reads it. */
export const receiptSharesRepository = {
  async ofBooking(db: DbOrTrx, hotelId: string, bookingId: string): Promise<ReceiptShare[]> {
    const rows = (await db('receipt_shares')
      .where({ hotel_id: hotelId, booking_id: bookingId })
      .groupBy('kind', 'vat_rate')
      .select('kind', 'vat_rate', db.raw('sum(amount)::text AS amount'))) as {
      kind: DueKind;
      vat_rate: VatRate;
      amount: string;
    }[];
    return rows.map((row) => ({ ...row, amount: parseMoney(row.amount) }));
  },

  async insert(db: DbOrTrx, hotelId: string, bookingId: string, paymentId: string, shares: PrintedShare[]) {
    if (shares.length === 0) return;
    await db('receipt_shares').insert(
      shares.map((share) => ({
        hotel_id: hotelId,
        booking_id: bookingId,
        payment_id: paymentId,
        kind: share.kind,
        vat_rate: share.vat_rate,
        amount: formatMoney(share.amount),
      })),
    );
  },
};
