import type { Knex } from 'knex';

/**
 * Commands to workstation agents, stored before they are sent: a desk that is offline gets them when it reconnects,
 * whichever API replica it reaches, and a reply completes whoever waits for it (a staff request, or a Temporal activity
 * by its task token). A durable command is keyed by the business operation that asked for it, so a retried activity
 * sends the same command (same id) and the agent, which executes an id at most once, never writes a card twice.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('workstations', (t) => {
    // The agent connection presence belongs to: a replaced connection closing must not mark the new one offline.
    t.uuid('connection_id');
  });

  await knex.schema.createTable('agent_commands', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('hotel_id').notNullable().references('hotels.id').onDelete('CASCADE');
    t.uuid('workstation_id').notNullable();
    t.text('key');
    t.text('type').notNullable();
    t.jsonb('payload').notNullable().defaultTo('{}');
    t.boolean('durable').notNullable();
    t.text('status').notNullable().defaultTo('pending');
    // The waiting activity attempt (base64) and its workflow: the reply completes that attempt through the outbox.
    t.text('task_token');
    t.text('workflow_id');
    t.jsonb('result');
    t.jsonb('error');
    t.integer('deliveries').notNullable().defaultTo(0);
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('delivered_at', { useTz: true });
    t.timestamp('completed_at', { useTz: true });
    t.foreign(['hotel_id', 'workstation_id'], 'agent_commands_workstation_fk')
      .references(['hotel_id', 'id'])
      .inTable('workstations')
      .onDelete('CASCADE');
    t.unique(['hotel_id', 'key']);
  });
  await knex.raw(`ALTER TABLE agent_commands ADD CONSTRAINT agent_commands_values_check CHECK (
    status IN ('pending', 'succeeded', 'failed', 'expired')
    AND type ~ '^[a-z_]{1,32}$'
    AND char_length(key) BETWEEN 1 AND 200
    AND (durable OR key IS NULL)
    AND (status = 'pending') = (completed_at IS NULL))`);
  // What a reconnecting agent is sent, oldest first; finished commands never leave this index's reach.
  await knex.raw(`CREATE INDEX agent_commands_pending_idx ON agent_commands (workstation_id, created_at)
    WHERE status = 'pending'`);
  await knex.raw(
    'CREATE INDEX agent_commands_completed_idx ON agent_commands (completed_at) WHERE completed_at IS NOT NULL',
  );

  // Every way a credential stops working (pairing again, revocation, deletion, the hotel's deletion) tells every API
  // replica at commit, so an open connection is closed at once rather than at its next check.
  await knex.raw(`CREATE FUNCTION agent_credential_revoked() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF OLD.credential_hash IS NOT NULL AND (TG_OP = 'DELETE' OR NEW.credential_hash IS DISTINCT FROM OLD.credential_hash)
      THEN
        PERFORM pg_notify('agent_revocations', OLD.id::text);
      END IF;
      RETURN NULL;
    END $$`);
  await knex.raw(`CREATE TRIGGER workstations_credential_revoked
    AFTER UPDATE OF credential_hash OR DELETE ON workstations
    FOR EACH ROW EXECUTE FUNCTION agent_credential_revoked()`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP TRIGGER workstations_credential_revoked ON workstations');
  await knex.raw('DROP FUNCTION agent_credential_revoked()');
  await knex.schema.dropTable('agent_commands');
  await knex.schema.alterTable('workstations', (t) => t.dropColumn('connection_id'));
}
