import type { Knex } from 'knex';

/**
 * The public booking widget's settings per hotel: the extra services a guest may ask for, the web origins allowed to
 * call the widget routes from a browser (CORS), and whether the widget takes bookings at all.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('widget_settings', (t) => {
    t.uuid('hotel_id').primary().references('hotels.id').onDelete('CASCADE');
    t.boolean('is_enabled').notNullable().defaultTo(true);
    // [{ code, name, price, description }], shown by the widget and recorded on the bookings that ask for them.
    t.jsonb('services').notNullable().defaultTo('[]');
    t.specificType('allowed_origins', 'text[]').notNullable().defaultTo('{}');
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw(`ALTER TABLE widget_settings ADD CONSTRAINT widget_settings_values_check CHECK (
    jsonb_typeof(services) = 'array' AND jsonb_array_length(services) <= 50
    AND cardinality(allowed_origins) <= 20)`);
  await knex.raw('INSERT INTO widget_settings (hotel_id) SELECT id FROM hotels ON CONFLICT DO NOTHING');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('widget_settings');
}
