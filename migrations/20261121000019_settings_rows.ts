import type { Knex } from 'knex';

/** Every hotel has its settings rows from registration on; hotels registered before get theirs here. */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('INSERT INTO housekeeping_settings (hotel_id) SELECT id FROM hotels ON CONFLICT DO NOTHING');
  await knex.raw('INSERT INTO payment_settings (hotel_id) SELECT id FROM hotels ON CONFLICT DO NOTHING');
}

export async function down(): Promise<void> {}
