import type { Knex } from 'knex';

/**
 * The hotel's books (docs/decisions/folios.md). A booking's folios: the guest's (one, made at its first line) and
 * those of companies paying part of it (a payer's name and INN). Their lines: dated by the business date they belong
 * to, signed (what the payer owes is positive: charges, nights, refunds; payments and discounts are negative), each
 * keyed by its `source` unique per hotel so a retried posting writes nothing, never updated but to move between
 * folios (each move recorded), never deleted. Per hotel: the last closed business day and whether a check-out with a
 * balance needs the desk's decision; the decisions taken at check-out.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('folios', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('hotel_id').notNullable().references('hotels.id').onDelete('CASCADE');
    t.uuid('booking_id').notNullable();
    t.text('payer_kind').notNullable();
    t.text('payer_name');
    t.text('payer_inn');
    t.uuid('created_by');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['hotel_id', 'id']);
  });
  await knex.raw(`ALTER TABLE folios
    ADD CONSTRAINT folios_booking_fk FOREIGN KEY (hotel_id, booking_id)
      REFERENCES bookings (hotel_id, id) ON DELETE CASCADE,
    ADD CONSTRAINT folios_payer_check CHECK (
      (payer_kind = 'guest' AND payer_name IS NULL AND payer_inn IS NULL)
      OR (payer_kind = 'company' AND char_length(payer_name) BETWEEN 1 AND 200 AND payer_inn ~ '^([0-9]{10}|[0-9]{12})$'))`);
  await knex.raw(`CREATE UNIQUE INDEX folios_guest_unique ON folios (hotel_id, booking_id) WHERE payer_kind = 'guest'`);
  await knex.raw('CREATE INDEX folios_booking_idx ON folios (hotel_id, booking_id)');

  await knex.schema.createTable('folio_lines', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('hotel_id').notNullable().references('hotels.id').onDelete('CASCADE');
    t.uuid('folio_id').notNullable();
    t.text('kind').notNullable();
    t.decimal('amount', 14, 2).notNullable();
    t.text('vat_rate').notNullable();
    t.date('business_date').notNullable();
    t.text('description').notNullable();
    t.uuid('posted_by');
    t.text('posted_via').notNullable();
    t.text('source').notNullable();
    t.uuid('corrects_line_id');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['hotel_id', 'source']);
    t.unique(['hotel_id', 'id']);
  });
  await knex.raw(`ALTER TABLE folio_lines
    ADD CONSTRAINT folio_lines_folio_fk FOREIGN KEY (hotel_id, folio_id) REFERENCES folios (hotel_id, id) ON DELETE CASCADE,
    ADD CONSTRAINT folio_lines_corrects_fk FOREIGN KEY (hotel_id, corrects_line_id)
      REFERENCES folio_lines (hotel_id, id) ON DELETE CASCADE,
    ADD CONSTRAINT folio_lines_values_check CHECK (
      kind IN ('room_night', 'tourist_tax', 'room_service', 'minibar', 'rental', 'service', 'discount', 'correction',
        'payment', 'refund')
      AND vat_rate IN ('none', '0', '5', '7', '10', '20', '22')
      AND char_length(description) BETWEEN 1 AND 500 AND char_length(source) BETWEEN 1 AND 200
      AND char_length(posted_via) BETWEEN 1 AND 50)`);
  await knex.raw('CREATE INDEX folio_lines_folio_idx ON folio_lines (hotel_id, folio_id, business_date)');

  await knex.schema.createTable('folio_line_moves', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('hotel_id').notNullable().references('hotels.id').onDelete('CASCADE');
    t.uuid('line_id').notNullable();
    t.uuid('from_folio_id').notNullable();
    t.uuid('to_folio_id').notNullable();
    t.uuid('moved_by');
    t.timestamp('moved_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw(`ALTER TABLE folio_line_moves
    ADD CONSTRAINT folio_line_moves_line_fk FOREIGN KEY (hotel_id, line_id) REFERENCES folio_lines (hotel_id, id)
      ON DELETE CASCADE`);
  await knex.raw('CREATE INDEX folio_line_moves_line_idx ON folio_line_moves (hotel_id, line_id)');

  await knex.schema.createTable('folio_settings', (t) => {
    t.uuid('hotel_id').primary().references('hotels.id').onDelete('CASCADE');
    t.date('closed_through');
    t.boolean('checkout_needs_settlement').notNullable().defaultTo(false);
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  // Hotels registered before this migration; new ones get theirs at registration.
  await knex.raw('INSERT INTO folio_settings (hotel_id) SELECT id FROM hotels ON CONFLICT DO NOTHING');

  await knex.schema.createTable('folio_settlements', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('hotel_id').notNullable().references('hotels.id').onDelete('CASCADE');
    t.uuid('booking_id').notNullable();
    t.text('decision').notNullable();
    t.decimal('balance', 14, 2).notNullable();
    t.text('note');
    t.uuid('decided_by');
    t.timestamp('decided_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw(`ALTER TABLE folio_settlements
    ADD CONSTRAINT folio_settlements_booking_fk FOREIGN KEY (hotel_id, booking_id)
      REFERENCES bookings (hotel_id, id) ON DELETE CASCADE,
    ADD CONSTRAINT folio_settlements_values_check CHECK (
      decision IN ('leave_open', 'write_off', 'bill_company') AND char_length(note) <= 500)`);
  await knex.raw('CREATE INDEX folio_settlements_booking_idx ON folio_settlements (hotel_id, booking_id)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('folio_settlements');
  await knex.schema.dropTable('folio_settings');
  await knex.schema.dropTable('folio_line_moves');
  await knex.schema.dropTable('folio_lines');
  await knex.schema.dropTable('folios');
}
