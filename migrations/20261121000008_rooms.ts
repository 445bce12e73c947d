import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('rooms', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('hotel_id').notNullable().references('hotels.id').onDelete('CASCADE');
    t.uuid('category_id').notNullable();
    t.text('number').notNullable();
    t.text('name');
    t.decimal('floor', 4, 0);
    t.decimal('base_rate', 12, 2);
    t.decimal('hourly_rate', 12, 2);
    t.integer('max_guests').notNullable().defaultTo(2);
    t.text('bed_type');
    t.specificType('photos', 'text[]').notNullable().defaultTo('{}');
    t.decimal('early_checkin_fee', 12, 2).notNullable().defaultTo(0);
    t.decimal('late_checkout_fee', 12, 2).notNullable().defaultTo(0);
    t.text('status').notNullable().defaultTo('clean');
    t.timestamp('maintenance_from', { useTz: true });
    t.timestamp('maintenance_to', { useTz: true });
    t.text('notes').notNullable().defaultTo('');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['hotel_id', 'number']);
    t.unique(['hotel_id', 'id']);
    t.foreign(['hotel_id', 'category_id']).references(['hotel_id', 'id']).inTable('room_categories');
    t.index(['hotel_id', 'category_id']);
  });
  await knex.raw(`ALTER TABLE rooms
    ADD CONSTRAINT rooms_status_check CHECK (status IN ('dirty','cleaning','clean','inspect','maintenance','closed')),
    ADD CONSTRAINT rooms_values_check CHECK (max_guests BETWEEN 1 AND 100
      AND (base_rate IS NULL OR base_rate >= 0) AND (hourly_rate IS NULL OR hourly_rate >= 0)
      AND early_checkin_fee >= 0 AND late_checkout_fee >= 0),
    ADD CONSTRAINT rooms_maintenance_check CHECK (maintenance_to IS NULL OR maintenance_from IS NULL
      OR maintenance_to > maintenance_from)`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('rooms');
}
