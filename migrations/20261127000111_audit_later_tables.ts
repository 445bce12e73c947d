import type { Knex } from 'knex';
import { installAuditTriggers } from '../src/platform/db/audit-tables';

/**
 * The audit log's triggers (re)installed on every business table (docs/decisions/audit-log.md): the tables created
 * after migration 104 (retention's `retention_settings` and `personal_data_consents`) get theirs, and the tables that
 * gained columns since (`guests.erased_at`, `widget_settings.consent_text_version`) have them masked or not by the
 * same rules. A later migration that adds a table or a column calls `installAuditTriggers` for it the same way.
 */
export async function up(knex: Knex): Promise<void> {
  await installAuditTriggers(knex);
}

export async function down(): Promise<void> {
  throw new Error('forward-only: the audit log is kept');
}
