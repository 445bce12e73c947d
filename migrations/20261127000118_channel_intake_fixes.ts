import type { Knex } from 'knex';
import { installAuditTriggers } from '../src/platform/db/audit-tables';

/**
 * Channel intake's fixes (docs/decisions/channel-intake.md): a revision as intake parsed it (the guest's name and
 * contacts, some under keys such as `mail` the audit's JSON masking does not know; the OTA's notes) and what refused
 * it are masked whole in the audit log from now on, as the messages of the other modules are (the entries written
 * before are chained by their hashes and stay as they are).
 */
export async function up(knex: Knex): Promise<void> {
  await installAuditTriggers(knex, ['channel_revisions']);
}

export async function down(): Promise<void> {
  // The trigger's masking stays: unmasking personal data is not a step back to take.
}
