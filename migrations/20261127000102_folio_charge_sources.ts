import type { Knex } from 'knex';

/**
 * A charge told to the folios (a minibar item of a task's check, a rental charged to a room) finds its lines by the
 * prefix of their source (`minibar:<task>:<item>:`, `rental:<rental booking>:`; docs/decisions/folio-charges-and-
 * receipts.md): an index of the sources in byte order lets `LIKE 'prefix%'` seek them whatever the database's
 * collation, instead of reading every line of the hotel.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('CREATE INDEX folio_lines_source_prefix_idx ON folio_lines (hotel_id, source text_pattern_ops)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX folio_lines_source_prefix_idx');
}
