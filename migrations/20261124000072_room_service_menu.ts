import type { Knex } from 'knex';

/**
 * Room service, the hotel's side: its settings (off until the hotel turns it on; hours in the hotel's local time,
 * equal ends meaning around the clock and a closing time before the opening one running past midnight; the delivery
 * fee and the minimum order; `room_ids` null for every room, else the rooms it serves) and its menu (categories, and
 * items with a price the server charges, whatever a guest's client sends). Every bound the API checks is a
 * constraint too.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('room_service_settings', (t) => {
    t.uuid('hotel_id').primary().references('hotels.id').onDelete('CASCADE');
    t.boolean('enabled').notNullable().defaultTo(false);
    t.text('opens_at').notNullable().defaultTo('00:00');
    t.text('closes_at').notNullable().defaultTo('00:00');
    t.decimal('delivery_fee', 12, 2).notNullable().defaultTo(0);
    t.decimal('minimum_order', 12, 2).notNullable().defaultTo(0);
    t.specificType('room_ids', 'uuid[]');
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw(`ALTER TABLE room_service_settings
    ADD CONSTRAINT room_service_settings_values_check CHECK (
      opens_at ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$'
      AND closes_at ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$'
      AND delivery_fee BETWEEN 0 AND 100000
      AND minimum_order BETWEEN 0 AND 1000000
      AND (room_ids IS NULL OR cardinality(room_ids) <= 1000))`);
  // Hotels registered before this migration; new ones get theirs at registration.
  await knex.raw('INSERT INTO room_service_settings (hotel_id) SELECT id FROM hotels ON CONFLICT DO NOTHING');

  await knex.schema.createTable('room_service_categories', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('hotel_id').notNullable().references('hotels.id').onDelete('CASCADE');
    t.text('name').notNullable();
    t.integer('sort_order').notNullable().defaultTo(0);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['hotel_id', 'id']);
    t.unique(['hotel_id', 'name'], { indexName: 'room_service_categories_name_unique' });
  });
  await knex.raw(`ALTER TABLE room_service_categories ADD CONSTRAINT room_service_categories_values_check
    CHECK (length(name) BETWEEN 1 AND 100 AND sort_order BETWEEN -10000 AND 10000)`);

  await knex.schema.createTable('room_service_items', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('hotel_id').notNullable().references('hotels.id').onDelete('CASCADE');
    t.uuid('category_id').notNullable();
    t.text('name').notNullable();
    t.text('description').notNullable().defaultTo('');
    t.decimal('price', 12, 2).notNullable();
    t.text('photo_url');
    t.boolean('is_available').notNullable().defaultTo(true);
    t.integer('sort_order').notNullable().defaultTo(0);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['hotel_id', 'id']);
    t.unique(['hotel_id', 'category_id', 'name'], { indexName: 'room_service_items_name_unique' });
    // A category with items cannot go: its items are moved or deleted first.
    t.foreign(['hotel_id', 'category_id'])
      .references(['hotel_id', 'id'])
      .inTable('room_service_categories')
      .onDelete('RESTRICT');
  });
  await knex.raw(`ALTER TABLE room_service_items ADD CONSTRAINT room_service_items_values_check CHECK (
    length(name) BETWEEN 1 AND 100 AND length(description) <= 1000 AND price BETWEEN 0.01 AND 1000000
    AND length(photo_url) <= 2000 AND sort_order BETWEEN -10000 AND 10000)`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('room_service_items');
  await knex.schema.dropTable('room_service_categories');
  await knex.schema.dropTable('room_service_settings');
}
