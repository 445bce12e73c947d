import type { Knex } from 'knex';

/**
 * Each counter keeps its own window's length: budgets differ (15 minutes for sign-ins, an hour for a room's stay-code
 * guesses), and the maintenance sweep may remove a counter only once its own window has closed. Counters written
 * before this have none and keep the configured default.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('rate_limit_counters', (t) => {
    t.integer('window_seconds');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('rate_limit_counters', (t) => {
    t.dropColumn('window_seconds');
  });
}
