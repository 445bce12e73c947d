import type { Knex } from 'knex';

/**
 * The tourist tax (Tax Code chapter 33.1). Per hotel: whether it charges the tax, the municipality's rate (percent),
 * the seasons with their own rates (jsonb: a short list read whole with the row), and the VAT its lodging prices
 * include (null: the rate its receipts name, `payment_settings.fiscal_vat`). Per booking: the exemption the desk
 * recorded, with its category and document (the number encrypted like passports, under the key it names), covering
 * the stay's nights from the document's date to its last valid night; it goes with its booking.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('tourist_tax_settings', (t) => {
    t.uuid('hotel_id').primary().references('hotels.id').onDelete('CASCADE');
    t.boolean('enabled').notNullable().defaultTo(false);
    t.decimal('rate', 4, 2).notNullable().defaultTo(0);
    t.jsonb('seasons').notNullable().defaultTo('[]');
    t.text('vat_rate');
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw(`ALTER TABLE tourist_tax_settings ADD CONSTRAINT tourist_tax_settings_values_check CHECK (
    rate BETWEEN 0 AND 5 AND jsonb_typeof(seasons) = 'array' AND jsonb_array_length(seasons) <= 24
    AND vat_rate IN ('none', '0', '5', '7', '10', '20', '22'))`);
  // The widget's offers show the tax and are cached per inventory version (migration 52): a change of what it is
  // computed with moves the version, the rate of the receipts included while the tax follows it.
  await knex.raw(`
    CREATE CONSTRAINT TRIGGER tourist_tax_settings_inventory_changed AFTER UPDATE ON tourist_tax_settings
      DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION inventory_changed()`);
  await knex.raw(`
    CREATE CONSTRAINT TRIGGER payment_settings_inventory_fiscal_vat AFTER UPDATE OF fiscal_vat ON payment_settings
      DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (OLD.fiscal_vat IS DISTINCT FROM NEW.fiscal_vat)
      EXECUTE FUNCTION inventory_changed()`);
  // Hotels registered before this migration; new ones get theirs at registration.
  await knex.raw('INSERT INTO tourist_tax_settings (hotel_id) SELECT id FROM hotels ON CONFLICT DO NOTHING');

  await knex.schema.createTable('tourist_tax_exemptions', (t) => {
    t.uuid('hotel_id').notNullable().references('hotels.id').onDelete('CASCADE');
    t.uuid('booking_id').notNullable();
    t.text('category').notNullable();
    t.text('description');
    t.text('document_kind').notNullable();
    t.text('document_number_encrypted').notNullable();
    t.text('document_key_id').notNullable();
    t.date('document_date').notNullable();
    t.date('valid_until');
    t.uuid('recorded_by');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['hotel_id', 'booking_id']);
  });
  await knex.raw(`ALTER TABLE tourist_tax_exemptions
    ADD CONSTRAINT tourist_tax_exemptions_booking_fk FOREIGN KEY (hotel_id, booking_id)
      REFERENCES bookings (hotel_id, id) ON DELETE CASCADE,
    ADD CONSTRAINT tourist_tax_exemptions_values_check CHECK (
      category IN ('hero', 'labour_hero', 'war_veteran', 'combat_veteran', 'disabled_1_2', 'disabled_child',
        'svo_participant', 'medical_treatment', 'student', 'labour_contract', 'other_municipal')
      AND (category <> 'other_municipal' OR description IS NOT NULL)
      AND char_length(description) <= 500 AND char_length(document_kind) BETWEEN 1 AND 100
      AND (valid_until IS NULL OR valid_until >= document_date))`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP TRIGGER payment_settings_inventory_fiscal_vat ON payment_settings');
  await knex.schema.dropTable('tourist_tax_exemptions');
  await knex.schema.dropTable('tourist_tax_settings');
}
