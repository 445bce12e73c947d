import type { Knex } from 'knex';

/** Side effects written in the same transaction as the fact they follow, delivered to Temporal after commit. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('outbox', (t) => {
    t.bigIncrements('id');
    t.jsonb('message').notNullable();
    t.integer('attempts').notNullable().defaultTo(0);
    t.text('last_error');
    t.timestamp('available_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('delivered_at', { useTz: true });
  });
  await knex.raw('CREATE INDEX outbox_pending_idx ON outbox (available_at, id) WHERE delivered_at IS NULL');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('outbox');
}
