import type { Knex } from 'knex';

/** A notification made on behalf of a retried process names itself once: a second one with the key is not made. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('notifications', (t) => {
    t.text('dedupe_key');
  });
  await knex.raw(
    'CREATE UNIQUE INDEX notifications_dedupe_idx ON notifications (hotel_id, dedupe_key) WHERE dedupe_key IS NOT NULL',
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX notifications_dedupe_idx');
  await knex.schema.alterTable('notifications', (t) => t.dropColumn('dedupe_key'));
}
