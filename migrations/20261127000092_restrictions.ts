import type { Knex } from 'knex';

/**
 * Restrictions: one row per hotel, category, tariff (none: every tariff of the category) and night, one nullable
 * column per restriction. Setting or clearing a field over a range is an upsert or an update of exactly those nights,
 * so a range written over the middle of another leaves two pieces and equal neighbours are one value per night; a row
 * whose fields are all cleared is deleted. Both references carry the hotel, so another hotel's category or tariff can
 * never be named. A booking records an override of the restrictions its stay broke. A change moves the hotel's inventory
 * version (migration 52), so cached availability and offers show it at once.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('restrictions', (t) => {
    t.uuid('hotel_id').notNullable().references('hotels.id').onDelete('CASCADE');
    t.uuid('category_id').notNullable();
    t.uuid('tariff_id');
    t.date('night').notNullable();
    t.smallint('min_stay_arrival');
    t.smallint('min_stay_through');
    t.smallint('max_stay');
    t.boolean('closed_to_arrival');
    t.boolean('closed_to_departure');
    t.boolean('stop_sell');
    t.smallint('min_advance_days');
    t.smallint('max_advance_days');
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.foreign(['hotel_id', 'category_id'])
      .references(['hotel_id', 'id'])
      .inTable('room_categories')
      .onDelete('CASCADE');
    t.foreign(['hotel_id', 'tariff_id']).references(['hotel_id', 'id']).inTable('tariffs').onDelete('CASCADE');
  });
  // The key (PostgreSQL 15+: one category-wide row a night); a stay's nights of a category are one range scan of it.
  await knex.raw(`CREATE UNIQUE INDEX restrictions_night_unique
    ON restrictions (hotel_id, category_id, night, tariff_id) NULLS NOT DISTINCT`);
  // Reads across categories by night, and the cascade of a deleted tariff.
  await knex.raw('CREATE INDEX restrictions_hotel_night ON restrictions (hotel_id, night)');
  await knex.raw(
    'CREATE INDEX restrictions_hotel_tariff ON restrictions (hotel_id, tariff_id) WHERE tariff_id IS NOT NULL',
  );
  // A check passes on NULL: a field left unset; a flag is stored as true or NULL, never false.
  await knex.raw(`ALTER TABLE restrictions ADD CONSTRAINT restrictions_values_check CHECK (
    min_stay_arrival BETWEEN 1 AND 365 AND min_stay_through BETWEEN 1 AND 365 AND max_stay BETWEEN 1 AND 365
    AND min_advance_days BETWEEN 0 AND 731 AND max_advance_days BETWEEN 0 AND 731
    AND closed_to_arrival AND closed_to_departure AND stop_sell)`);
  // What the hotel can sell moves with its restrictions: availability and offers are cached per inventory version.
  await knex.raw(`
    CREATE CONSTRAINT TRIGGER restrictions_inventory_changed AFTER INSERT OR UPDATE OR DELETE ON restrictions
      DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION inventory_changed()`);
  await knex.schema.alterTable('bookings', (t) => {
    t.jsonb('restrictions_override');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('bookings', (t) => {
    t.dropColumn('restrictions_override');
  });
  await knex.schema.dropTable('restrictions');
}
