import type { Knex } from 'knex';

/**
 * Room service, the guest's side. A stay's code (6 digits, issued to staff on first ask and printed on the key-card
 * sleeve) is what a guest proves their room with; it goes with its booking. An order belongs to the stay it was
 * placed from and the room it goes to; its lines copy each item's name and price at ordering (the menu may change
 * later), and its total is what a delivery bills to the stay. Its status token is kept as a SHA-256 only. `number`
 * counts the hotel's orders from 1, for staff to call them by.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('room_service_stay_codes', (t) => {
    t.uuid('booking_id').primary();
    t.uuid('hotel_id').notNullable().references('hotels.id').onDelete('CASCADE');
    t.text('code').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.foreign(['hotel_id', 'booking_id']).references(['hotel_id', 'id']).inTable('bookings').onDelete('CASCADE');
    t.index(['hotel_id', 'code']);
  });
  await knex.raw(`ALTER TABLE room_service_stay_codes ADD CONSTRAINT room_service_stay_codes_values_check
    CHECK (code ~ '^[0-9]{6}$')`);

  await knex.schema.createTable('room_service_orders', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('hotel_id').notNullable().references('hotels.id').onDelete('CASCADE');
    t.integer('number').notNullable();
    t.uuid('booking_id').notNullable();
    t.uuid('room_id').notNullable();
    t.text('status').notNullable().defaultTo('new');
    t.decimal('items_total', 12, 2).notNullable();
    t.decimal('delivery_fee', 12, 2).notNullable();
    t.decimal('total', 12, 2).notNullable();
    t.text('note').notNullable().defaultTo('');
    t.text('cancel_reason');
    t.text('status_token_sha256').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('delivered_at', { useTz: true });
    t.timestamp('cancelled_at', { useTz: true });
    t.unique(['hotel_id', 'id']);
    t.unique(['hotel_id', 'number']);
    t.foreign(['hotel_id', 'booking_id']).references(['hotel_id', 'id']).inTable('bookings').onDelete('CASCADE');
    t.foreign(['hotel_id', 'room_id']).references(['hotel_id', 'id']).inTable('rooms').onDelete('RESTRICT');
    t.index(['hotel_id', 'created_at']);
    t.index(['hotel_id', 'booking_id']);
  });
  await knex.raw(`ALTER TABLE room_service_orders ADD CONSTRAINT room_service_orders_values_check CHECK (
    status IN ('new', 'accepted', 'preparing', 'delivered', 'cancelled')
    AND number > 0 AND items_total > 0 AND delivery_fee >= 0 AND total = items_total + delivery_fee
    AND length(note) <= 500 AND length(cancel_reason) BETWEEN 1 AND 500
    AND (cancel_reason IS NULL) = (status <> 'cancelled')
    AND (delivered_at IS NULL) = (status <> 'delivered')
    AND (cancelled_at IS NULL) = (status <> 'cancelled')
    AND status_token_sha256 ~ '^[0-9a-f]{64}$')`);

  await knex.schema.createTable('room_service_order_items', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('hotel_id').notNullable();
    t.uuid('order_id').notNullable();
    t.uuid('item_id');
    t.text('name').notNullable();
    t.decimal('unit_price', 12, 2).notNullable();
    t.integer('quantity').notNullable();
    t.decimal('amount', 12, 2).notNullable();
    t.integer('position').notNullable();
    t.foreign(['hotel_id', 'order_id'])
      .references(['hotel_id', 'id'])
      .inTable('room_service_orders')
      .onDelete('CASCADE');
    // The line keeps its copy when the item leaves the menu.
    t.foreign(['hotel_id', 'item_id'])
      .references(['hotel_id', 'id'])
      .inTable('room_service_items')
      .onDelete('SET NULL (item_id)');
    t.unique(['order_id', 'position']);
  });
  await knex.raw(`ALTER TABLE room_service_order_items ADD CONSTRAINT room_service_order_items_values_check CHECK (
    quantity BETWEEN 1 AND 50 AND amount = unit_price * quantity AND position BETWEEN 0 AND 49)`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('room_service_order_items');
  await knex.schema.dropTable('room_service_orders');
  await knex.schema.dropTable('room_service_stay_codes');
}
