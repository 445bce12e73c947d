import type { Knex } from 'knex';
import { hotelTable } from '../../platform/db/hotel-table';
import { pageOf, type Page, type PageRequest, type SortKey } from '../../platform/db/keyset';
import type { DbOrTrx } from '../../platform/db/knex';
import type { FiscalReceipt, FiscalReceiptFilter, ReceiptStatus, SourceKind } from './fiscal.types';
import { ERASED, type ErasureTarget } from '../../platform/personal-data';

type NewReceipt = Pick<
  FiscalReceipt,
  'workstation_id' | 'device_id' | 'source_kind' | 'source_id' | 'operation' | 'total' | 'task'
>;
type Outcome = Partial<Pick<FiscalReceipt, 'status' | 'fiscal' | 'error_code' | 'error_message'>>;

const NEWEST_FIRST: SortKey[] = [
  { sql: 'created_at', type: 'timestamptz', desc: true },
  { sql: 'id', type: 'uuid', desc: true },
];
const SOURCE_KEY = ['hotel_id', 'source_kind', 'source_id', 'operation'];

/** Receipts created on the window's calendar days, read in the hotel's time zone. */
function createdWithin(query: Knex.QueryBuilder, db: DbOrTrx, hotelId: string, filter: FiscalReceiptFilter) {
  const zone = db.raw('(SELECT timezone FROM hotels WHERE id = ?)', [hotelId]);
  if (filter.from) query.whereRaw('created_at >= (?::date)::timestamp AT TIME ZONE ?', [filter.from, zone]);
  if (filter.to) query.whereRaw('created_at < (?::date + 1)::timestamp AT TIME ZONE ?', [filter.to, zone]);
}

const table = hotelTable<FiscalReceipt, Outcome>('fiscal_receipts');

export const receiptsRepository = {
  find: table.find,

  /** The source's receipt for the operation: inserted now, or the one an earlier call inserted. */
  async insertOnce(trx: Knex.Transaction, hotelId: string, receipt: NewReceipt): Promise<FiscalReceipt> {
    const [inserted] = (await trx('fiscal_receipts')
      .insert({ ...receipt, task: JSON.stringify(receipt.task), hotel_id: hotelId })
      .onConflict(SOURCE_KEY)
      .ignore()
      .returning('*')) as FiscalReceipt[];
    return inserted ?? (await receiptsRepository.bySource(trx, hotelId, receipt))!;
  },

  async bySource(
    db: DbOrTrx,
    hotelId: string,
    { source_kind, source_id, operation }: Pick<FiscalReceipt, 'source_kind' | 'source_id' | 'operation'>,
  ): Promise<FiscalReceipt | undefined> {
    return db('fiscal_receipts').where({ hotel_id: hotelId, source_kind, source_id, operation }).first();
  },

  /** Changes the receipt only while it is in one of `from`; undefined otherwise (or when there is none). */
  async settle(
    db: DbOrTrx,
    hotelId: string,
    id: string,
    from: readonly ReceiptStatus[],
    outcome: Outcome,
  ): Promise<FiscalReceipt | undefined> {
    const [row] = (await db('fiscal_receipts')
      .where({ hotel_id: hotelId, id })
      .whereIn('status', from)
      .update({
        ...outcome,
        ...(outcome.fiscal && { fiscal: JSON.stringify(outcome.fiscal) }),
        updated_at: db.fn.now(),
      })
      .returning('*')) as FiscalReceipt[];
    return row;
  },

  async forSource(db: DbOrTrx, hotelId: string, kind: SourceKind, sourceId: string): Promise<FiscalReceipt[]> {
    return db('fiscal_receipts')
      .where({ hotel_id: hotelId, source_kind: kind, source_id: sourceId })
      .orderBy(['created_at', 'id']);
  },

  /** The latest `limit` receipts of these sources (payments, deposits, refunds), newest first. */
  ofSources: (db: DbOrTrx, hotelId: string, sourceIds: string[], limit: number): Promise<FiscalReceipt[]> =>
    db('fiscal_receipts')
      .where({ hotel_id: hotelId })
      .whereIn('source_id', sourceIds)
      .orderBy('created_at', 'desc')
      .limit(limit),

  async list(
    db: DbOrTrx,
    hotelId: string,
    filter: FiscalReceiptFilter,
    page: PageRequest,
  ): Promise<Page<FiscalReceipt>> {
    const query = db('fiscal_receipts').select('*').where({ hotel_id: hotelId });
    if (filter.status) query.where({ status: filter.status });
    if (filter.source_kind) query.where({ source_kind: filter.source_kind });
    createdWithin(query, db, hotelId, filter);
    return pageOf(db, query, NEWEST_FIRST, page);
  },

  /** Receipts keep what the register printed: only the buyer's contact (equal to an erased guest's) is replaced. */
  async eraseBuyers(trx: Knex.Transaction, target: ErasureTarget): Promise<number> {
    const contacts = [...target.phones, ...target.emails];
    if (contacts.length === 0) return 0;
    return trx('fiscal_receipts')
      .where({ hotel_id: target.hotelId })
      .whereRaw("lower(task->'clientInfo'->>'emailOrPhone') = ANY (?)", [contacts.map((c) => c.toLowerCase())])
      .update({ task: trx.raw("jsonb_set(task, '{clientInfo,emailOrPhone}', to_jsonb(?::text))", [ERASED]) });
  },
};
