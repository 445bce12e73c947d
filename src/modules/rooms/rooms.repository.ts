import { hotelTable } from '../../platform/db/hotel-table';
import { pageOf, type Page, type PageRequest, type SortKey } from '../../platform/db/keyset';
import type { DbOrTrx } from '../../platform/db/knex';
import type { CategoryInput, Room, RoomCategory, RoomFilter, RoomInput } from './rooms.types';

const CATEGORY_ORDER: SortKey[] = [
  { sql: 'sort_order', type: 'integer' },
  { sql: 'name', type: 'text' },
  { sql: 'id', type: 'uuid' },
];

/** Floors first (rooms without one before them), then by number as people count: `9` before `10`. */
const ROOM_ORDER: SortKey[] = [
  { sql: 'coalesce(floor, -10000)', type: 'numeric' },
  { sql: 'length(number)', type: 'integer' },
  { sql: 'number', type: 'text' },
  { sql: 'id', type: 'uuid' },
];

export const categoriesRepository = {
  ...hotelTable<RoomCategory, CategoryInput>('room_categories'),
  async list(
    db: DbOrTrx,
    hotelId: string,
    filter: { is_active?: boolean },
    page: PageRequest,
  ): Promise<Page<RoomCategory>> {
    const query = db('room_categories').select('*').where({ hotel_id: hotelId });
    if (filter.is_active !== undefined) query.where({ is_active: filter.is_active });
    return pageOf(db, query, CATEGORY_ORDER, page);
  },

  async countRooms(db: DbOrTrx, hotelId: string, categoryId: string): Promise<number> {
    const row = await db('rooms')
      .where({ hotel_id: hotelId, category_id: categoryId })
      .count<{ count: string }>('id as count')
      .first();
    return Number(row?.count ?? 0);
  },
};

export const roomsRepository = {
  ...hotelTable<Room, RoomInput>('rooms'),
  async list(db: DbOrTrx, hotelId: string, filter: RoomFilter, page: PageRequest): Promise<Page<Room>> {
    const query = db('rooms').select('*').where({ hotel_id: hotelId });
    if (filter.category_id) query.where({ category_id: filter.category_id });
    if (filter.status) query.where({ status: filter.status });
    if (filter.floor !== undefined) query.where('floor', filter.floor);
    if (filter.search) query.whereILike('number', `%${filter.search.replace(/[\\%_]/g, '\\$&')}%`);
    return pageOf(db, query, ROOM_ORDER, page);
  },

  /** The numbers of these rooms of the hotel (a booking's timeline names the rooms of its moves). */
  numbersOf(db: DbOrTrx, hotelId: string, ids: string[]): Promise<Pick<Room, 'id' | 'number'>[]> {
    return db('rooms').select('id', 'number').where({ hotel_id: hotelId }).whereIn('id', ids);
  },

  /**
   * A room and its category in one round trip: `r.*, c.*` comes back as arrays, and each column goes back to the row
   * of the table it came from (PostgreSQL names each field's table), so both rows are exactly what `find` reads.
   */
  async findWithCategory(
    db: DbOrTrx,
    hotelId: string,
    id: string,
  ): Promise<{ room: Room; category: RoomCategory | undefined } | undefined> {
    const result = (await db
      .raw(
        `SELECT r.*, c.* FROM rooms r
           LEFT JOIN room_categories c ON c.hotel_id = r.hotel_id AND c.id = r.category_id
         WHERE r.hotel_id = ? AND r.id = ?`,
        [hotelId, id],
      )
      .options({ rowMode: 'array' })) as { rows: unknown[][]; fields: { name: string; tableID: number }[] };
    const [values] = result.rows;
    if (!values) return undefined;
    const roomTable = result.fields[0].tableID;
    const room: Record<string, unknown> = {};
    const category: Record<string, unknown> = {};
    result.fields.forEach(({ name, tableID }, i) => {
      (tableID === roomTable ? room : category)[name] = values[i];
    });
    return { room: room as unknown as Room, category: category.id ? (category as unknown as RoomCategory) : undefined };
  },

  /** Every room of a category, for pricing to weigh their fees: not a list answered to clients. */
  async ofCategory(db: DbOrTrx, hotelId: string, categoryId: string): Promise<Room[]> {
    return db<Room>('rooms').where({ hotel_id: hotelId, category_id: categoryId });
  },
};
