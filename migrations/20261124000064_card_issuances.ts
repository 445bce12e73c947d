import type { Knex } from 'knex';

/**
 * Door-lock cards written at a desk: what was asked (booking, rooms and their locks, sectors, validity, by whom, at
 * which workstation) and what came of it (the card number, or the encoder's or lock cloud's refusal in words).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('card_issuances', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('hotel_id').notNullable().references('hotels.id').onDelete('CASCADE');
    t.uuid('booking_id').notNullable();
    t.uuid('workstation_id');
    t.specificType('room_ids', 'uuid[]').notNullable();
    t.specificType('sectors', 'smallint[]').notNullable();
    t.timestamp('valid_from', { useTz: true }).notNullable();
    t.timestamp('valid_until', { useTz: true }).notNullable();
    t.text('status').notNullable().defaultTo('pending');
    t.text('card_number');
    t.text('error_code');
    t.text('error_message');
    t.uuid('issued_by');
    t.uuid('cancelled_by');
    t.timestamp('cancelled_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.foreign(['hotel_id', 'booking_id'], 'card_issuances_booking_fk')
      .references(['hotel_id', 'id'])
      .inTable('bookings')
      .onDelete('CASCADE');
    // A desk removed later leaves its cards on record.
    t.foreign(['hotel_id', 'workstation_id'], 'card_issuances_workstation_fk')
      .references(['hotel_id', 'id'])
      .inTable('workstations')
      .onDelete('SET NULL (workstation_id)');
    t.index(['hotel_id', 'booking_id', 'created_at']);
  });
  await knex.raw(`ALTER TABLE card_issuances ADD CONSTRAINT card_issuances_values_check CHECK (
    status IN ('pending', 'written', 'failed', 'cancelled')
    AND cardinality(room_ids) BETWEEN 1 AND 10
    AND cardinality(sectors) BETWEEN 1 AND 16
    AND sectors <@ ARRAY[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16]::smallint[]
    AND valid_until > valid_from
    AND (status IN ('written', 'cancelled')) = (card_number IS NOT NULL)
    AND (status = 'cancelled') = (cancelled_at IS NOT NULL))`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('card_issuances');
}
