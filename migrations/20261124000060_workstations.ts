import type { Knex } from 'knex';

/**
 * Workstations (the front-desk computers an agent runs on) and the devices attached to them. An agent proves itself
 * with a credential stored only as its sha256 (one per workstation: a new pairing or a revocation replaces it); it gets
 * that credential once, for a short-lived pair code also stored hashed. Every bound the API checks is a constraint too.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('workstations', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('hotel_id').notNullable().references('hotels.id').onDelete('CASCADE');
    t.text('name').notNullable();
    t.text('ttlock_com_port');
    // Reported by the agent when it pairs and connects.
    t.text('agent_version');
    t.text('machine_name');
    t.boolean('online').notNullable().defaultTo(false);
    t.timestamp('last_seen_at', { useTz: true });
    t.text('credential_hash');
    t.timestamp('credential_issued_at', { useTz: true });
    t.text('pair_code_hash');
    t.timestamp('pair_code_expires_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['hotel_id', 'id']);
    t.index(['hotel_id', 'name']);
  });
  // The agent channel and the pairing find a workstation by hash alone, before any hotel is known.
  await knex.raw(`CREATE UNIQUE INDEX workstations_credential_hash_unique ON workstations (credential_hash)
    WHERE credential_hash IS NOT NULL`);
  await knex.raw(`CREATE UNIQUE INDEX workstations_pair_code_hash_unique ON workstations (pair_code_hash)
    WHERE pair_code_hash IS NOT NULL`);
  await knex.raw(`ALTER TABLE workstations
    ADD CONSTRAINT workstations_values_check CHECK (
      char_length(name) BETWEEN 1 AND 100
      AND ttlock_com_port ~ '^COM[1-9][0-9]{0,2}$'
      AND char_length(agent_version) BETWEEN 1 AND 50
      AND char_length(machine_name) BETWEEN 1 AND 100
      AND credential_hash ~ '^[0-9a-f]{64}$'
      AND pair_code_hash ~ '^[0-9a-f]{64}$'
      AND (credential_hash IS NULL) = (credential_issued_at IS NULL)
      AND (pair_code_hash IS NULL) = (pair_code_expires_at IS NULL))`);

  await knex.schema.createTable('workstation_devices', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('hotel_id').notNullable().references('hotels.id').onDelete('CASCADE');
    t.uuid('workstation_id').notNullable();
    t.text('name').notNullable();
    t.text('type').notNullable();
    t.text('connection').notNullable();
    t.text('com_port');
    t.text('fiscal_mode');
    t.integer('dto_port');
    t.jsonb('config').notNullable().defaultTo('{}');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.foreign(['hotel_id', 'workstation_id'], 'workstation_devices_workstation_fk')
      .references(['hotel_id', 'id'])
      .inTable('workstations')
      .onDelete('CASCADE');
    t.index(['hotel_id', 'workstation_id', 'name']);
  });
  await knex.raw(`ALTER TABLE workstation_devices
    ADD CONSTRAINT workstation_devices_kind_check CHECK (
      type IN ('fiscal_register', 'printer', 'tv_integration')
      AND connection IN ('usb', 'com', 'network', 'windows')),
    ADD CONSTRAINT workstation_devices_values_check CHECK (
      char_length(name) BETWEEN 1 AND 100
      AND com_port ~ '^COM[1-9][0-9]{0,2}$'
      AND fiscal_mode ~ '^[a-z0-9_]{1,32}$'
      AND dto_port BETWEEN 1 AND 65535
      AND jsonb_typeof(config) = 'object'
      AND octet_length(config::text) <= 4096),
    ADD CONSTRAINT workstation_devices_com_port_check CHECK (connection <> 'com' OR com_port IS NOT NULL)`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('workstation_devices');
  await knex.schema.dropTable('workstations');
}
