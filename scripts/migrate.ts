import { createDb, migrateToLatest } from '../src/platform/db/knex';

/** `npm run migrate`: applies pending migrations to DATABASE_URL. */
async function main(): Promise<void> {
  const databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) throw new Error('DATABASE_URL is required');
  const db = createDb(databaseUrl, { role: 'migrations', poolMax: 2 });
  try {
    const applied = await migrateToLatest(db);
    console.log(applied.length ? `applied: ${applied.join(', ')}` : 'database is up to date');
  } finally {
    await db.destroy();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
