import type { Knex } from 'knex';
import { installAuditTriggers } from '../src/platform/db/audit-tables';

/**
 * The channel's nightly reconciliation (docs/decisions/channels.md): the last one's record on the connection (when,
 * how many item-days the channel held otherwise than they were sent, the first few; the activity that made it). The
 * sync's bookkeeping, as `last_synced_at` and `last_error`: a change of it alone is not audited (the trigger is
 * installed again with the column among its bookkeeping ones).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('channel_connections', (t) => {
    t.jsonb('last_reconciliation');
  });
  await knex.raw(`ALTER TABLE channel_connections ADD CONSTRAINT channel_connections_reconciliation_check
    CHECK (jsonb_typeof(last_reconciliation) = 'object' AND pg_column_size(last_reconciliation) <= 8000)`);
  await installAuditTriggers(knex, ['channel_connections']);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('channel_connections', (t) => {
    t.dropColumn('last_reconciliation');
  });
  await installAuditTriggers(knex, ['channel_connections']);
}
