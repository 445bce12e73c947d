import type { Knex } from 'knex';

/**
 * The hotel TV system: its settings (one row per hotel) and the log of pushes to it. The token the TV system polls
 * `/tvpms` with is kept as its SHA-256 (looked up by it, never shown again) and its last characters. A desk deleted
 * switches the integration to no desk rather than failing the delete. Log rows are purged after 30 days.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('tv_settings', (t) => {
    t.uuid('hotel_id').primary().references('hotels.id').onDelete('CASCADE');
    t.boolean('enabled').notNullable().defaultTo(false);
    t.text('connection_type').notNullable().defaultTo('direct');
    t.uuid('agent_workstation_id');
    t.text('server_url');
    t.text('default_language').notNullable().defaultTo('ru');
    t.jsonb('netup_room_number').notNullable().defaultTo('{}');
    t.text('tl_token_hash');
    t.text('tl_token_hint');
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw(`ALTER TABLE tv_settings
    ADD CONSTRAINT tv_settings_workstation_fk FOREIGN KEY (hotel_id, agent_workstation_id)
      REFERENCES workstations (hotel_id, id) ON DELETE SET NULL (agent_workstation_id),
    ADD CONSTRAINT tv_settings_values_check CHECK (
      connection_type IN ('direct', 'agent')
      AND char_length(server_url) <= 2000
      AND char_length(default_language) <= 8
      AND jsonb_typeof(netup_room_number) = 'object'
      AND (tl_token_hash IS NULL) = (tl_token_hint IS NULL))`);
  await knex.raw('CREATE UNIQUE INDEX tv_settings_tl_token_hash_unique ON tv_settings (tl_token_hash)');
  // Hotels registered before this migration; new ones get theirs at registration.
  await knex.raw('INSERT INTO tv_settings (hotel_id) SELECT id FROM hotels ON CONFLICT DO NOTHING');

  await knex.schema.createTable('tv_push_log', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('hotel_id').notNullable().references('hotels.id').onDelete('CASCADE');
    t.uuid('booking_id');
    t.text('event').notNullable();
    t.text('status').notNullable();
    t.text('detail').notNullable().defaultTo('');
    t.integer('attempt').notNullable().defaultTo(1);
    t.text('via');
    t.integer('http_status');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['hotel_id', 'created_at', 'id']);
    t.index(['created_at']);
  });
  await knex.raw(`ALTER TABLE tv_push_log
    ADD CONSTRAINT tv_push_log_values_check CHECK (
      event IN ('check_in', 'check_out', 'test_check_in')
      AND status IN ('ok', 'error', 'skipped')
      AND via IN ('direct', 'agent')
      AND attempt >= 1
      AND char_length(detail) <= 1000)`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('tv_push_log');
  await knex.schema.dropTable('tv_settings');
}
