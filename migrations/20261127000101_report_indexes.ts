import type { Knex } from 'knex';

/**
 * The reports (docs/decisions/reports.md) read a hotel's folio lines by business date over ranges of up to two years:
 * the folios' own index starts with the folio, so a range would scan every line of the hotel.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('CREATE INDEX folio_lines_business_date_idx ON folio_lines (hotel_id, business_date, kind)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX folio_lines_business_date_idx');
}
