import type { Knex } from 'knex';

/**
 * E-mails taken on under a key (an account e-mail: its workflow's id), so none goes out twice: the row is committed
 * before the message goes to the relay and marked sent after. A row left unsent for long is an e-mail whose fate is
 * unknown (see src/platform/db/mail-claims.ts).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('mail_claims', (t) => {
    t.text('key').primary();
    t.timestamp('claimed_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('sent_at', { useTz: true });
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('mail_claims');
}
