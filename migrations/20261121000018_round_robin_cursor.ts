import type { Knex } from 'knex';

/**
 * The previous automatic pick per trade, kept on the settings row that serializes assignment: ordering tasks by
 * created_at (their transaction's start) does not give the order in which concurrent creations committed.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('housekeeping_settings', (t) => {
    t.uuid('last_auto_housekeeping_id').references('users.id').onDelete('SET NULL');
    t.uuid('last_auto_maintenance_id').references('users.id').onDelete('SET NULL');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('housekeeping_settings', (t) => {
    t.dropColumn('last_auto_housekeeping_id');
    t.dropColumn('last_auto_maintenance_id');
  });
}
