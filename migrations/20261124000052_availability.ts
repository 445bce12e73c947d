import type { Knex } from 'knex';

/** The statuses that hold a room, as the exclusion constraint on bookings spells them. */
const HOLDS_ROOM = (row: 'NEW' | 'OLD') => `${row}.status IN ('inquiry','confirmed','checked_in')`;

/** Per table: the operations and the condition under which a row change alters what the hotel can sell, or its price. */
const WATCHED: { table: string; name: string; events: string; when?: string }[] = [
  { table: 'bookings', name: 'added', events: 'INSERT', when: HOLDS_ROOM('NEW') },
  { table: 'bookings', name: 'removed', events: 'DELETE', when: HOLDS_ROOM('OLD') },
  {
    table: 'bookings',
    name: 'changed',
    events: 'UPDATE OF status, room_id, start_at, end_at',
    when: `(${HOLDS_ROOM('OLD')}) IS DISTINCT FROM (${HOLDS_ROOM('NEW')}) OR (${HOLDS_ROOM('NEW')} AND
      (OLD.room_id, OLD.start_at, OLD.end_at) IS DISTINCT FROM (NEW.room_id, NEW.start_at, NEW.end_at))`,
  },
  { table: 'rooms', name: 'added', events: 'INSERT OR DELETE' },
  {
    table: 'rooms',
    name: 'changed',
    events: 'UPDATE',
    // Housekeeping moves a room between dirty, cleaning and clean all day: only closing or opening it counts.
    when: `(OLD.status = 'closed') IS DISTINCT FROM (NEW.status = 'closed') OR
      (OLD.category_id, OLD.number, OLD.max_guests, OLD.maintenance_from, OLD.maintenance_to) IS DISTINCT FROM
      (NEW.category_id, NEW.number, NEW.max_guests, NEW.maintenance_from, NEW.maintenance_to)`,
  },
  { table: 'room_categories', name: 'changed', events: 'INSERT OR UPDATE OR DELETE' },
  { table: 'rate_overrides', name: 'changed', events: 'INSERT OR UPDATE OR DELETE' },
  { table: 'rate_periods', name: 'changed', events: 'UPDATE OR DELETE' },
  { table: 'rate_period_prices', name: 'changed', events: 'INSERT OR UPDATE OR DELETE' },
];

/**
 * A per-hotel version of what the hotel can sell and at what price: its rooms, the stays holding them, its
 * categories, rates and hours. Availability and offers are answered from a per-process cache that is valid only for
 * the version it was computed at; every request reads the version (one primary-key lookup), so an answer never lags a
 * commit, on any replica. Triggers bump it, so every writer (services, jobs, SQL by hand) keeps it true.
 *
 * The triggers are deferred to commit, like the realtime events' numbering, so the version row is locked only while a
 * transaction commits (concurrent bookings do not queue behind each other for their whole length), and they take the
 * hotel's commit lock first, the advisory lock the realtime commit trigger takes, so the two never wait on each other
 * in opposite orders. A transaction bumps a hotel once, however many rows it writes (bulk loads stay cheap).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('inventory_versions', (t) => {
    t.uuid('hotel_id').primary().references('hotels.id').onDelete('CASCADE');
    t.bigInteger('version').notNullable();
  });
  await knex.raw(`
    CREATE FUNCTION bump_inventory_version(hotel uuid) RETURNS void LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM pg_advisory_xact_lock(1381258821, hashtext(hotel::text));
      IF EXISTS (SELECT 1 FROM inventory_versions WHERE hotel_id = hotel AND xmin = pg_current_xact_id()::xid) THEN
        RETURN;
      END IF;
      -- A hotel deleted in this transaction takes its rows with it: nothing is left to version.
      INSERT INTO inventory_versions AS current (hotel_id, version)
        SELECT hotel, 1 WHERE EXISTS (SELECT 1 FROM hotels WHERE id = hotel)
        ON CONFLICT (hotel_id) DO UPDATE SET version = current.version + 1;
    END
    $$`);
  await knex.raw(`
    CREATE FUNCTION inventory_changed() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'DELETE' THEN
        PERFORM bump_inventory_version(OLD.hotel_id);
      ELSE
        PERFORM bump_inventory_version(NEW.hotel_id);
      END IF;
      RETURN NULL;
    END
    $$`);
  await knex.raw(`
    CREATE FUNCTION hotel_hours_changed() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM bump_inventory_version(NEW.id);
      RETURN NULL;
    END
    $$`);
  for (const { table, name, events, when } of WATCHED) {
    await knex.raw(`
      CREATE CONSTRAINT TRIGGER ${table}_inventory_${name} AFTER ${events} ON ${table}
        DEFERRABLE INITIALLY DEFERRED FOR EACH ROW ${when ? `WHEN (${when})` : ''}
        EXECUTE FUNCTION inventory_changed()`);
  }
  // Nights are cut at the hotel's check-in and check-out times in its time zone.
  await knex.raw(`
    CREATE CONSTRAINT TRIGGER hotels_inventory_changed AFTER UPDATE OF timezone, check_in_time, check_out_time ON hotels
      DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
      WHEN ((OLD.timezone, OLD.check_in_time, OLD.check_out_time) IS DISTINCT FROM
            (NEW.timezone, NEW.check_in_time, NEW.check_out_time))
      EXECUTE FUNCTION hotel_hours_changed()`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP TRIGGER hotels_inventory_changed ON hotels');
  for (const { table, name } of WATCHED) await knex.raw(`DROP TRIGGER ${table}_inventory_${name} ON ${table}`);
  await knex.raw('DROP FUNCTION hotel_hours_changed(), inventory_changed(), bump_inventory_version(uuid)');
  await knex.schema.dropTable('inventory_versions');
}
