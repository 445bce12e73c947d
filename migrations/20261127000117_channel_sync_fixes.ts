import type { Knex } from 'knex';

/**
 * The channel sync's fixes (docs/decisions/channels.md):
 * - a provider's property belongs to one connection: `(provider, property_id)` unique (a second hotel connecting
 *   the same property is refused, and intake finds the one hotel of a revision);
 * - a tariff deleted moves its rate plan's price and what can be sold under it: the inventory version too, as its
 *   update does (migration 114);
 * - what was last pushed, kept compactly: one row per kind (availability, restrictions) and room type or rate plan,
 *   its values by date in one jsonb map (no strings inside), written once per push and only the rows that changed.
 *   The state kept before is dropped: the next push of each hotel sends every value once.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('channel_connections', (t) => {
    t.dropIndex(['provider', 'property_id']);
    t.unique(['provider', 'property_id']);
  });
  await knex.raw(`
    CREATE CONSTRAINT TRIGGER tariffs_inventory_removed AFTER DELETE ON tariffs
      DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION inventory_changed()`);
  await knex.schema.dropTable('channel_ari_pushed');
  await knex.schema.createTable('channel_ari_pushed', (t) => {
    t.uuid('hotel_id').notNullable().references('hotels.id').onDelete('CASCADE');
    t.text('kind').notNullable().checkIn(['availability', 'restrictions']);
    // The room type (availability) or the rate plan (restrictions).
    t.text('item_id').notNullable();
    // { [date]: count } or { [date]: { rate, min_stay_arrival, ... } }
    t.jsonb('dates').notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['hotel_id', 'kind', 'item_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('channel_ari_pushed');
  await knex.schema.createTable('channel_ari_pushed', (t) => {
    t.uuid('hotel_id').primary().references('hotels.id').onDelete('CASCADE');
    t.jsonb('state').notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw('DROP TRIGGER IF EXISTS tariffs_inventory_removed ON tariffs');
  await knex.schema.alterTable('channel_connections', (t) => {
    t.dropUnique(['provider', 'property_id']);
    t.index(['provider', 'property_id']);
  });
}
