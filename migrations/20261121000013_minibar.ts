import type { Knex } from 'knex';

/**
 * Minibar items, stock movements (the stock of an item is the sum of its movements) and the consumption recorded by
 * a housekeeping task's minibar check. Tasks are referenced by id only: `housekeeping_tasks` is created by its own
 * migration and the tasks module calls `recordMinibarCheck` inside its transaction.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('minibar_items', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('hotel_id').notNullable().references('hotels.id').onDelete('CASCADE');
    t.text('name').notNullable();
    t.text('category').notNullable().defaultTo('');
    t.decimal('price', 12, 2).notNullable();
    t.boolean('is_active').notNullable().defaultTo(true);
    t.integer('sort_order').notNullable().defaultTo(0);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['hotel_id', 'name']);
    // Lets movements and consumptions reference (hotel_id, id) so a row can never point at another hotel's item.
    t.unique(['hotel_id', 'id']);
  });
  await knex.raw('ALTER TABLE minibar_items ADD CONSTRAINT minibar_items_price_check CHECK (price >= 0)');

  // `quantity` is the signed change applied to the stock: receipt > 0, write_off < 0, consumption != 0 (a lowered
  // consumption gives stock back), inventory = counted minus the stock before the count (0 when the count matched).
  await knex.schema.createTable('stock_movements', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('hotel_id').notNullable();
    t.uuid('item_id').notNullable();
    t.text('kind').notNullable();
    t.integer('quantity').notNullable();
    t.integer('counted_quantity');
    t.text('note').notNullable().defaultTo('');
    t.uuid('created_by').references('users.id').onDelete('SET NULL');
    // The housekeeping task whose minibar check wrote a `consumption` movement (no foreign key, see above).
    t.uuid('task_id');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.foreign(['hotel_id', 'item_id']).references(['hotel_id', 'id']).inTable('minibar_items').onDelete('CASCADE');
    t.index(['hotel_id', 'item_id', 'created_at']);
    t.index(['hotel_id', 'created_at']);
  });
  await knex.raw(`ALTER TABLE stock_movements
    ADD CONSTRAINT stock_movements_kind_check CHECK (kind IN ('receipt','write_off','inventory','consumption')),
    ADD CONSTRAINT stock_movements_quantity_check CHECK (CASE kind
      WHEN 'receipt' THEN quantity > 0
      WHEN 'write_off' THEN quantity < 0
      WHEN 'consumption' THEN quantity <> 0 AND task_id IS NOT NULL
      ELSE true END),
    ADD CONSTRAINT stock_movements_counted_check CHECK ((kind = 'inventory') = (counted_quantity IS NOT NULL)
      AND (counted_quantity IS NULL OR counted_quantity >= 0))`);

  await knex.schema.createTable('minibar_consumptions', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('hotel_id').notNullable();
    // The housekeeping task whose check recorded this (no foreign key, see above).
    t.uuid('task_id').notNullable();
    t.uuid('room_id').notNullable();
    // The stay in the room. Bookings arrive in a later issue: nullable and without a foreign key until then.
    t.uuid('booking_id');
    t.uuid('item_id').notNullable();
    t.integer('quantity').notNullable();
    // Frozen when the row is first recorded; later price changes of the item do not touch it.
    t.decimal('price_per_unit', 12, 2).notNullable();
    t.timestamp('recorded_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.uuid('recorded_by').references('users.id').onDelete('SET NULL');
    // One row per item and task: a retried check updates it instead of adding another.
    t.unique(['hotel_id', 'task_id', 'item_id']);
    // Consumption is billable history: an item or room that has some cannot be deleted (deactivate the item instead).
    t.foreign(['hotel_id', 'item_id']).references(['hotel_id', 'id']).inTable('minibar_items').onDelete('RESTRICT');
    t.foreign(['hotel_id', 'room_id']).references(['hotel_id', 'id']).inTable('rooms').onDelete('RESTRICT');
    t.index(['hotel_id', 'room_id', 'recorded_at']);
    t.index(['hotel_id', 'recorded_at']);
    t.index(['hotel_id', 'booking_id']);
  });
  await knex.raw(`ALTER TABLE minibar_consumptions
    ADD CONSTRAINT minibar_consumptions_values_check CHECK (quantity > 0 AND price_per_unit >= 0)`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('minibar_consumptions');
  await knex.schema.dropTable('stock_movements');
  await knex.schema.dropTable('minibar_items');
}
