import type { Knex } from 'knex';

/**
 * A chat message's notification, per room and member: the member's running in-app notification of the room
 * (`notification_id`, rewritten while they leave it unread), how many messages it tells of, and the newest message it
 * covers (`told_through`), so the unread-message job never tells of those messages again.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('chat_notices', (t) => {
    t.uuid('hotel_id').notNullable();
    t.uuid('room_id').notNullable();
    t.uuid('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.uuid('notification_id').notNullable();
    t.integer('messages').notNullable();
    t.timestamp('told_through', { useTz: true }).notNullable();
    t.primary(['room_id', 'user_id']);
    t.index(['user_id']);
    t.foreign(['hotel_id', 'room_id']).references(['hotel_id', 'id']).inTable('chat_rooms').onDelete('CASCADE');
    t.foreign(['hotel_id', 'notification_id'])
      .references(['hotel_id', 'id'])
      .inTable('notifications')
      .onDelete('CASCADE');
  });
  await knex.raw('ALTER TABLE chat_notices ADD CONSTRAINT chat_notices_messages_positive CHECK (messages > 0)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('chat_notices');
}
