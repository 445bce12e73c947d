import type { Knex } from 'knex';

/** The statuses of a block that hold inventory (an inquiry holds nothing, a cancelled block nothing any more). */
const HOLDING = `('tentative','definite')`;

/**
 * Group blocks (allotments): a block holds, per category and night, a number of units (`rooms`) that only its pickup
 * may book. Held units are not rooms: a night's units picked up are the block's stays (`bookings.block_id`) holding a
 * room that night, and what is not picked up is taken out of what anyone else can sell. `released` and `washed` record
 * what the release and the staff took back (already subtracted from `rooms`). Every reference carries the hotel. A
 * change moves the hotel's inventory version (migration 52), so cached availability and offers show it at once.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('blocks', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('hotel_id').notNullable().references('hotels.id').onDelete('CASCADE');
    t.string('name', 200).notNullable();
    t.string('company', 200);
    t.string('contact_name', 200);
    t.string('contact_phone', 40);
    t.string('contact_email', 254);
    t.string('status', 16).notNullable().defaultTo('inquiry');
    t.uuid('tariff_id');
    t.decimal('price_per_night', 12, 2);
    t.string('release_kind', 16).notNullable().defaultTo('none');
    t.date('release_date');
    t.smallint('release_days');
    t.text('notes').notNullable().defaultTo('');
    t.uuid('created_by').references('users.id').onDelete('SET NULL');
    t.timestamp('cancelled_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['hotel_id', 'id']);
    t.foreign(['hotel_id', 'tariff_id']).references(['hotel_id', 'id']).inTable('tariffs');
  });
  await knex.raw(`ALTER TABLE blocks ADD CONSTRAINT blocks_status_check
    CHECK (status IN ('inquiry','tentative','definite','cancelled'))`);
  await knex.raw(`ALTER TABLE blocks ADD CONSTRAINT blocks_release_check CHECK (
    (release_kind = 'none' AND release_date IS NULL AND release_days IS NULL)
    OR (release_kind = 'date' AND release_date IS NOT NULL AND release_days IS NULL)
    OR (release_kind = 'rolling' AND release_date IS NULL AND release_days BETWEEN 0 AND 365))`);
  await knex.raw('ALTER TABLE blocks ADD CONSTRAINT blocks_price_check CHECK (price_per_night >= 0)');
  // Its stays are priced by a tariff or by a price per night, never both.
  await knex.raw(
    'ALTER TABLE blocks ADD CONSTRAINT blocks_pricing_check CHECK (tariff_id IS NULL OR price_per_night IS NULL)',
  );
  await knex.raw('CREATE INDEX blocks_hotel_created ON blocks (hotel_id, created_at DESC, id DESC)');

  await knex.schema.createTable('block_nights', (t) => {
    t.uuid('hotel_id').notNullable();
    t.uuid('block_id').notNullable();
    t.uuid('category_id').notNullable();
    t.date('night').notNullable();
    t.smallint('rooms').notNullable();
    t.smallint('released').notNullable().defaultTo(0);
    t.smallint('washed').notNullable().defaultTo(0);
    t.primary(['hotel_id', 'block_id', 'category_id', 'night']);
    t.foreign(['hotel_id', 'block_id']).references(['hotel_id', 'id']).inTable('blocks').onDelete('CASCADE');
    t.foreign(['hotel_id', 'category_id'])
      .references(['hotel_id', 'id'])
      .inTable('room_categories')
      // A category a block holds is not deleted under it (the rooms module answers 409).
      .onDelete('RESTRICT');
  });
  await knex.raw(`ALTER TABLE block_nights ADD CONSTRAINT block_nights_counts_check
    CHECK (rooms >= 0 AND released >= 0 AND washed >= 0)`);
  // What a category holds on a night, read by every booking of a category with held units and by availability.
  await knex.raw('CREATE INDEX block_nights_category_night ON block_nights (hotel_id, category_id, night)');

  await knex.schema.alterTable('bookings', (t) => {
    t.uuid('block_id');
    t.foreign(['hotel_id', 'block_id']).references(['hotel_id', 'id']).inTable('blocks');
  });
  await knex.raw('CREATE INDEX bookings_block ON bookings (hotel_id, block_id) WHERE block_id IS NOT NULL');

  await knex.raw(`
    CREATE CONSTRAINT TRIGGER block_nights_inventory_changed AFTER INSERT OR UPDATE OR DELETE ON block_nights
      DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION inventory_changed()`);
  await knex.raw(`
    CREATE CONSTRAINT TRIGGER blocks_inventory_changed AFTER UPDATE OF status ON blocks
      DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
      WHEN ((OLD.status IN ${HOLDING}) IS DISTINCT FROM (NEW.status IN ${HOLDING}))
      EXECUTE FUNCTION inventory_changed()`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX bookings_block');
  await knex.schema.alterTable('bookings', (t) => {
    t.dropForeign(['hotel_id', 'block_id']);
    t.dropColumn('block_id');
  });
  await knex.schema.dropTable('block_nights');
  await knex.schema.dropTable('blocks');
}
