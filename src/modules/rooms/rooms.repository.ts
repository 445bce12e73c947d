import { pageOf, type Page, type PageRequest, type SortKey } from '../../platform/db/keyset';
import type { DbOrTrx } from '../../platform/db/knex';
import { atVersion } from '../../platform/db/version';
import type { ExpectedVersion } from '../../platform/http/concurrency';
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

  async find(db: DbOrTrx, hotelId: string, id: string): Promise<RoomCategory | undefined> {
    return db<RoomCategory>('room_categories').where({ hotel_id: hotelId, id }).first();
  },

  async insert(db: DbOrTrx, hotelId: string, input: CategoryInput): Promise<RoomCategory> {
    const [row] = await db<RoomCategory>('room_categories')
      .insert({ ...input, hotel_id: hotelId })
      .returning('*');
    return row;
  },

  async update(
    db: DbOrTrx,
    hotelId: string,
    id: string,
    input: CategoryInput,
    expected?: ExpectedVersion,
  ): Promise<RoomCategory | undefined> {
    const [row] = await db<RoomCategory>('room_categories')
      .where({ hotel_id: hotelId, id })
      .modify(atVersion(expected))
      .update({ ...input, updated_at: db.fn.now() })
      .returning('*');
    return row;
  },

  async delete(db: DbOrTrx, hotelId: string, id: string, expected?: ExpectedVersion): Promise<boolean> {
    return (await db('room_categories').where({ hotel_id: hotelId, id }).modify(atVersion(expected)).delete()) > 0;
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
  async list(db: DbOrTrx, hotelId: string, filter: RoomFilter, page: PageRequest): Promise<Page<Room>> {
    const query = db('rooms').select('*').where({ hotel_id: hotelId });
    if (filter.category_id) query.where({ category_id: filter.category_id });
    if (filter.status) query.where({ status: filter.status });
    if (filter.floor !== undefined) query.where('floor', filter.floor);
    if (filter.search) query.whereILike('number', `%${filter.search.replace(/[\\%_]/g, '\\$&')}%`);
    return pageOf(db, query, ROOM_ORDER, page);
  },

  /** Every room of a category, for pricing to weigh their fees: not a list answered to clients. */
  async ofCategory(db: DbOrTrx, hotelId: string, categoryId: string): Promise<Room[]> {
    return db<Room>('rooms').where({ hotel_id: hotelId, category_id: categoryId });
  },

  async find(db: DbOrTrx, hotelId: string, id: string): Promise<Room | undefined> {
    return db<Room>('rooms').where({ hotel_id: hotelId, id }).first();
  },

  async insert(db: DbOrTrx, hotelId: string, input: RoomInput): Promise<Room> {
    const [row] = await db<Room>('rooms')
      .insert({ ...input, hotel_id: hotelId })
      .returning('*');
    return row;
  },

  async update(
    db: DbOrTrx,
    hotelId: string,
    id: string,
    input: RoomInput,
    expected?: ExpectedVersion,
  ): Promise<Room | undefined> {
    const [row] = await db<Room>('rooms')
      .where({ hotel_id: hotelId, id })
      .modify(atVersion(expected))
      .update({ ...input, updated_at: db.fn.now() })
      .returning('*');
    return row;
  },

  async delete(db: DbOrTrx, hotelId: string, id: string, expected?: ExpectedVersion): Promise<boolean> {
    return (await db('rooms').where({ hotel_id: hotelId, id }).modify(atVersion(expected)).delete()) > 0;
  },
};
