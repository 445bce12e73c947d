import { pageOf, type Page, type PageRequest, type SortKey } from '../../platform/db/keyset';
import { hotelTable } from '../../platform/db/hotel-table';
import type { DbOrTrx } from '../../platform/db/knex';
import type { Deduction, Deposit, DepositHistoryRow, DepositRefund } from './deposits.types';

const HISTORY_ORDER: readonly SortKey[] = [
  { sql: 'd.created_at', type: 'timestamptz', desc: true },
  { sql: 'd.id', type: 'uuid', desc: true },
];

type Lock = { forUpdate?: boolean };

/** A row of a deposits table by its hotel and id, optionally locked for the rest of the transaction. */
function byId<Row>(table: string) {
  return (db: DbOrTrx, hotelId: string, id: string, { forUpdate }: Lock = {}): Promise<Row | undefined> => {
    const query = db(table).where({ hotel_id: hotelId, id }).first();
    return forUpdate ? query.forUpdate() : query;
  };
}

// The shared record factory writes them; the callers hold the row locked, so an update always finds it.
const depositRows = hotelTable<Deposit, Partial<Deposit>>('deposits');
const refundRows = hotelTable<DepositRefund, Partial<DepositRefund>>('deposit_refunds');

export const depositsRepository = {
  find: byId<Deposit>('deposits'),
  insert: depositRows.insert,

  /** knex would write an array as a PostgreSQL array: the jsonb deductions go as JSON text. */
  update: (db: DbOrTrx, hotelId: string, id: string, { deductions, ...changes }: Partial<Deposit>) =>
    depositRows.update(db, hotelId, id, {
      ...changes,
      ...(deductions && { deductions: JSON.stringify(deductions) as unknown as Deduction[] }),
    }) as Promise<Deposit>,

  /**
   * The deposit (of whichever hotel) that follows a provider payment: the provider's notification names only the
   * payment, so this lookup is not scoped by a hotel; what it finds is then acted on within that hotel.
   */
  byProviderPayment: (db: DbOrTrx, providerPaymentId: string): Promise<Deposit | undefined> =>
    db<Deposit>('deposits').where({ provider_payment_id: providerPaymentId }).first(),

  /** The booking's latest deposit (the one its routes act on). */
  async latestForBooking(db: DbOrTrx, hotelId: string, bookingId: string, { forUpdate }: Lock = {}) {
    const query = db<Deposit>('deposits')
      .where({ hotel_id: hotelId, booking_id: bookingId })
      .orderBy([
        { column: 'created_at', order: 'desc' },
        { column: 'id', order: 'desc' },
      ])
      .first();
    return (forUpdate ? query.forUpdate() : query) as Promise<Deposit | undefined>;
  },

  /** The booking's latest `limit` deposits, newest first (the booking's timeline). */
  ofBooking: (db: DbOrTrx, hotelId: string, bookingId: string, limit: number): Promise<Deposit[]> =>
    db('deposits').where({ hotel_id: hotelId, booking_id: bookingId }).orderBy('created_at', 'desc').limit(limit),

  async history(db: DbOrTrx, hotelId: string, page: PageRequest): Promise<Page<DepositHistoryRow>> {
    const query = db('deposits as d')
      .join('bookings as b', function joinBooking() {
        this.on('b.hotel_id', 'd.hotel_id').andOn('b.id', 'd.booking_id');
      })
      .join('rooms as r', function joinRoom() {
        this.on('r.hotel_id', 'b.hotel_id').andOn('r.id', 'b.room_id');
      })
      .where('d.hotel_id', hotelId)
      .select(
        'd.*',
        'b.room_id',
        'r.number as room_number',
        db.raw(`concat_ws(' ', b.guest_last_name, b.guest_first_name, b.guest_middle_name) AS guest_name`),
      );
    return pageOf(db, query, HISTORY_ORDER, page);
  },
};

export const refundsRepository = {
  find: byId<DepositRefund>('deposit_refunds'),
  insert: refundRows.insert,

  async update(db: DbOrTrx, hotelId: string, id: string, changes: Partial<DepositRefund>): Promise<DepositRefund> {
    const [row] = await db('deposit_refunds').where({ hotel_id: hotelId, id }).update(changes).returning('*');
    return row as DepositRefund;
  },

  async forDeposit(db: DbOrTrx, hotelId: string, depositId: string): Promise<DepositRefund[]> {
    return db('deposit_refunds').where({ hotel_id: hotelId, deposit_id: depositId }).orderBy(['created_at', 'id']);
  },

  /** The latest `limit` refunds of these deposits, newest first (the booking's timeline). */
  ofDeposits: (db: DbOrTrx, hotelId: string, depositIds: string[], limit: number): Promise<DepositRefund[]> =>
    db('deposit_refunds')
      .where({ hotel_id: hotelId })
      .whereIn('deposit_id', depositIds)
      .orderBy('created_at', 'desc')
      .limit(limit),

  /** Cents of the deposit's refunds asked for and not finished: they count against what may still be refunded. */
  async pendingCents(db: DbOrTrx, hotelId: string, depositId: string): Promise<bigint> {
    const row = await db('deposit_refunds')
      .where({ hotel_id: hotelId, deposit_id: depositId, status: 'pending' })
      .first<{ cents: string }>(db.raw('coalesce(sum(amount * 100), 0)::bigint::text AS cents'));
    return BigInt(row.cents);
  },
};
