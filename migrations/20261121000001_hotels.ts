import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('hotels', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.text('name').notNullable();
    t.text('slug').notNullable().unique();
    t.text('address');
    t.text('phone');
    t.text('timezone').notNullable().defaultTo('Europe/Moscow');
    t.text('currency').notNullable().defaultTo('RUB');
    t.text('plan').notNullable().defaultTo('starter');
    t.boolean('is_active').notNullable().defaultTo(true);
    t.text('check_in_time').notNullable().defaultTo('14:00');
    t.text('check_out_time').notNullable().defaultTo('12:00');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw(`ALTER TABLE hotels ADD CONSTRAINT hotels_times_check
    CHECK (check_in_time ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$' AND check_out_time ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$')`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('hotels');
}
