import type { Knex } from 'knex';

/**
 * Personal data kept no longer than allowed (docs/decisions/retention.md): per hotel how many days a guest's data is
 * kept after the last stay; when a guest was erased (the row stays, as an anonymous marker the books still point at);
 * and the consent a guest gives with each widget submission (the text's version the hotel's widget names, and when).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('retention_settings', (t) => {
    t.uuid('hotel_id').primary().references('hotels.id').onDelete('CASCADE');
    t.integer('guest_data_days').notNullable().defaultTo(1095);
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw(`ALTER TABLE retention_settings
    ADD CONSTRAINT retention_settings_values_check CHECK (guest_data_days BETWEEN 30 AND 3650)`);
  await knex.raw('INSERT INTO retention_settings (hotel_id) SELECT id FROM hotels ON CONFLICT DO NOTHING');

  await knex.schema.alterTable('guests', (t) => {
    t.timestamp('erased_at', { useTz: true });
  });
  // The daily sweep reads the guests not yet erased.
  await knex.raw('CREATE INDEX guests_not_erased_index ON guests (hotel_id, created_at) WHERE erased_at IS NULL');

  await knex.schema.alterTable('widget_settings', (t) => {
    t.text('consent_text_version').notNullable().defaultTo('1');
  });
  await knex.raw(`ALTER TABLE widget_settings
    ADD CONSTRAINT widget_settings_consent_check CHECK (consent_text_version ~ '^[A-Za-z0-9._-]{1,40}$')`);

  await knex.schema.createTable('personal_data_consents', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('hotel_id').notNullable().references('hotels.id').onDelete('CASCADE');
    t.uuid('booking_id');
    t.uuid('rental_booking_id');
    t.text('text_version').notNullable();
    t.timestamp('given_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['booking_id']);
    t.unique(['rental_booking_id']);
    t.index(['hotel_id', 'given_at']);
  });
  await knex.raw(`ALTER TABLE personal_data_consents
    ADD CONSTRAINT personal_data_consents_subject_check CHECK ((booking_id IS NULL) <> (rental_booking_id IS NULL))`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('personal_data_consents');
  await knex.raw('ALTER TABLE widget_settings DROP CONSTRAINT widget_settings_consent_check');
  await knex.schema.alterTable('widget_settings', (t) => t.dropColumn('consent_text_version'));
  await knex.raw('DROP INDEX guests_not_erased_index');
  await knex.schema.alterTable('guests', (t) => t.dropColumn('erased_at'));
  await knex.schema.dropTable('retention_settings');
}
