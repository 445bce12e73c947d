import type { Knex } from 'knex';

/**
 * What every receipt a desk prints says about the hotel's taxes: its taxation system and the VAT rate of its services.
 * Most small hotels are on the simplified system without VAT, hence the defaults.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('payment_settings', (t) => {
    t.text('fiscal_taxation').notNullable().defaultTo('usn_income');
    t.text('fiscal_vat').notNullable().defaultTo('none');
  });
  await knex.raw(`ALTER TABLE payment_settings ADD CONSTRAINT payment_settings_fiscal_check CHECK (
    fiscal_taxation IN ('osn', 'usn_income', 'usn_income_outcome', 'esn', 'patent')
    AND fiscal_vat IN ('none', '0', '5', '7', '10', '20', '22'))`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('payment_settings', (t) => {
    t.dropChecks('payment_settings_fiscal_check');
    t.dropColumn('fiscal_taxation');
    t.dropColumn('fiscal_vat');
  });
}
