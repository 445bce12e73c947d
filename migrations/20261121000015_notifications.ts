import type { Knex } from 'knex';

/**
 * In-app notifications. A notification is one fact of a hotel (`type`, `title`, `body`, small ids in `data`); each
 * member of staff it was delivered to has a `notification_recipients` row with their own read and deleted state, so
 * marking read and deleting are per user. `notification_settings` holds, per hotel and role, the explicit choices
 * `{ <type>: boolean }` made by the hotel; types a role has no choice for follow the defaults in code
 * (notifications.types.ts), so a type added later needs no migration. `type` is checked in code for the same reason.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('notifications', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('hotel_id').notNullable().references('hotels.id').onDelete('CASCADE');
    t.text('type').notNullable();
    t.text('title').notNullable();
    t.text('body').notNullable().defaultTo('');
    t.jsonb('data').notNullable().defaultTo('{}');
    // Millisecond precision, as clients see it (JSON), so a `before` cursor copied from a response is exact.
    t.timestamp('created_at', { useTz: true })
      .notNullable()
      .defaultTo(knex.raw("date_trunc('milliseconds', clock_timestamp())"));
    t.unique(['hotel_id', 'id']);
    t.index(['hotel_id', 'created_at']);
  });
  await knex.raw(`ALTER TABLE notifications
    ADD CONSTRAINT notifications_data_check CHECK (jsonb_typeof(data) = 'object')`);

  await knex.schema.createTable('notification_recipients', (t) => {
    t.uuid('hotel_id').notNullable();
    t.uuid('notification_id').notNullable();
    t.uuid('user_id').notNullable().references('users.id').onDelete('CASCADE');
    // The notification's created_at, copied so a user's list pages on one index without touching notifications.
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('read_at', { useTz: true });
    // Deleting hides the notification for this user only; the row stays (and the notification for the others).
    t.timestamp('deleted_at', { useTz: true });
    t.primary(['hotel_id', 'notification_id', 'user_id']);
    t.foreign(['hotel_id', 'notification_id'])
      .references(['hotel_id', 'id'])
      .inTable('notifications')
      .onDelete('CASCADE');
  });
  await knex.raw(`CREATE INDEX notification_recipients_inbox_index
    ON notification_recipients (hotel_id, user_id, created_at DESC, notification_id DESC) WHERE deleted_at IS NULL`);
  await knex.raw(`CREATE INDEX notification_recipients_unread_index
    ON notification_recipients (hotel_id, user_id) WHERE deleted_at IS NULL AND read_at IS NULL`);
  await knex.raw('CREATE INDEX notification_recipients_user_index ON notification_recipients (user_id)');

  await knex.schema.createTable('notification_settings', (t) => {
    t.uuid('hotel_id').notNullable().references('hotels.id').onDelete('CASCADE');
    t.text('role').notNullable();
    t.jsonb('settings').notNullable().defaultTo('{}');
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['hotel_id', 'role']);
  });
  await knex.raw(`ALTER TABLE notification_settings
    ADD CONSTRAINT notification_settings_role_check CHECK (role IN
      ('hotel_admin','manager','receptionist','accountant','security','technician','housekeeper')),
    ADD CONSTRAINT notification_settings_settings_check CHECK (jsonb_typeof(settings) = 'object')`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('notification_settings');
  await knex.schema.dropTable('notification_recipients');
  await knex.schema.dropTable('notifications');
}
