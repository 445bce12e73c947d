import type { Knex } from 'knex';

/**
 * A redemption keeps the money it took off the bill, so its reversal gives back that discount (whatever a point is
 * worth by then) from the ledger alone, in its own transaction. Earlier redemptions take it from their bill line:
 * each was written with its line, in one transaction.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('loyalty_entries', (t) => {
    t.decimal('amount', 14, 2);
  });
  await knex.raw(`UPDATE loyalty_entries e
       SET amount = -c.amount
      FROM booking_charges c
     WHERE c.hotel_id = e.hotel_id AND c.kind = 'loyalty_redemption' AND c.source_id = e.id::text
       AND e.reason = 'redemption' AND e.points < 0`);
  await knex.raw(`ALTER TABLE loyalty_entries ADD CONSTRAINT loyalty_entries_amount_check CHECK (
    CASE WHEN reason = 'redemption' AND points < 0 THEN coalesce(amount > 0, false) ELSE amount IS NULL END)`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE loyalty_entries DROP CONSTRAINT loyalty_entries_amount_check');
  await knex.schema.alterTable('loyalty_entries', (t) => {
    t.dropColumn('amount');
  });
}
