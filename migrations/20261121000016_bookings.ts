import type { Knex } from 'knex';

/**
 * Bookings, their payments and guests. A room is never booked twice: an exclusion constraint over the room and
 * the occupied time range of every booking that holds the room (inquiry, confirmed, checked_in).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('CREATE EXTENSION IF NOT EXISTS btree_gist');
  await knex.schema.createTable('bookings', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('hotel_id').notNullable().references('hotels.id').onDelete('CASCADE');
    t.uuid('room_id').notNullable();
    t.uuid('category_id').notNullable();
    t.text('kind').notNullable().defaultTo('nightly');
    t.date('check_in');
    t.date('check_out');
    t.timestamp('start_at', { useTz: true }).notNullable();
    t.timestamp('end_at', { useTz: true }).notNullable();
    t.text('status').notNullable();
    t.text('source').notNullable().defaultTo('front_desk');
    t.text('guest_last_name').notNullable();
    t.text('guest_first_name').notNullable();
    t.text('guest_middle_name');
    t.text('guest_phone');
    t.text('guest_email');
    t.integer('guests_count').notNullable().defaultTo(1);
    t.uuid('tariff_id');
    t.decimal('discount', 5, 2).notNullable().defaultTo(0);
    t.decimal('price', 12, 2).notNullable();
    t.boolean('price_manual').notNullable().defaultTo(false);
    t.decimal('paid_amount', 12, 2).notNullable().defaultTo(0);
    t.boolean('early_checkin').notNullable().defaultTo(false);
    t.boolean('late_checkout').notNullable().defaultTo(false);
    t.boolean('guest_blacklisted').notNullable().defaultTo(false);
    t.text('notes').notNullable().defaultTo('');
    t.timestamp('checked_in_at', { useTz: true });
    t.timestamp('checked_out_at', { useTz: true });
    t.timestamp('cancelled_at', { useTz: true });
    t.text('cancel_reason');
    t.uuid('created_by').references('users.id').onDelete('SET NULL');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['hotel_id', 'id']);
    t.foreign(['hotel_id', 'room_id']).references(['hotel_id', 'id']).inTable('rooms');
    t.foreign(['hotel_id', 'category_id']).references(['hotel_id', 'id']).inTable('room_categories');
    t.foreign(['hotel_id', 'tariff_id']).references(['hotel_id', 'id']).inTable('tariffs');
    t.index(['hotel_id', 'start_at']);
    t.index(['hotel_id', 'status', 'start_at']);
  });
  await knex.raw(`ALTER TABLE bookings
    ADD CONSTRAINT bookings_values_check CHECK (kind IN ('nightly','hourly')
      AND status IN ('inquiry','confirmed','checked_in','checked_out','cancelled')
      AND source IN ('front_desk','phone','email','walk_in','online','ota','other')
      AND end_at > start_at AND guests_count BETWEEN 1 AND 100 AND price >= 0
      AND discount BETWEEN 0 AND 100
      AND (kind <> 'nightly' OR (check_in IS NOT NULL AND check_out > check_in))),
    ADD CONSTRAINT bookings_no_double_booking EXCLUDE USING gist
      (room_id WITH =, tstzrange(start_at, end_at, '[)') WITH &&)
      WHERE (status IN ('inquiry','confirmed','checked_in'))`);

  await knex.schema.createTable('booking_payments', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('hotel_id').notNullable();
    t.uuid('booking_id').notNullable();
    t.decimal('amount', 12, 2).notNullable();
    t.text('method').notNullable().defaultTo('cash');
    t.text('note').notNullable().defaultTo('');
    t.timestamp('paid_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.uuid('created_by').references('users.id').onDelete('SET NULL');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.foreign(['hotel_id', 'booking_id']).references(['hotel_id', 'id']).inTable('bookings').onDelete('CASCADE');
    t.index(['hotel_id', 'booking_id']);
  });
  await knex.raw(`ALTER TABLE booking_payments ADD CONSTRAINT booking_payments_values_check
    CHECK (amount <> 0 AND method IN ('cash','card','transfer','online','other'))`);

  await knex.schema.createTable('booking_guests', (t) => {
    t.uuid('hotel_id').notNullable();
    t.uuid('booking_id').notNullable();
    t.uuid('guest_id').notNullable();
    t.boolean('is_primary').notNullable().defaultTo(false);
    t.primary(['booking_id', 'guest_id']);
    t.foreign(['hotel_id', 'booking_id']).references(['hotel_id', 'id']).inTable('bookings').onDelete('CASCADE');
    t.foreign(['hotel_id', 'guest_id']).references(['hotel_id', 'id']).inTable('guests');
    t.index(['hotel_id', 'guest_id']);
  });

  // Requests a client may retry: the first answer is stored with the key and given again.
  await knex.schema.createTable('idempotency_keys', (t) => {
    t.uuid('hotel_id').notNullable().references('hotels.id').onDelete('CASCADE');
    t.text('scope').notNullable();
    t.text('key').notNullable();
    t.text('request_hash').notNullable();
    t.integer('response_status');
    t.jsonb('response_body');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['hotel_id', 'scope', 'key']);
    t.index(['created_at']);
  });

  await knex.schema.createTable('payment_settings', (t) => {
    t.uuid('hotel_id').primary().references('hotels.id').onDelete('CASCADE');
    t.text('require_payment_checkin').notNullable().defaultTo('none');
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw(`ALTER TABLE payment_settings ADD CONSTRAINT payment_settings_level_check
    CHECK (require_payment_checkin IN ('none','soft','hard'))`);

  await knex.schema.alterTable('housekeeping_tasks', (t) => {
    t.uuid('booking_id');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('housekeeping_tasks', (t) => t.dropColumn('booking_id'));
  await knex.schema.dropTable('payment_settings');
  await knex.schema.dropTable('idempotency_keys');
  await knex.schema.dropTable('booking_guests');
  await knex.schema.dropTable('booking_payments');
  await knex.schema.dropTable('bookings');
}
