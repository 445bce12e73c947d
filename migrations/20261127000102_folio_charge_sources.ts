import type { Knex } from 'knex';

/**
 * A charge told to the folios (a minibar item of a task's check, a rental charged to a room) finds its lines by the
 * prefix of their source (`minibar:<task>:<item>:`, `rental:<rental booking>:`; docs/decisions/folio-charges-and-
 * receipts.md): an index of the sources in byte order lets `LIKE 'prefix%'` seek them whatever the database's
 * collation, instead of reading every line of the hotel.
 *
 * What each desk receipt of a stay gave each thing (the lodging, the tourist tax, room service, a service, the minibar,
 * rentals) at its VAT rate, signed (a refund's is negative): a later payment pays what each thing still owes net of it,
 * a refund gives back only what was receipted. Written with the receipt, never changed.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('CREATE INDEX folio_lines_source_prefix_idx ON folio_lines (hotel_id, source text_pattern_ops)');
  await knex.schema.createTable('receipt_shares', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('hotel_id').notNullable().references('hotels.id').onDelete('CASCADE');
    t.uuid('booking_id').notNullable();
    t.uuid('payment_id').notNullable();
    t.text('kind').notNullable();
    t.text('vat_rate').notNullable();
    t.decimal('amount', 14, 2).notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['hotel_id', 'payment_id', 'kind', 'vat_rate']);
  });
  await knex.raw(`ALTER TABLE receipt_shares
    ADD CONSTRAINT receipt_shares_booking_fk FOREIGN KEY (hotel_id, booking_id)
      REFERENCES bookings (hotel_id, id) ON DELETE CASCADE,
    ADD CONSTRAINT receipt_shares_values_check CHECK (
      kind IN ('lodging', 'tourist_tax', 'room_service', 'service', 'minibar', 'rental')
      AND vat_rate IN ('none', '0', '5', '7', '10', '20', '22') AND amount <> 0)`);
  await knex.raw('CREATE INDEX receipt_shares_booking_idx ON receipt_shares (hotel_id, booking_id)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('receipt_shares');
  await knex.raw('DROP INDEX folio_lines_source_prefix_idx');
}
