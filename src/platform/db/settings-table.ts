import { PreconditionFailedError } from '../errors';
import type { ExpectedVersion } from '../http/concurrency';
import type { DbOrTrx } from './knex';
import { atVersion } from './version';

/**
 * A table of per-hotel settings: one row per hotel (keyed by `hotel_id`), made with its defaults at registration,
 * read whole and changed in part. Each module with settings builds its repository from this.
 */
export function settingsTable<Row extends { hotel_id: string }>(table: string) {
  return {
    async insertDefaults(db: DbOrTrx, hotelId: string): Promise<void> {
      await db(table).insert({ hotel_id: hotelId }).onConflict('hotel_id').ignore();
    },

    /** The hotel's row (every hotel has one from registration on); `forUpdate` locks it for the transaction. */
    async get(db: DbOrTrx, hotelId: string, options: { forUpdate?: boolean } = {}): Promise<Row> {
      const query = db(table).where({ hotel_id: hotelId }).first();
      if (options.forUpdate) query.forUpdate();
      return (await query) as Row;
    },

    /** The hotel's row, or undefined once the hotel is gone (a background job finishing after its deletion). */
    async find(db: DbOrTrx, hotelId: string): Promise<Row | undefined> {
      return (await db(table).where({ hotel_id: hotelId }).first()) as Row | undefined;
    },

    /** Changes the row, if `expected` names a version only that version of it (412 otherwise). */
    async update(
      db: DbOrTrx,
      hotelId: string,
      changes: Partial<Omit<Row, 'hotel_id'>>,
      expected?: ExpectedVersion,
    ): Promise<void> {
      const changed = await db(table)
        .where({ hotel_id: hotelId })
        .modify(atVersion(expected))
        .update({ ...changes, updated_at: db.fn.now() });
      // Every hotel has its row: only another version of it leaves nothing changed.
      if (changed === 0) throw new PreconditionFailedError();
    },
  };
}
