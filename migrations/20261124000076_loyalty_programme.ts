import type { Knex } from 'knex';

/**
 * The hotel's loyalty programme (one row per hotel, off until a manager turns it on) and its tiers. A tier's
 * `threshold` is nights or money by the programme's `tier_basis`; its `earn_rate` is points per 100 of a stay's cost.
 * Tiers are replaced as a list, so their bounds (one at threshold 0, thresholds unique, at most 10) hold per hotel.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('loyalty_settings', (t) => {
    t.uuid('hotel_id').primary().references('hotels.id').onDelete('CASCADE');
    t.boolean('enabled').notNullable().defaultTo(false);
    t.text('tier_basis').notNullable().defaultTo('nights');
    t.decimal('point_value', 12, 2).notNullable().defaultTo('1.00');
    // Null: earned points never expire.
    t.integer('expiry_months').defaultTo(24);
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw(`ALTER TABLE loyalty_settings ADD CONSTRAINT loyalty_settings_values_check CHECK (
      tier_basis IN ('nights', 'spend')
      AND point_value > 0 AND point_value <= 10000
      AND expiry_months BETWEEN 1 AND 120)`);

  await knex.schema.createTable('loyalty_tiers', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('hotel_id').notNullable().references('hotels.id').onDelete('CASCADE');
    t.text('name').notNullable();
    t.decimal('threshold', 14, 2).notNullable();
    t.decimal('earn_rate', 8, 2).notNullable();
    t.unique(['hotel_id', 'threshold']);
  });
  await knex.raw(`ALTER TABLE loyalty_tiers ADD CONSTRAINT loyalty_tiers_values_check CHECK (
      char_length(name) BETWEEN 1 AND 50
      AND threshold >= 0 AND threshold <= 1000000000
      AND earn_rate >= 0 AND earn_rate <= 1000)`);

  // Hotels registered before this migration; new ones get theirs at registration.
  await knex.raw('INSERT INTO loyalty_settings (hotel_id) SELECT id FROM hotels ON CONFLICT DO NOTHING');
  await knex.raw(`INSERT INTO loyalty_tiers (hotel_id, name, threshold, earn_rate)
    SELECT id, 'Базовый', 0, 5 FROM hotels ON CONFLICT DO NOTHING`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('loyalty_tiers');
  await knex.schema.dropTable('loyalty_settings');
}
