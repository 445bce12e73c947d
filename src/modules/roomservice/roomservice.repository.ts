import type { Knex } from 'knex';
import { hotelTable } from '../../platform/db/hotel-table';
import { pageOf, type Page, type PageRequest, type SortKey } from '../../platform/db/keyset';
import type { DbOrTrx } from '../../platform/db/knex';
import { settingsTable } from '../../platform/db/settings-table';
import type {
  MenuCategory,
  MenuCategoryInput,
  MenuItem,
  MenuItemFilter,
  MenuItemInput,
  OrderFilter,
  OrderLine,
  OrderOutcomeField,
  OrderRow,
  OrderStatus,
  RoomServiceSettingsRow,
} from './roomservice.types';

export const settingsRepository = settingsTable<RoomServiceSettingsRow>('room_service_settings');

/** The menu as the hotel arranges it: by sort order, then name. */
const MENU_ORDER: SortKey[] = [
  { sql: 'sort_order', type: 'integer' },
  { sql: 'name', type: 'text' },
  { sql: 'id', type: 'uuid' },
];
/** Newest order first. */
const ORDER_ORDER: SortKey[] = [
  { sql: 'created_at', type: 'timestamptz', desc: true },
  { sql: 'id', type: 'uuid', desc: true },
];

export const categoriesRepository = {
  ...hotelTable<MenuCategory, MenuCategoryInput>('room_service_categories'),

  list: (db: DbOrTrx, hotelId: string, page: PageRequest): Promise<Page<MenuCategory>> =>
    pageOf(db, db('room_service_categories').select('*').where({ hotel_id: hotelId }), MENU_ORDER, page),

  all: (db: DbOrTrx, hotelId: string): Promise<MenuCategory[]> =>
    db('room_service_categories').where({ hotel_id: hotelId }).orderBy(['sort_order', 'name', 'id']),
};

export const itemsRepository = {
  ...hotelTable<MenuItem, MenuItemInput>('room_service_items'),

  list(db: DbOrTrx, hotelId: string, filter: MenuItemFilter, page: PageRequest): Promise<Page<MenuItem>> {
    const query = db('room_service_items').select('*').where({ hotel_id: hotelId });
    if (filter.category_id) query.where({ category_id: filter.category_id });
    if (filter.is_available !== undefined) query.where({ is_available: filter.is_available });
    return pageOf(db, query, MENU_ORDER, page);
  },

  available: (db: DbOrTrx, hotelId: string): Promise<MenuItem[]> =>
    db('room_service_items').where({ hotel_id: hotelId, is_available: true }).orderBy(['sort_order', 'name', 'id']),

  /** The hotel's items among `ids`, locked until the order commits, so none is withdrawn or repriced meanwhile. */
  lock: (trx: Knex.Transaction, hotelId: string, ids: string[]): Promise<MenuItem[]> =>
    trx('room_service_items').where({ hotel_id: hotelId }).whereIn('id', ids).orderBy('id').forShare(),
};

export const stayCodesRepository = {
  find: (db: DbOrTrx, hotelId: string, bookingId: string) =>
    db('room_service_stay_codes').where({ hotel_id: hotelId, booking_id: bookingId }).first(),

  /** The stay's code, the one given first if there is one (a concurrent first ask gets the same). */
  async ensure(db: DbOrTrx, hotelId: string, bookingId: string, code: string) {
    await db('room_service_stay_codes')
      .insert({ hotel_id: hotelId, booking_id: bookingId, code })
      .onConflict('booking_id')
      .ignore();
    return stayCodesRepository.find(db, hotelId, bookingId);
  },

  async replace(db: DbOrTrx, hotelId: string, bookingId: string, code: string) {
    const [row] = await db('room_service_stay_codes')
      .insert({ hotel_id: hotelId, booking_id: bookingId, code })
      .onConflict('booking_id')
      .merge({ code, created_at: db.fn.now() })
      .returning('*');
    return row;
  },

  /**
   * A guest's proof in one query, whatever it matches: the hotel's room guests know by `roomKey` (null when there is
   * none) and the checked-in stay in it holding `code` (null when none does), with the hours it is judged on. An
   * unknown room, a code of no stay and a code of a stay in another room cost the same work: the code is only ever
   * looked for in the room named.
   */
  async proof(db: DbOrTrx, hotelId: string, roomKey: string, code: string): Promise<StayCodeProof> {
    const { rows } = await db.raw<{ rows: StayCodeProof[] }>(
      `SELECT r.id AS room_id, c.booking_id, c.status, c.start_at, c.end_at, c.checked_in_at
         FROM (SELECT 1) AS one
         LEFT JOIN rooms r ON r.hotel_id = :hotelId AND lower(btrim(r.number)) = :roomKey
         LEFT JOIN LATERAL (
           SELECT sc.booking_id, b.status, b.start_at, b.end_at, b.checked_in_at
             FROM room_service_stay_codes sc
             JOIN bookings b ON b.hotel_id = sc.hotel_id AND b.id = sc.booking_id
            WHERE sc.hotel_id = :hotelId AND sc.code = :code AND b.room_id = r.id AND b.status = 'checked_in'
            LIMIT 1) c ON true
        ORDER BY c.booking_id IS NULL
        LIMIT 1`,
      { hotelId, roomKey, code },
    );
    return rows[0];
  },
};

/** No checked-in stay of the room holds the code (or no such room), or the one that does, with its hours. */
export type StayCodeProof =
  | { room_id: string | null; booking_id: null }
  | {
      room_id: string;
      booking_id: string;
      status: 'checked_in';
      start_at: Date;
      end_at: Date;
      checked_in_at: Date | null;
    };

/** The rooms of the hotel among `ids` (the rooms module offers them one by one only). */
export const hotelRoomsRepository = {
  among: async (db: DbOrTrx, hotelId: string, ids: readonly string[]): Promise<string[]> =>
    (await db('rooms').where({ hotel_id: hotelId }).whereIn('id', ids).pluck('id')) as string[],
};

const ORDER_COLUMNS = 'o.*';

function withRoomNumber(db: DbOrTrx) {
  return db('room_service_orders as o')
    .join('rooms as r', function sameRoom() {
      this.on('r.hotel_id', 'o.hotel_id').andOn('r.id', 'o.room_id');
    })
    .select(ORDER_COLUMNS, 'r.number as room_number');
}

export type OrderWithRoom = OrderRow & { room_number: string };

export const ordersRepository = {
  /** The hotel's next order number; called with the settings row locked, which serializes the hotel's orders. */
  async nextNumber(trx: Knex.Transaction, hotelId: string): Promise<number> {
    const row = await trx('room_service_orders').where({ hotel_id: hotelId }).max('number as last').first();
    return Number(row?.last ?? 0) + 1;
  },

  async insert(
    trx: Knex.Transaction,
    order: Omit<OrderRow, 'id' | 'status' | 'created_at' | 'updated_at' | OrderOutcomeField>,
    lines: OrderLine[],
  ): Promise<OrderRow> {
    const [row] = await trx('room_service_orders').insert(order).returning('*');
    await trx('room_service_order_items').insert(
      lines.map((line, position) => ({ ...line, hotel_id: order.hotel_id, order_id: row.id, position })),
    );
    return row as OrderRow;
  },

  find: (db: DbOrTrx, hotelId: string, id: string): Promise<OrderWithRoom | undefined> =>
    withRoomNumber(db).where({ 'o.hotel_id': hotelId, 'o.id': id }).first(),

  lock: (trx: Knex.Transaction, hotelId: string, id: string): Promise<OrderRow | undefined> =>
    trx('room_service_orders').where({ hotel_id: hotelId, id }).forUpdate().first(),

  async move(
    trx: Knex.Transaction,
    hotelId: string,
    id: string,
    status: OrderStatus,
    reason: string | null,
  ): Promise<void> {
    await trx('room_service_orders')
      .where({ hotel_id: hotelId, id })
      .update({
        status,
        updated_at: trx.fn.now(),
        ...(status === 'delivered' && { delivered_at: trx.fn.now() }),
        ...(status === 'cancelled' && { cancelled_at: trx.fn.now(), cancel_reason: reason }),
        ...(status === 'refunded' && { refunded_at: trx.fn.now(), refund_reason: reason }),
      });
  },

  list(db: DbOrTrx, hotelId: string, filter: OrderFilter, page: PageRequest): Promise<Page<OrderWithRoom>> {
    const query = withRoomNumber(db).where('o.hotel_id', hotelId);
    if (filter.status) query.where('o.status', filter.status);
    if (filter.room_id) query.where('o.room_id', filter.room_id);
    if (filter.booking_id) query.where('o.booking_id', filter.booking_id);
    const zone = db.raw('(SELECT timezone FROM hotels WHERE id = ?)', [hotelId]);
    if (filter.from) query.whereRaw('o.created_at >= (?::date)::timestamp AT TIME ZONE ?', [filter.from, zone]);
    if (filter.to) query.whereRaw('o.created_at < (?::date + 1)::timestamp AT TIME ZONE ?', [filter.to, zone]);
    return pageOf(
      db,
      query,
      ORDER_ORDER.map((key) => ({ ...key, sql: `o.${key.sql}` })),
      page,
    );
  },

  /** The lines of these orders, by order, in the order they were placed. */
  async lines(db: DbOrTrx, hotelId: string, orderIds: string[]): Promise<Map<string, OrderLine[]>> {
    const rows = (await db('room_service_order_items')
      .where({ hotel_id: hotelId })
      .whereIn('order_id', orderIds)
      .orderBy(['order_id', 'position'])
      .select('order_id', 'item_id', 'name', 'unit_price', 'quantity', 'amount')) as (OrderLine & {
      order_id: string;
    })[];
    const byOrder = new Map<string, OrderLine[]>();
    for (const { order_id: orderId, ...line } of rows) byOrder.set(orderId, [...(byOrder.get(orderId) ?? []), line]);
    return byOrder;
  },
};
