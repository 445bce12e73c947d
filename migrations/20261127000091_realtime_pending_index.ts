import type { Knex } from 'knex';

/**
 * The realtime commit trigger (migration 017, last redefined by 068) finds the committing transaction's events by
 * their provisional negative ids, `WHERE id < 0`, up to three times per commit and once more per further event row.
 * The primary key (hotel_id, id) cannot answer that, so each lookup read every event the service keeps (24 hours of
 * every hotel's): a commit cost more the busier the whole platform had been, partly under the hotel's commit lock.
 * Pending rows exist only inside transactions about to commit, so this partial index stays a few entries long.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('CREATE INDEX realtime_events_pending_index ON realtime_events (id) WHERE id < 0');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX realtime_events_pending_index');
}
