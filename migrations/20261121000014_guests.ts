import type { Knex } from 'knex';

/**
 * Guest profiles. Passport fields are stored only as AES-256-GCM envelopes (`encryptSecret`), all four under the key
 * named by `passport_key_id`, so `npm run rotate-keys` finds the rows a key rotation must rewrite. Search reads
 * `search_name` (name parts lower-cased by the application, independent of the database locale) through a trigram
 * index, `phone_normalized` (digits only) and `email` (stored lower-cased). Booking guests reference
 * `(hotel_id, id)`, so a link can never point at another hotel's guest.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('CREATE EXTENSION IF NOT EXISTS pg_trgm');
  // Lets the trigram index start with hotel_id, like every tenant index.
  await knex.raw('CREATE EXTENSION IF NOT EXISTS btree_gin');

  await knex.schema.createTable('guests', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('hotel_id').notNullable().references('hotels.id').onDelete('CASCADE');
    t.text('last_name').notNullable();
    t.text('first_name').notNullable();
    t.text('middle_name');
    // "last first middle", lower-cased with ё read as е: what name search matches.
    t.text('search_name').notNullable();
    t.text('phone');
    t.text('phone_normalized');
    t.text('email');
    t.date('birth_date');
    t.text('citizenship');
    t.text('passport_series_encrypted');
    t.text('passport_number_encrypted');
    t.text('passport_issued_by_encrypted');
    t.text('passport_issue_date_encrypted');
    t.text('passport_key_id');
    t.text('notes').notNullable().defaultTo('');
    t.boolean('is_blacklisted').notNullable().defaultTo(false);
    t.text('blacklist_reason');
    t.timestamp('blacklisted_at', { useTz: true });
    t.uuid('blacklisted_by').references('users.id').onDelete('SET NULL');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['hotel_id', 'id']);
    t.index(['hotel_id', 'phone_normalized']);
    t.index(['hotel_id', 'last_name', 'first_name']);
  });
  await knex.raw('CREATE INDEX guests_hotel_id_email_index ON guests (hotel_id, lower(email))');
  await knex.raw('CREATE INDEX guests_search_name_trgm_index ON guests USING gin (hotel_id, search_name gin_trgm_ops)');
  await knex.raw(`ALTER TABLE guests
    ADD CONSTRAINT guests_passport_key_check CHECK ((passport_key_id IS NOT NULL) = (
      passport_series_encrypted IS NOT NULL OR passport_number_encrypted IS NOT NULL
      OR passport_issued_by_encrypted IS NOT NULL OR passport_issue_date_encrypted IS NOT NULL)),
    ADD CONSTRAINT guests_blacklist_check CHECK (CASE WHEN is_blacklisted
      THEN blacklist_reason IS NOT NULL AND blacklisted_at IS NOT NULL
      ELSE blacklist_reason IS NULL AND blacklisted_at IS NULL AND blacklisted_by IS NULL END)`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('guests');
}
