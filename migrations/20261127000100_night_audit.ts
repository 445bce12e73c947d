import type { Knex } from 'knex';

/**
 * The night audit (docs/decisions/night-audit.md). Per hotel: whether it runs on its own and at which local hour; its
 * runs, one row per business date (the last attempt's state); and the statistics of each closed day, written once
 * and never changed (a trigger refuses any update; rows go only with their hotel).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('night_audit_settings', (t) => {
    t.uuid('hotel_id').primary().references('hotels.id').onDelete('CASCADE');
    t.boolean('enabled').notNullable().defaultTo(false);
    t.integer('hour').notNullable().defaultTo(3);
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw(
    'ALTER TABLE night_audit_settings ADD CONSTRAINT night_audit_hour_check CHECK (hour BETWEEN 0 AND 23)',
  );
  await knex.raw('INSERT INTO night_audit_settings (hotel_id) SELECT id FROM hotels ON CONFLICT DO NOTHING');

  await knex.schema.createTable('night_audit_runs', (t) => {
    t.uuid('hotel_id').notNullable().references('hotels.id').onDelete('CASCADE');
    t.date('business_date').notNullable();
    t.text('status').notNullable();
    t.text('trigger').notNullable();
    t.text('workflow_id').notNullable();
    t.text('error');
    t.timestamp('started_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('finished_at', { useTz: true });
    // The steps done for the day (a failed day run again skips them: rooms cleaned since are not made dirty again).
    t.specificType('completed_steps', 'text[]').notNullable().defaultTo('{}');
    // The daily report's recipients it could not reach (the run succeeded all the same: the day is closed).
    t.text('report_error');
    t.primary(['hotel_id', 'business_date']);
  });
  await knex.raw(`ALTER TABLE night_audit_runs ADD CONSTRAINT night_audit_runs_check CHECK (
    status IN ('running', 'succeeded', 'failed') AND trigger IN ('schedule', 'manual'))`);

  await knex.schema.createTable('night_audit_snapshots', (t) => {
    t.uuid('hotel_id').notNullable().references('hotels.id').onDelete('CASCADE');
    t.date('business_date').notNullable();
    t.integer('rooms').notNullable();
    t.integer('out_of_order').notNullable();
    t.integer('available').notNullable();
    t.integer('sold').notNullable();
    t.decimal('occupancy', 7, 4).notNullable();
    t.decimal('room_revenue', 14, 2).notNullable();
    t.decimal('adr', 14, 2).notNullable();
    t.decimal('revpar', 14, 2).notNullable();
    t.integer('arrivals').notNullable();
    t.integer('departures').notNullable();
    t.integer('no_shows').notNullable();
    t.decimal('tourist_tax', 14, 2).notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['hotel_id', 'business_date']);
  });
  await knex.raw(`CREATE FUNCTION night_audit_snapshot_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN RAISE EXCEPTION 'a night audit snapshot is never changed'; END $$`);
  await knex.raw(`CREATE TRIGGER night_audit_snapshots_immutable BEFORE UPDATE ON night_audit_snapshots
    FOR EACH ROW EXECUTE FUNCTION night_audit_snapshot_immutable()`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('night_audit_snapshots');
  await knex.raw('DROP FUNCTION night_audit_snapshot_immutable()');
  await knex.schema.dropTable('night_audit_runs');
  await knex.schema.dropTable('night_audit_settings');
}
