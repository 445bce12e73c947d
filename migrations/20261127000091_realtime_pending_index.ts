import type { Knex } from 'knex';

/**
 * The realtime commit trigger (migration 017, last redefined by 068) finds the committing transaction's events by
 * their provisional negative ids, `WHERE id < 0`, up to three times per commit and once more per further event row.
 * The primary key (hotel_id, id) cannot answer that, so each lookup read every event the service keeps (24 hours of
 * every hotel's): a commit cost more the busier the whole platform had been, partly under the hotel's commit lock.
 * Pending rows exist only inside transactions about to commit, so this partial index stays a few entries long. The
 * trigger is told never to scan the table instead: with statistics taken while the table was small (a new database,
 * or before autovacuum's next look at a growing table) the planner would still choose the scan. A redefinition of
 * the function (CREATE OR REPLACE) must keep `SET enable_seqscan = off`.
 */
// Built concurrently (outside a transaction): a plain build would hold back every write that publishes an event.
export const config = { transaction: false };

export async function up(knex: Knex): Promise<void> {
  // Its one exception to "indexes start with hotel_id": the lookup is of the committing transaction's events, of any hotel.
  await knex.raw(
    'CREATE INDEX CONCURRENTLY IF NOT EXISTS realtime_events_pending_index ON realtime_events (id) WHERE id < 0',
  );
  await knex.raw('ALTER FUNCTION realtime_events_commit() SET enable_seqscan = off');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('ALTER FUNCTION realtime_events_commit() RESET enable_seqscan');
  await knex.raw('DROP INDEX CONCURRENTLY IF EXISTS realtime_events_pending_index');
}
