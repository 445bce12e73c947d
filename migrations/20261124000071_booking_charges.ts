import type { Knex } from 'knex';

/**
 * The lines of a stay's bill beside its room price: charges (room service delivered to the room) and discounts
 * (loyalty points redeemed). Each line names what it came from, once: `(kind, source_id)` is unique per hotel, so a
 * retried delivery or redemption cannot bill twice. `charges_amount` on the booking is their sum, kept in step in the
 * transaction that adds a line (the booking row locked), like `paid_amount` with the payments.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('bookings', (t) => {
    t.decimal('charges_amount', 12, 2).notNullable().defaultTo(0);
  });
  await knex.schema.createTable('booking_charges', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('hotel_id').notNullable();
    t.uuid('booking_id').notNullable();
    t.text('kind').notNullable();
    t.text('source_id').notNullable();
    t.text('description').notNullable();
    t.decimal('amount', 12, 2).notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.foreign(['hotel_id', 'booking_id']).references(['hotel_id', 'id']).inTable('bookings').onDelete('CASCADE');
    t.unique(['hotel_id', 'kind', 'source_id']);
    t.index(['hotel_id', 'booking_id', 'created_at']);
  });
  await knex.raw(`ALTER TABLE booking_charges ADD CONSTRAINT booking_charges_values_check
    CHECK (amount <> 0 AND kind IN ('room_service','loyalty_redemption') AND length(description) BETWEEN 1 AND 500)`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('booking_charges');
  await knex.schema.alterTable('bookings', (t) => {
    t.dropColumn('charges_amount');
  });
}
