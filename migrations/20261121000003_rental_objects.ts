import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('rental_objects', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('hotel_id').notNullable().references('hotels.id').onDelete('CASCADE');
    t.text('name').notNullable();
    t.text('icon');
    t.text('color');
    t.text('text_color');
    t.decimal('price_per_hour', 12, 2).notNullable().defaultTo(0);
    t.decimal('price_per_day', 12, 2).notNullable().defaultTo(0);
    t.smallint('open_hour').notNullable().defaultTo(0);
    t.smallint('close_hour').notNullable().defaultTo(24);
    t.integer('sort_order').notNullable().defaultTo(0);
    t.boolean('is_active').notNullable().defaultTo(false);
    t.integer('buffer_minutes').notNullable().defaultTo(0);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['hotel_id', 'sort_order']);
  });
  await knex.raw(`ALTER TABLE rental_objects ADD CONSTRAINT rental_objects_hours_check
    CHECK (open_hour BETWEEN 0 AND 23 AND close_hour BETWEEN 1 AND 24 AND open_hour < close_hour AND buffer_minutes >= 0)`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('rental_objects');
}
