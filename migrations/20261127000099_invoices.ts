import type { Knex } from 'knex';

const REQUISITES = [
  'legal_name',
  'inn',
  'kpp',
  'legal_address',
  'bank_name',
  'bik',
  'settlement_account',
  'correspondent_account',
];

/**
 * Invoices (docs/decisions/invoices.md). The hotel's requisites in its settings. Per hotel, series and calendar year a
 * counter row, taken with an upsert in the transaction that inserts the document it numbers, so numbers have no gaps.
 * An invoice snapshots the seller's and the payer's requisites and its lines (each a folio line, live on at most one
 * invoice not cancelled); a credit note cancels one; payments to an invoice are posted to its folio; e-mails asked.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('hotel_settings', (t) => {
    for (const column of REQUISITES) t.text(column);
  });

  await knex.schema.createTable('invoice_counters', (t) => {
    t.uuid('hotel_id').notNullable().references('hotels.id').onDelete('CASCADE');
    t.text('series').notNullable();
    t.integer('year').notNullable();
    t.integer('last').notNullable();
    t.primary(['hotel_id', 'series', 'year']);
  });
  await knex.raw(`ALTER TABLE invoice_counters ADD CONSTRAINT invoice_counters_series_check
    CHECK (series IN ('invoice', 'credit_note') AND last > 0)`);

  await knex.schema.createTable('invoices', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('hotel_id').notNullable().references('hotels.id').onDelete('CASCADE');
    t.uuid('booking_id').notNullable();
    t.uuid('folio_id').notNullable();
    t.integer('year').notNullable();
    t.integer('sequence').notNullable();
    t.text('number').notNullable();
    t.date('issued_on').notNullable();
    t.jsonb('seller').notNullable();
    t.jsonb('payer').notNullable();
    t.decimal('total', 14, 2).notNullable();
    t.decimal('vat_total', 14, 2).notNullable();
    t.decimal('paid_amount', 14, 2).notNullable().defaultTo(0);
    t.text('status').notNullable().defaultTo('issued');
    t.text('pdf_key');
    t.uuid('issued_by');
    t.timestamp('issued_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['hotel_id', 'year', 'sequence']);
    t.unique(['hotel_id', 'id']);
  });
  await knex.raw(`ALTER TABLE invoices
    ADD CONSTRAINT invoices_folio_fk FOREIGN KEY (hotel_id, folio_id) REFERENCES folios (hotel_id, id) ON DELETE CASCADE,
    ADD CONSTRAINT invoices_values_check CHECK (status IN ('issued', 'cancelled') AND total > 0
      AND paid_amount >= 0 AND paid_amount <= total)`);
  await knex.raw('CREATE INDEX invoices_booking_idx ON invoices (hotel_id, booking_id)');

  await knex.schema.createTable('invoice_lines', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('hotel_id').notNullable().references('hotels.id').onDelete('CASCADE');
    t.uuid('invoice_id').notNullable();
    t.uuid('folio_line_id').notNullable();
    t.integer('position').notNullable();
    t.text('description').notNullable();
    t.date('business_date').notNullable();
    t.decimal('amount', 14, 2).notNullable();
    t.text('vat_rate').notNullable();
    t.decimal('vat_amount', 14, 2).notNullable();
    t.boolean('live').notNullable().defaultTo(true);
  });
  await knex.raw(`ALTER TABLE invoice_lines
    ADD CONSTRAINT invoice_lines_invoice_fk FOREIGN KEY (hotel_id, invoice_id) REFERENCES invoices (hotel_id, id)
      ON DELETE CASCADE,
    ADD CONSTRAINT invoice_lines_folio_line_fk FOREIGN KEY (hotel_id, folio_line_id)
      REFERENCES folio_lines (hotel_id, id) ON DELETE CASCADE`);
  // A folio line is on at most one invoice not cancelled, also when two issues race.
  await knex.raw('CREATE UNIQUE INDEX invoice_lines_live_unique ON invoice_lines (hotel_id, folio_line_id) WHERE live');
  await knex.raw('CREATE INDEX invoice_lines_invoice_idx ON invoice_lines (hotel_id, invoice_id, position)');

  await knex.schema.createTable('credit_notes', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('hotel_id').notNullable().references('hotels.id').onDelete('CASCADE');
    t.uuid('invoice_id').notNullable();
    t.integer('year').notNullable();
    t.integer('sequence').notNullable();
    t.text('number').notNullable();
    t.date('issued_on').notNullable();
    t.decimal('total', 14, 2).notNullable();
    t.text('reason').notNullable();
    t.uuid('issued_by');
    t.timestamp('issued_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['hotel_id', 'year', 'sequence']);
    t.unique(['hotel_id', 'invoice_id']);
  });
  await knex.raw(`ALTER TABLE credit_notes
    ADD CONSTRAINT credit_notes_invoice_fk FOREIGN KEY (hotel_id, invoice_id) REFERENCES invoices (hotel_id, id)
      ON DELETE CASCADE,
    ADD CONSTRAINT credit_notes_reason_check CHECK (char_length(reason) BETWEEN 1 AND 500)`);

  await knex.schema.createTable('invoice_payments', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('hotel_id').notNullable().references('hotels.id').onDelete('CASCADE');
    t.uuid('invoice_id').notNullable();
    t.decimal('amount', 14, 2).notNullable();
    t.text('method').notNullable();
    t.uuid('booking_payment_id').notNullable().unique();
    t.uuid('folio_line_id').notNullable();
    t.uuid('paid_by');
    t.timestamp('paid_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw(`ALTER TABLE invoice_payments
    ADD CONSTRAINT invoice_payments_invoice_fk FOREIGN KEY (hotel_id, invoice_id) REFERENCES invoices (hotel_id, id)
      ON DELETE CASCADE,
    ADD CONSTRAINT invoice_payments_values_check CHECK (amount > 0
      AND method = 'bank_transfer')`);
  await knex.raw('CREATE INDEX invoice_payments_invoice_idx ON invoice_payments (hotel_id, invoice_id)');

  await knex.schema.createTable('invoice_emails', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('hotel_id').notNullable().references('hotels.id').onDelete('CASCADE');
    t.uuid('invoice_id').notNullable();
    t.text('to').notNullable();
    t.uuid('requested_by');
    t.timestamp('requested_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('sent_at', { useTz: true });
  });
  await knex.raw(`ALTER TABLE invoice_emails
    ADD CONSTRAINT invoice_emails_invoice_fk FOREIGN KEY (hotel_id, invoice_id) REFERENCES invoices (hotel_id, id)
      ON DELETE CASCADE`);
  await knex.raw('CREATE INDEX invoice_emails_invoice_idx ON invoice_emails (hotel_id, invoice_id)');
}

export async function down(knex: Knex): Promise<void> {
  for (const table of ['invoice_emails', 'invoice_payments', 'credit_notes', 'invoice_lines', 'invoices'])
    await knex.schema.dropTable(table);
  await knex.schema.dropTable('invoice_counters');
  await knex.schema.alterTable('hotel_settings', (t) => {
    for (const column of REQUISITES) t.dropColumn(column);
  });
}
