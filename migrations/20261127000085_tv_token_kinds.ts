import type { Knex } from 'knex';

/**
 * The TV poll token comes two ways. `issued`: made by the service (256 random bits), kept as its SHA-256 and looked up
 * by it alone, so it is unique across hotels by construction. `vendor`: a TV vendor's own token staff type in, kept as
 * a digest keyed by the hotel, so two hotels may hold the same one and setting it never says whether another hotel
 * does (the poll names the hotel). Tokens set before this were looked up alone: they stay `issued` until replaced.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('tv_settings', (t) => {
    t.text('tl_token_kind');
    t.timestamp('tl_token_created_at', { useTz: true });
  });
  await knex.raw(`UPDATE tv_settings SET tl_token_kind = 'issued' WHERE tl_token_hash IS NOT NULL`);
  await knex.raw('DROP INDEX tv_settings_tl_token_hash_unique');
  await knex.raw(
    `CREATE UNIQUE INDEX tv_settings_issued_token_unique ON tv_settings (tl_token_hash) WHERE tl_token_kind = 'issued'`,
  );
  await knex.raw(`ALTER TABLE tv_settings ADD CONSTRAINT tv_settings_token_kind_check CHECK (
    tl_token_kind IN ('issued', 'vendor') AND (tl_token_hash IS NULL) = (tl_token_kind IS NULL))`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE tv_settings DROP CONSTRAINT tv_settings_token_kind_check');
  await knex.raw('DROP INDEX tv_settings_issued_token_unique');
  // Vendor tokens' digests are keyed by their hotel: the older lookup cannot read them.
  await knex.raw(`UPDATE tv_settings SET tl_token_hash = NULL, tl_token_hint = NULL WHERE tl_token_kind = 'vendor'`);
  await knex.raw('CREATE UNIQUE INDEX tv_settings_tl_token_hash_unique ON tv_settings (tl_token_hash)');
  await knex.schema.alterTable('tv_settings', (t) => {
    t.dropColumn('tl_token_kind');
    t.dropColumn('tl_token_created_at');
  });
}
