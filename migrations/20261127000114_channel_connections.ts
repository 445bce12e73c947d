import type { Knex } from 'knex';
import { installAuditTriggers } from '../src/platform/db/audit-tables';

/**
 * A hotel's channel-manager connection (docs/decisions/channels.md): the provider, its property, the API key
 * (AES-GCM, `ENCRYPTION_KEYS`), and the mapping of our categories and tariffs to its room types and rate plans; and,
 * apart (not audited: the sync's own bookkeeping), what was last pushed to the channel, per room type and rate plan
 * and date, so a push sends only what differs.
 *
 * The hook: every change that moves what a hotel can sell or its price already bumps its inventory version, once per
 * transaction, at commit (migrations 52, 92, 93, 94, 97; tariffs join them here). A row trigger on that version wakes
 * the hotel's `channelSync` workflow through the outbox when the hotel is connected, in the same transaction: the
 * signal leaves only after the commit. Coalesced: with two wakes undelivered, a third is not queued (the second
 * reaches the workflow after this commit, and every push re-reads the current values).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('channel_connections', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('hotel_id').notNullable().unique().references('hotels.id').onDelete('CASCADE');
    t.text('provider').notNullable();
    t.text('property_id').notNullable();
    t.text('api_key_encrypted').notNullable();
    t.text('api_key_hint').notNullable();
    // [{ room_type_id, category_id }] and [{ rate_plan_id, tariff_id }], checked against the channel's lists.
    t.jsonb('room_types').notNullable();
    t.jsonb('rate_plans').notNullable();
    t.timestamp('last_synced_at', { useTz: true });
    t.text('last_error');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['provider', 'property_id']);
  });
  await knex.raw(`ALTER TABLE channel_connections ADD CONSTRAINT channel_connections_values_check CHECK (
      provider IN ('channex') AND char_length(property_id) <= 100 AND char_length(last_error) <= 2000)`);

  await knex.schema.createTable('channel_ari_pushed', (t) => {
    t.uuid('hotel_id').primary().references('hotels.id').onDelete('CASCADE');
    // { availability: { [roomTypeId]: { [date]: count } }, restrictions: { [ratePlanId]: { [date]: values } } }
    t.jsonb('state').notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });

  // A tariff's adjustment, minimum nights or activity moves its price and what can be sold under it.
  await knex.raw(`
    CREATE CONSTRAINT TRIGGER tariffs_inventory_changed AFTER UPDATE ON tariffs
      DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION inventory_changed()`);

  await knex.raw(`
    CREATE FUNCTION channel_sync_wake() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO outbox (message)
      SELECT jsonb_build_object(
               'kind', 'signalWithStart', 'workflowType', 'channelSync',
               'workflowId', 'channels:' || c.hotel_id,
               'args', jsonb_build_array(jsonb_build_object('hotelId', c.hotel_id)),
               'signal', 'ariChanged', 'signalArgs', jsonb_build_array(jsonb_build_object('full', false)),
               'searchAttributes', jsonb_build_object('HotelSlug', h.slug), 'reviveFinished', true)
        FROM channel_connections c JOIN hotels h ON h.id = c.hotel_id
       WHERE c.hotel_id = NEW.hotel_id
         AND (SELECT count(*) FROM (SELECT 1 FROM outbox o
                                     WHERE o.workflow_id = 'channels:' || c.hotel_id AND o.delivered_at IS NULL
                                     LIMIT 2) AS waiting) < 2;
      IF FOUND THEN
        PERFORM pg_notify('outbox', '');
      END IF;
      RETURN NULL;
    END
    $$`);
  await knex.raw(`
    CREATE TRIGGER channel_sync_wake AFTER INSERT OR UPDATE ON inventory_versions
      FOR EACH ROW EXECUTE FUNCTION channel_sync_wake()`);
  await installAuditTriggers(knex, ['channel_connections']);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP TRIGGER IF EXISTS channel_sync_wake ON inventory_versions');
  await knex.raw('DROP FUNCTION IF EXISTS channel_sync_wake()');
  await knex.raw('DROP TRIGGER IF EXISTS tariffs_inventory_changed ON tariffs');
  await knex.schema.dropTable('channel_ari_pushed');
  await knex.schema.dropTable('channel_connections');
}
