import type { Knex } from 'knex';

/**
 * The hotel's Wi-Fi captive portal: how a guest proves they stay here, for how long a device stays online, and how
 * many devices a stay may bring; the portal controller's secret is kept only as its SHA-256 (it is random and long, so
 * a digest is enough, and nothing can give it back). Each device let in is remembered per stay to hold the limit;
 * it goes with its booking. Every bound the API checks is a constraint too.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('wifi_settings', (t) => {
    t.uuid('hotel_id').primary().references('hotels.id').onDelete('CASCADE');
    t.boolean('enabled').notNullable().defaultTo(false);
    t.text('auth_method').notNullable().defaultTo('room+lastname');
    t.integer('session_hours').notNullable().defaultTo(24);
    t.integer('devices_per_stay').notNullable().defaultTo(3);
    t.text('portal_secret_sha256');
    t.text('portal_secret_hint');
    t.timestamp('portal_secret_created_at', { useTz: true });
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw(`ALTER TABLE wifi_settings
    ADD CONSTRAINT wifi_settings_values_check CHECK (
      auth_method IN ('room+lastname', 'room+birthdate', 'room+any', 'room_only')
      AND session_hours BETWEEN 1 AND 720
      AND devices_per_stay BETWEEN 1 AND 20
      AND portal_secret_sha256 ~ '^[0-9a-f]{64}$'
      AND (portal_secret_sha256 IS NULL) = (portal_secret_hint IS NULL)
      AND (portal_secret_sha256 IS NULL) = (portal_secret_created_at IS NULL))`);
  // Hotels registered before this migration; new ones get theirs at registration.
  await knex.raw('INSERT INTO wifi_settings (hotel_id) SELECT id FROM hotels ON CONFLICT DO NOTHING');

  await knex.schema.createTable('wifi_sessions', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('hotel_id').notNullable().references('hotels.id').onDelete('CASCADE');
    t.uuid('booking_id').notNullable();
    t.text('client_mac').notNullable();
    t.timestamp('authorized_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('until', { useTz: true }).notNullable();
    t.unique(['booking_id', 'client_mac']);
    t.index(['hotel_id']);
  });
  await knex.raw(`ALTER TABLE wifi_sessions
    ADD CONSTRAINT wifi_sessions_booking_fk FOREIGN KEY (hotel_id, booking_id) REFERENCES bookings (hotel_id, id)
      ON DELETE CASCADE,
    ADD CONSTRAINT wifi_sessions_values_check CHECK (
      client_mac ~ '^[0-9A-F]{2}(:[0-9A-F]{2}){5}$' AND until > authorized_at)`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('wifi_sessions');
  await knex.schema.dropTable('wifi_settings');
}
