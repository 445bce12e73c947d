import type { Knex } from 'knex';

/**
 * The door-lock cloud (TTLock) a hotel's locks live in, and which lock is on which room's door. The client secret,
 * the account's password and the tokens are kept only as AES-GCM envelopes (each names its key, so rotation finds
 * them). A lock is known by its MAC (written on it) once per hotel; a room has at most one lock, and keeps its mapping
 * row (without a room) when the room is deleted. Every bound the API checks is a constraint too.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('lock_configs', (t) => {
    t.uuid('hotel_id').primary().references('hotels.id').onDelete('CASCADE');
    t.text('client_id');
    t.text('client_secret_encrypted');
    t.text('username');
    t.text('password_encrypted');
    t.text('api_server').notNullable().defaultTo('EU');
    t.boolean('enabled').notNullable().defaultTo(false);
    t.text('access_token_encrypted');
    t.text('refresh_token_encrypted');
    t.timestamp('token_expires_at', { useTz: true });
    t.bigInteger('ttlock_uid');
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw(`ALTER TABLE lock_configs
    ADD CONSTRAINT lock_configs_values_check CHECK (
      api_server IN ('EU', 'China')
      AND char_length(client_id) BETWEEN 1 AND 100
      AND char_length(username) BETWEEN 1 AND 100
      AND (access_token_encrypted IS NULL) = (token_expires_at IS NULL)
      AND (access_token_encrypted IS NULL) = (refresh_token_encrypted IS NULL))`);
  // Hotels registered before this migration; new ones get theirs at registration.
  await knex.raw('INSERT INTO lock_configs (hotel_id) SELECT id FROM hotels ON CONFLICT DO NOTHING');

  await knex.schema.createTable('room_locks', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('hotel_id').notNullable().references('hotels.id').onDelete('CASCADE');
    t.text('lock_mac').notNullable();
    t.uuid('room_id');
    t.integer('build_no').notNullable();
    t.integer('floor_no').notNullable();
    t.integer('lock_id');
    t.text('lock_alias');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['hotel_id', 'lock_mac']);
    t.index(['hotel_id', 'lock_id']);
  });
  await knex.raw(`ALTER TABLE room_locks
    ADD CONSTRAINT room_locks_room_fk FOREIGN KEY (hotel_id, room_id) REFERENCES rooms (hotel_id, id)
      ON DELETE SET NULL (room_id),
    ADD CONSTRAINT room_locks_values_check CHECK (
      lock_mac ~ '^[0-9A-F]{2}(:[0-9A-F]{2}){5}$'
      AND build_no BETWEEN 0 AND 255
      AND floor_no BETWEEN 0 AND 255
      AND lock_id > 0
      AND char_length(lock_alias) <= 100)`);
  await knex.raw(`CREATE UNIQUE INDEX room_locks_hotel_id_room_id_unique ON room_locks (hotel_id, room_id)
    WHERE room_id IS NOT NULL`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('room_locks');
  await knex.schema.dropTable('lock_configs');
}
