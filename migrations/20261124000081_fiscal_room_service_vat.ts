import type { Knex } from 'knex';

/**
 * Room service billed to a stay is catering, not lodging: its receipt lines carry their own VAT rate (lodging may be
 * at 0% while food is not). Same default as the lodging rate: the simplified system without VAT.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('payment_settings', (t) => {
    t.text('fiscal_vat_room_service').notNullable().defaultTo('none');
  });
  await knex.raw(`ALTER TABLE payment_settings ADD CONSTRAINT payment_settings_fiscal_room_service_check
    CHECK (fiscal_vat_room_service IN ('none', '0', '5', '7', '10', '20', '22'))`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('payment_settings', (t) => {
    t.dropChecks('payment_settings_fiscal_room_service_check');
    t.dropColumn('fiscal_vat_room_service');
  });
}
