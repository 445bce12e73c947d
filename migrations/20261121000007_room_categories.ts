import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('room_categories', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('hotel_id').notNullable().references('hotels.id').onDelete('CASCADE');
    t.text('name').notNullable();
    t.text('description').notNullable().defaultTo('');
    t.integer('capacity').notNullable().defaultTo(2);
    t.decimal('base_price', 12, 2).notNullable();
    t.boolean('allow_hourly').notNullable().defaultTo(false);
    t.decimal('hourly_base_price', 12, 2);
    t.specificType('photos', 'text[]').notNullable().defaultTo('{}');
    t.integer('sort_order').notNullable().defaultTo(0);
    t.boolean('is_active').notNullable().defaultTo(true);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['hotel_id', 'name']);
    // Lets child tables reference (hotel_id, id) so a row can never point at another hotel's category.
    t.unique(['hotel_id', 'id']);
  });
  await knex.raw(`ALTER TABLE room_categories ADD CONSTRAINT room_categories_values_check
    CHECK (capacity BETWEEN 1 AND 100 AND base_price >= 0 AND (hourly_base_price IS NULL OR hourly_base_price >= 0))`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('room_categories');
}
