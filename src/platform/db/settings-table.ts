import type { DbOrTrx } from './knex';

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

    async update(db: DbOrTrx, hotelId: string, changes: Partial<Omit<Row, 'hotel_id'>>): Promise<void> {
      await db(table)
        .where({ hotel_id: hotelId })
        .update({ ...changes, updated_at: db.fn.now() });
    },
  };
}
