import type { Knex } from 'knex';

/** Tariffs (rate plans), seasonal rate periods with prices per category, and per-date overrides. */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('CREATE EXTENSION IF NOT EXISTS btree_gist');
  await knex.schema.createTable('tariffs', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('hotel_id').notNullable().references('hotels.id').onDelete('CASCADE');
    t.text('name').notNullable();
    t.text('description').notNullable().defaultTo('');
    t.text('adjustment_type').notNullable().defaultTo('percent');
    t.decimal('adjustment_value', 12, 2).notNullable().defaultTo(0);
    t.integer('min_nights').notNullable().defaultTo(1);
    t.boolean('refundable').notNullable().defaultTo(true);
    t.text('meals').notNullable().defaultTo('none');
    t.boolean('is_active').notNullable().defaultTo(true);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['hotel_id', 'name']);
    t.unique(['hotel_id', 'id']);
  });
  await knex.raw(`ALTER TABLE tariffs
    ADD CONSTRAINT tariffs_adjustment_check CHECK (adjustment_type IN ('percent','fixed')
      AND (adjustment_type <> 'percent' OR adjustment_value BETWEEN -100 AND 1000)),
    ADD CONSTRAINT tariffs_meals_check CHECK (meals IN ('none','breakfast','half_board','full_board','all_inclusive')),
    ADD CONSTRAINT tariffs_min_nights_check CHECK (min_nights BETWEEN 1 AND 365)`);

  await knex.schema.createTable('rate_periods', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('hotel_id').notNullable().references('hotels.id').onDelete('CASCADE');
    t.text('name').notNullable();
    t.date('date_from').notNullable();
    t.date('date_to').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['hotel_id', 'id']);
    t.index(['hotel_id', 'date_from']);
  });
  await knex.raw('ALTER TABLE rate_periods ADD CONSTRAINT rate_periods_dates_check CHECK (date_to >= date_from)');

  // One row per category priced by a period; the exclusion constraint refuses two periods for one category on a date.
  await knex.schema.createTable('rate_period_prices', (t) => {
    t.uuid('hotel_id').notNullable();
    t.uuid('period_id').notNullable();
    t.uuid('category_id').notNullable();
    t.specificType('dates', 'daterange').notNullable();
    t.decimal('price', 12, 2);
    t.decimal('hourly_price', 12, 2);
    t.primary(['period_id', 'category_id']);
    t.foreign(['hotel_id', 'period_id']).references(['hotel_id', 'id']).inTable('rate_periods').onDelete('CASCADE');
    t.foreign(['hotel_id', 'category_id'])
      .references(['hotel_id', 'id'])
      .inTable('room_categories')
      .onDelete('CASCADE');
  });
  await knex.raw(`ALTER TABLE rate_period_prices
    ADD CONSTRAINT rate_period_prices_values_check CHECK ((price IS NULL OR price >= 0)
      AND (hourly_price IS NULL OR hourly_price >= 0) AND (price IS NOT NULL OR hourly_price IS NOT NULL)),
    ADD CONSTRAINT rate_period_prices_no_overlap EXCLUDE USING gist (category_id WITH =, dates WITH &&)`);

  await knex.schema.createTable('rate_overrides', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('hotel_id').notNullable();
    t.uuid('category_id').notNullable();
    t.date('date').notNullable();
    t.decimal('price', 12, 2);
    t.decimal('hourly_price', 12, 2);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['category_id', 'date']);
    t.foreign(['hotel_id', 'category_id'])
      .references(['hotel_id', 'id'])
      .inTable('room_categories')
      .onDelete('CASCADE');
    t.index(['hotel_id', 'date']);
  });
  await knex.raw(`ALTER TABLE rate_overrides ADD CONSTRAINT rate_overrides_values_check
    CHECK ((price IS NULL OR price >= 0) AND (hourly_price IS NULL OR hourly_price >= 0)
      AND (price IS NOT NULL OR hourly_price IS NOT NULL))`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('rate_overrides');
  await knex.schema.dropTable('rate_period_prices');
  await knex.schema.dropTable('rate_periods');
  await knex.schema.dropTable('tariffs');
}
