import type { Knex } from 'knex';

/**
 * How far the unread-message job has told each member of staff about: messages up to `pushed_through` were summed up
 * in a push once, so no message is pushed twice however often the job runs or retries.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('chat_unread_pushes', (t) => {
    t.uuid('hotel_id').notNullable().references('hotels.id').onDelete('CASCADE');
    t.uuid('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.timestamp('pushed_through', { useTz: true }).notNullable();
    t.primary(['hotel_id', 'user_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('chat_unread_pushes');
}
