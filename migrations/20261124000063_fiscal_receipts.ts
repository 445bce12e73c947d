import type { Knex } from 'knex';

/**
 * 54-FZ receipts printed at a desk's fiscal register for money taken there (booking payments, deposit captures,
 * refunds). A receipt is recorded before its task is sent, so a register that refuses or a desk that never answers
 * leaves a visible failed or pending row instead of a gap. One receipt per source and operation: asking again returns
 * the same one, so a retried request never prints twice.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('fiscal_receipts', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('hotel_id').notNullable().references('hotels.id').onDelete('CASCADE');
    // No foreign keys: a receipt is a fiscal record the hotel keeps after the desk or the register is removed.
    t.uuid('workstation_id').notNullable();
    t.uuid('device_id').notNullable();
    t.text('source_kind').notNullable();
    t.uuid('source_id').notNullable();
    t.text('operation').notNullable();
    t.text('status').notNullable().defaultTo('pending');
    t.decimal('total', 12, 2).notNullable();
    t.jsonb('task').notNullable();
    t.jsonb('fiscal');
    t.text('error_code');
    t.text('error_message');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['hotel_id', 'id']);
    t.unique(['hotel_id', 'source_kind', 'source_id', 'operation']);
    t.index(['hotel_id', 'created_at', 'id']);
  });
  await knex.raw(`ALTER TABLE fiscal_receipts
    ADD CONSTRAINT fiscal_receipts_kind_check CHECK (
      source_kind IN ('booking_payment', 'deposit_capture', 'refund')
      AND operation IN ('sell', 'sellReturn')
      AND status IN ('pending', 'printed', 'failed')),
    ADD CONSTRAINT fiscal_receipts_values_check CHECK (
      total > 0
      AND jsonb_typeof(task) = 'object' AND octet_length(task::text) <= 65536
      AND (fiscal IS NULL OR (jsonb_typeof(fiscal) = 'object' AND octet_length(fiscal::text) <= 4096))
      AND char_length(error_code) BETWEEN 1 AND 64
      AND char_length(error_message) BETWEEN 1 AND 2000),
    ADD CONSTRAINT fiscal_receipts_status_check CHECK (
      (status = 'printed') = (fiscal IS NOT NULL)
      AND (status = 'failed') = (error_code IS NOT NULL AND error_message IS NOT NULL))`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('fiscal_receipts');
}
