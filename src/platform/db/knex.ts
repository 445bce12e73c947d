import knex, { type Knex } from 'knex';
import path from 'node:path';
import pg from 'pg';

// Calendar dates stay `YYYY-MM-DD` strings: parsing them into Date objects would shift them by the process time zone.
pg.types.setTypeParser(pg.types.builtins.DATE, (value: string) => value);

export type Db = Knex;
/** A repository accepts either the pool or an open transaction, so services decide what commits together. */
export type DbOrTrx = Knex | Knex.Transaction;

export function createDb(databaseUrl: string, poolMax = 10): Db {
  return knex({
    client: 'pg',
    connection: databaseUrl,
    pool: { min: 0, max: poolMax },
    acquireConnectionTimeout: 10000,
  });
}

export const migrationsDirectory = path.resolve(__dirname, '../../../migrations');

export async function migrateToLatest(db: Db): Promise<string[]> {
  const [, applied] = (await db.migrate.latest({
    directory: migrationsDirectory,
    loadExtensions: [path.extname(__filename)],
  })) as [number, string[]];
  return applied;
}
