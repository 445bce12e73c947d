import type { Knex } from 'knex';

/**
 * resend-confirmation and forgot-password record the request and answer; a workflow handles it afterwards, so the
 * answer costs the same for an address with or without an account (no enumeration by timing). The address stays
 * here, not in the workflow's history: Temporal gets only the request id.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('account_requests', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.text('purpose').notNullable();
    t.text('email').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw(`ALTER TABLE account_requests ADD CONSTRAINT account_requests_purpose_check
    CHECK (purpose IN ('confirmation', 'reset'))`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('account_requests');
}
