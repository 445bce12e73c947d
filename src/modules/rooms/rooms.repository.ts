import type { DbOrTrx } from '../../platform/db/knex';
import type { CategoryInput, Room, RoomCategory, RoomFilter, RoomInput } from './rooms.types';

export const categoriesRepository = {
  async list(db: DbOrTrx, hotelId: string, filter: { is_active?: boolean }): Promise<RoomCategory[]> {
    const query = db<RoomCategory>('room_categories').where({ hotel_id: hotelId }).orderBy(['sort_order', 'name']);
    if (filter.is_active !== undefined) query.where({ is_active: filter.is_active });
    return query;
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

  async update(db: DbOrTrx, hotelId: string, id: string, input: CategoryInput): Promise<RoomCategory | undefined> {
    const [row] = await db<RoomCategory>('room_categories')
      .where({ hotel_id: hotelId, id })
      .update({ ...input, updated_at: db.fn.now() })
      .returning('*');
    return row;
  },

  async delete(db: DbOrTrx, hotelId: string, id: string): Promise<boolean> {
    return (await db('room_categories').where({ hotel_id: hotelId, id }).delete()) > 0;
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
  async list(db: DbOrTrx, hotelId: string, filter: RoomFilter): Promise<Room[]> {
    const query = db<Room>('rooms')
      .where({ hotel_id: hotelId })
      .orderByRaw('floor NULLS FIRST, length(number), number');
    if (filter.category_id) query.where({ category_id: filter.category_id });
    if (filter.status) query.where({ status: filter.status });
    if (filter.floor !== undefined) query.where('floor', filter.floor);
    if (filter.search) query.whereILike('number', `%${filter.search.replace(/[\\%_]/g, '\\$&')}%`);
    return query;
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

  async update(db: DbOrTrx, hotelId: string, id: string, input: RoomInput): Promise<Room | undefined> {
    const [row] = await db<Room>('rooms')
      .where({ hotel_id: hotelId, id })
      .update({ ...input, updated_at: db.fn.now() })
      .returning('*');
    return row;
  },

  async delete(db: DbOrTrx, hotelId: string, id: string): Promise<boolean> {
    return (await db('rooms').where({ hotel_id: hotelId, id }).delete()) > 0;
  },
};
