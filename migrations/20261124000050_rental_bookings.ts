import type { Knex } from 'knex';

/**
 * Bookings of rental objects (a court by the hour, a hall by the day). An object is never booked twice: an exclusion
 * constraint over the object and the time a booking holds it, the object's buffer after it included, for every booking
 * not cancelled. Every bound the API checks is a constraint as well, so a request that slips past validation is
 * refused whole rather than half written; the objects get theirs here too.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`ALTER TABLE rental_objects
    ADD CONSTRAINT rental_objects_hotel_id_id_unique UNIQUE (hotel_id, id),
    ADD CONSTRAINT rental_objects_values_check CHECK (
      char_length(name) BETWEEN 1 AND 100
      AND char_length(icon) <= 50
      AND color ~ '^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$'
      AND text_color ~ '^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$'
      AND price_per_hour >= 0 AND price_per_day >= 0
      AND sort_order BETWEEN -10000 AND 10000
      AND buffer_minutes <= 720)`);

  await knex.schema.createTable('rental_bookings', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('hotel_id').notNullable().references('hotels.id').onDelete('CASCADE');
    t.uuid('rental_object_id').notNullable();
    t.text('kind').notNullable();
    // A daily booking's days, as the guest booked them; its start_at..end_at are their opening hours.
    t.date('date_from');
    t.date('date_to');
    t.timestamp('start_at', { useTz: true }).notNullable();
    t.timestamp('end_at', { useTz: true }).notNullable();
    // The object's buffer when the booking was made: kept free after end_at, up to blocked_until.
    t.integer('buffer_minutes').notNullable().defaultTo(0);
    t.timestamp('blocked_until', { useTz: true }).notNullable();
    t.text('status').notNullable().defaultTo('confirmed');
    t.text('source').notNullable().defaultTo('front_desk');
    t.text('guest_name').notNullable();
    t.text('guest_phone').notNullable();
    t.text('guest_email');
    t.text('comment').notNullable().defaultTo('');
    // The room booking the rental is charged to.
    t.uuid('booking_id');
    t.decimal('price', 12, 2).notNullable();
    t.uuid('created_by').references('users.id').onDelete('SET NULL');
    t.timestamp('cancelled_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.foreign(['hotel_id', 'rental_object_id'], 'rental_bookings_object_fk')
      .references(['hotel_id', 'id'])
      .inTable('rental_objects');
    t.foreign(['hotel_id', 'booking_id'], 'rental_bookings_booking_fk')
      .references(['hotel_id', 'id'])
      .inTable('bookings');
    t.index(['hotel_id', 'start_at']);
    t.index(['hotel_id', 'booking_id']);
  });
  await knex.raw(`ALTER TABLE rental_bookings
    ADD CONSTRAINT rental_bookings_values_check CHECK (
      status IN ('confirmed', 'cancelled')
      AND source IN ('front_desk', 'phone', 'walk_in', 'online', 'other')
      AND ((kind = 'hourly' AND date_from IS NULL AND date_to IS NULL)
        OR (kind = 'daily' AND date_from IS NOT NULL AND date_to IS NOT NULL AND date_to >= date_from))
      AND end_at >= start_at + interval '1 hour'
      AND buffer_minutes BETWEEN 0 AND 720
      AND blocked_until = end_at + make_interval(mins => buffer_minutes)
      AND price >= 0
      AND char_length(guest_name) BETWEEN 1 AND 200
      AND char_length(guest_phone) BETWEEN 1 AND 50
      AND char_length(guest_email) <= 254
      AND char_length(comment) <= 2000
      AND (status = 'cancelled') = (cancelled_at IS NOT NULL)),
    ADD CONSTRAINT rental_bookings_no_overlap EXCLUDE USING gist
      (rental_object_id WITH =, tstzrange(start_at, blocked_until, '[)') WITH &&)
      WHERE (status <> 'cancelled')`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('rental_bookings');
  await knex.raw(`ALTER TABLE rental_objects
    DROP CONSTRAINT rental_objects_values_check,
    DROP CONSTRAINT rental_objects_hotel_id_id_unique`);
}
