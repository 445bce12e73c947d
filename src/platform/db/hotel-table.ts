import type { ExpectedVersion } from '../http/concurrency';
import type { DbOrTrx } from './knex';
import { atVersion } from './version';

/**
 * The reads and writes every table of a hotel's records shares, always scoped by `hotel_id` first: one row by id,
 * an insert, a change (only of the version `If-Match` named, when it named one; `updated_at` moves with it) and a
 * delete. A module's repository spreads these and adds its own queries.
 */
export function hotelTable<Row extends { id: string }, Input extends object>(table: string) {
  return {
    async find(db: DbOrTrx, hotelId: string, id: string): Promise<Row | undefined> {
      return db(table).where({ hotel_id: hotelId, id }).first();
    },

    async insert(db: DbOrTrx, hotelId: string, input: Input): Promise<Row> {
      const [row] = await db(table)
        .insert({ ...input, hotel_id: hotelId })
        .returning('*');
      return row as Row;
    },

    /** The row after the change, or undefined when the hotel has none by that id (or not at that version). */
    async update(
      db: DbOrTrx,
      hotelId: string,
      id: string,
      input: Input,
      expected?: ExpectedVersion,
    ): Promise<Row | undefined> {
      const [row] = await db(table)
        .where({ hotel_id: hotelId, id })
        .modify(atVersion(expected))
        .update({ ...input, updated_at: db.fn.now() })
        .returning('*');
      return row as Row | undefined;
    },

    async delete(db: DbOrTrx, hotelId: string, id: string, expected?: ExpectedVersion): Promise<boolean> {
      return (await db(table).where({ hotel_id: hotelId, id }).modify(atVersion(expected)).delete()) > 0;
    },
  };
}
