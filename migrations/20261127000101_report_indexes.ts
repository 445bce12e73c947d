import type { Knex } from 'knex';

/**
 * The reports (docs/decisions/reports.md) read a hotel's folio lines by business date over ranges of up to two years:
 * the folios' own index starts with the folio, so a range would scan every line of the hotel.
 *
 * A payment's method is kept on its folio lines (payment, refund, and the correction that removes it) when they are
 * posted: the payments' ledger deletes a removed payment's row, so a shift report reading the method there would
 * change for days already past. Lines posted before are filled from the ledger, and for payments already gone from
 * the method their description names (`Оплата (cash)`).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('CREATE INDEX folio_lines_business_date_idx ON folio_lines (hotel_id, business_date, kind)');
  await knex.raw('ALTER TABLE folio_lines ADD COLUMN payment_method text');
  await knex.raw(`
    UPDATE folio_lines l SET payment_method = p.method
    FROM booking_payments p
    WHERE l.kind IN ('payment', 'refund', 'correction') AND p.hotel_id = l.hotel_id
      AND (l.source = 'payment:' || p.id::text OR l.source = 'payment_removed:' || p.id::text)`);
  await knex.raw(`
    UPDATE folio_lines SET payment_method = substring(description FROM '\\(([a-z_]+)\\)$')
    WHERE payment_method IS NULL
      AND (kind IN ('payment', 'refund') OR (kind = 'correction' AND source LIKE 'payment\\_removed:%'))`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE folio_lines DROP COLUMN payment_method');
  await knex.raw('DROP INDEX folio_lines_business_date_idx');
}
