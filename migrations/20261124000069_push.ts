import type { Knex } from 'knex';

/**
 * Web Push subscriptions, belonging to a user of a hotel: one row per browser endpoint and hotel (a browser that
 * subscribes again for another user of the hotel moves to that user; another hotel's rows are never touched). Bounded
 * per user by the service (the oldest go first).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('push_subscriptions', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('hotel_id').notNullable().references('hotels.id').onDelete('CASCADE');
    t.uuid('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.text('endpoint').notNullable();
    t.text('p256dh').notNullable();
    t.text('auth').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['hotel_id', 'endpoint']);
    t.index(['hotel_id', 'user_id', 'updated_at']);
  });
  await knex.raw(`ALTER TABLE push_subscriptions
    ADD CONSTRAINT push_subscriptions_values_check CHECK (
      endpoint LIKE 'https://%'
      AND char_length(endpoint) <= 1024
      AND char_length(p256dh) <= 100
      AND char_length(auth) <= 50)`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('push_subscriptions');
}
