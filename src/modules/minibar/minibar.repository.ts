import { hotelTable } from '../../platform/db/hotel-table';
import type { Knex } from 'knex';
import { pageOf, type Page, type PageRequest, type SortKey } from '../../platform/db/keyset';
import type { DbOrTrx } from '../../platform/db/knex';
import type {
  ConsumptionFilter,
  DateWindow,
  MinibarConsumption,
  MinibarConsumptionRow,
  MinibarItem,
  MinibarItemFilter,
  MinibarItemInput,
  MovementFilter,
  StockLevel,
  StockMovement,
} from './minibar.types';

/** Items as the hotel arranges them (and their stock the same way). */
const ITEM_ORDER = (table: string): SortKey[] => [
  { sql: `${table}.sort_order`, type: 'integer' },
  { sql: `${table}.name`, type: 'text' },
  { sql: `${table}.id`, type: 'uuid' },
];
const MOVEMENT_ORDER: SortKey[] = [
  { sql: 'created_at', type: 'timestamptz', desc: true },
  { sql: 'id', type: 'uuid', desc: true },
];
/** Newest check first; the items of one check (recorded together) by name. */
const CONSUMPTION_ORDER: SortKey[] = [
  { sql: 'c.recorded_at', type: 'timestamptz', desc: true },
  { sql: 'i.name', type: 'text' },
  { sql: 'c.id', type: 'uuid' },
];

/** Keeps rows of `column` within the window's calendar dates, read in the hotel's time zone (both ends inclusive). */
function withinHotelDays(query: Knex.QueryBuilder, db: DbOrTrx, column: string, hotelId: string, window: DateWindow) {
  const zone = db.raw('(SELECT timezone FROM hotels WHERE id = ?)', [hotelId]);
  if (window.from) query.whereRaw('?? >= (?::date)::timestamp AT TIME ZONE ?', [column, window.from, zone]);
  if (window.to) query.whereRaw('?? < (?::date + 1)::timestamp AT TIME ZONE ?', [column, window.to, zone]);
}

export const itemsRepository = {
  ...hotelTable<MinibarItem, MinibarItemInput>('minibar_items'),
  async anyActive(db: DbOrTrx, hotelId: string): Promise<boolean> {
    return (await db('minibar_items').where({ hotel_id: hotelId, is_active: true }).first('id')) !== undefined;
  },

  async list(db: DbOrTrx, hotelId: string, filter: MinibarItemFilter, page: PageRequest): Promise<Page<MinibarItem>> {
    const query = db('minibar_items').select('*').where({ hotel_id: hotelId });
    if (filter.is_active !== undefined) query.where({ is_active: filter.is_active });
    if (filter.category !== undefined) query.where({ category: filter.category });
    return pageOf(db, query, ITEM_ORDER('minibar_items'), page);
  },

  /**
   * Locks the hotel's items among `ids` (in id order, so concurrent writers cannot deadlock): every writer of stock
   * movements holds its items' locks, so a count computes its delta from a sum no one else is changing.
   */
  async lock(trx: Knex.Transaction, hotelId: string, ids: string[]): Promise<MinibarItem[]> {
    if (ids.length === 0) return [];
    return trx<MinibarItem>('minibar_items').where({ hotel_id: hotelId }).whereIn('id', ids).orderBy('id').forUpdate();
  },
};

function levelsQuery(db: DbOrTrx, hotelId: string) {
  return db('minibar_items as i')
    .leftJoin('stock_movements as m', function joinMovements() {
      this.on('m.hotel_id', 'i.hotel_id').andOn('m.item_id', 'i.id');
    })
    .where('i.hotel_id', hotelId)
    .groupBy('i.id')
    .select(
      'i.id as item_id',
      'i.name',
      'i.category',
      'i.price',
      'i.is_active',
      db.raw('COALESCE(SUM(m.quantity), 0)::integer AS quantity'),
    );
}

export const stockRepository = {
  /** Current stock of every item (items without movements at 0). */
  async levels(db: DbOrTrx, hotelId: string, filter: MinibarItemFilter, page: PageRequest): Promise<Page<StockLevel>> {
    const query = levelsQuery(db, hotelId);
    if (filter.is_active !== undefined) query.where('i.is_active', filter.is_active);
    if (filter.category !== undefined) query.where('i.category', filter.category);
    return pageOf(db, query, ITEM_ORDER('i'), page);
  },

  /** Current stock of one item of the hotel. */
  async level(db: DbOrTrx, hotelId: string, itemId: string): Promise<StockLevel> {
    return levelsQuery(db, hotelId).where('i.id', itemId).first();
  },

  async insertMovements(
    db: DbOrTrx,
    hotelId: string,
    movements: Array<Partial<Omit<StockMovement, 'id' | 'hotel_id' | 'created_at'>>>,
  ): Promise<StockMovement[]> {
    if (movements.length === 0) return [];
    return db<StockMovement>('stock_movements')
      .insert(movements.map((movement) => ({ ...movement, hotel_id: hotelId })))
      .returning('*');
  },

  async listMovements(
    db: DbOrTrx,
    hotelId: string,
    filter: MovementFilter,
    page: PageRequest,
  ): Promise<Page<StockMovement>> {
    const query = db('stock_movements').select('*').where({ hotel_id: hotelId });
    if (filter.item_id) query.where({ item_id: filter.item_id });
    if (filter.kind) query.where({ kind: filter.kind });
    withinHotelDays(query, db, 'created_at', hotelId, filter);
    return pageOf(db, query, MOVEMENT_ORDER, page);
  },
};

function consumptionsQuery(db: DbOrTrx, hotelId: string) {
  return db('minibar_consumptions as c')
    .join('minibar_items as i', function joinItems() {
      this.on('i.hotel_id', 'c.hotel_id').andOn('i.id', 'c.item_id');
    })
    .where('c.hotel_id', hotelId)
    .select(
      'c.*',
      'i.name as item_name',
      'i.category as item_category',
      db.raw('round(c.quantity * c.price_per_unit, 2) AS amount'),
    );
}

export const consumptionsRepository = {
  async list(
    db: DbOrTrx,
    hotelId: string,
    filter: ConsumptionFilter,
    page: PageRequest,
  ): Promise<Page<MinibarConsumption>> {
    const query = consumptionsQuery(db, hotelId);
    if (filter.room_id) query.where('c.room_id', filter.room_id);
    if (filter.task_id) query.where('c.task_id', filter.task_id);
    if (filter.booking_id) query.where('c.booking_id', filter.booking_id);
    withinHotelDays(query, db, 'c.recorded_at', hotelId, filter);
    return pageOf(db, query, CONSUMPTION_ORDER, page);
  },

  async forBooking(db: DbOrTrx, hotelId: string, bookingId: string): Promise<MinibarConsumption[]> {
    return consumptionsQuery(db, hotelId).where('c.booking_id', bookingId).orderBy(['c.recorded_at', 'c.id']);
  },

  async forTask(db: DbOrTrx, hotelId: string, taskId: string): Promise<MinibarConsumption[]> {
    return consumptionsQuery(db, hotelId).where('c.task_id', taskId).orderBy(['i.sort_order', 'i.name']);
  },

  /**
   * Serializes the minibar checks of one task until the transaction ends. The row locks below cannot do it alone:
   * before the first check there are no rows to lock, and two first checks would both insert.
   */
  async lockTask(trx: Knex.Transaction, hotelId: string, taskId: string): Promise<void> {
    await trx.raw('SELECT pg_advisory_xact_lock(hashtextextended(?, 0))', [`minibar_check:${hotelId}:${taskId}`]);
  },

  /** The task's consumption rows, locked for the rest of the transaction. */
  async lockForTask(trx: Knex.Transaction, hotelId: string, taskId: string): Promise<MinibarConsumptionRow[]> {
    return trx<MinibarConsumptionRow>('minibar_consumptions')
      .where({ hotel_id: hotelId, task_id: taskId })
      .orderBy('item_id')
      .forUpdate();
  },

  async insert(
    db: DbOrTrx,
    hotelId: string,
    row: Omit<MinibarConsumptionRow, 'id' | 'hotel_id' | 'recorded_at'>,
  ): Promise<void> {
    await db('minibar_consumptions').insert({ ...row, hotel_id: hotelId });
  },

  async update(
    db: DbOrTrx,
    hotelId: string,
    id: string,
    changes: Partial<Pick<MinibarConsumptionRow, 'quantity' | 'room_id' | 'booking_id' | 'recorded_by'>> & {
      recorded_at?: Knex.Raw;
    },
  ): Promise<void> {
    await db('minibar_consumptions').where({ hotel_id: hotelId, id }).update(changes);
  },

  async delete(db: DbOrTrx, hotelId: string, ids: string[]): Promise<void> {
    if (ids.length > 0) await db('minibar_consumptions').where({ hotel_id: hotelId }).whereIn('id', ids).delete();
  },
};
