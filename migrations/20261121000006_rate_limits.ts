import type { Knex } from 'knex';

/** Fixed-window counters shared by every API replica. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('rate_limit_counters', (t) => {
    t.text('key').primary();
    t.timestamp('window_started_at', { useTz: true }).notNullable();
    t.integer('hits').notNullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('rate_limit_counters');
}
