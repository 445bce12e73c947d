import type { Knex } from 'knex';

/**
 * Staff chat: rooms (a direct room per pair of people, named groups, and one notifications room per hotel that every
 * member of staff reads), their members, messages (soft-deleted: the text is cleared, the row keeps the place in the
 * history), reactions, read markers and presence (one row per user, overwritten by each heartbeat: never history).
 *
 * Realtime events get an audience: a room's events reach only its members' sockets, so the commit trigger carries
 * `audience` in the notification and replays filter on it.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('chat_rooms', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('hotel_id').notNullable().references('hotels.id').onDelete('CASCADE');
    t.text('type').notNullable();
    t.text('name');
    // The sorted pair of a direct room's members: one room per pair.
    t.text('direct_key');
    t.uuid('created_by').references('users.id').onDelete('SET NULL');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['hotel_id', 'id']);
    t.index(['hotel_id', 'created_at']);
  });
  await knex.raw(`ALTER TABLE chat_rooms ADD CONSTRAINT chat_rooms_values_check CHECK (
      type IN ('direct', 'group', 'notifications')
      AND (type = 'direct') = (direct_key IS NOT NULL)
      AND (type <> 'group' OR name IS NOT NULL)
      AND char_length(name) <= 100)`);
  await knex.raw(
    'CREATE UNIQUE INDEX chat_rooms_direct_unique ON chat_rooms (hotel_id, direct_key) WHERE direct_key IS NOT NULL',
  );
  await knex.raw(
    "CREATE UNIQUE INDEX chat_rooms_notifications_unique ON chat_rooms (hotel_id) WHERE type = 'notifications'",
  );
  await knex.raw(`INSERT INTO chat_rooms (hotel_id, type, name) SELECT id, 'notifications', 'Уведомления' FROM hotels`);

  await knex.schema.createTable('chat_members', (t) => {
    t.uuid('hotel_id').notNullable();
    t.uuid('room_id').notNullable();
    t.uuid('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.timestamp('joined_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['room_id', 'user_id']);
    t.index(['user_id']);
    t.foreign(['hotel_id', 'room_id']).references(['hotel_id', 'id']).inTable('chat_rooms').onDelete('CASCADE');
  });

  await knex.schema.createTable('chat_messages', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('hotel_id').notNullable();
    t.uuid('room_id').notNullable();
    t.uuid('sender_id').references('users.id').onDelete('SET NULL');
    t.boolean('is_system').notNullable().defaultTo(false);
    t.text('text');
    t.text('attachment_url');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('edited_at', { useTz: true });
    t.timestamp('deleted_at', { useTz: true });
    t.unique(['hotel_id', 'id']);
    t.foreign(['hotel_id', 'room_id']).references(['hotel_id', 'id']).inTable('chat_rooms').onDelete('CASCADE');
  });
  await knex.raw(`ALTER TABLE chat_messages
    ADD CONSTRAINT chat_messages_values_check CHECK (
      char_length(text) <= 4000 AND char_length(attachment_url) <= 2000
      AND (deleted_at IS NOT NULL OR text IS NOT NULL OR attachment_url IS NOT NULL)
      AND (deleted_at IS NULL OR (text IS NULL AND attachment_url IS NULL))),
    ADD COLUMN search tsvector GENERATED ALWAYS AS (
      to_tsvector('russian', coalesce(text, '')) || to_tsvector('english', coalesce(text, ''))) STORED`);
  await knex.raw('CREATE INDEX chat_messages_history ON chat_messages (room_id, created_at DESC, id DESC)');
  await knex.raw('CREATE INDEX chat_messages_search ON chat_messages USING gin (search)');

  await knex.schema.createTable('chat_reactions', (t) => {
    t.uuid('hotel_id').notNullable();
    t.uuid('message_id').notNullable();
    t.uuid('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.text('emoji').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['message_id', 'user_id', 'emoji']);
    t.foreign(['hotel_id', 'message_id']).references(['hotel_id', 'id']).inTable('chat_messages').onDelete('CASCADE');
  });
  await knex.raw(
    'ALTER TABLE chat_reactions ADD CONSTRAINT chat_reactions_emoji_check CHECK (char_length(emoji) <= 16)',
  );

  // Read markers are their own rows: the notifications room has no member rows (every member of staff reads it).
  await knex.schema.createTable('chat_reads', (t) => {
    t.uuid('hotel_id').notNullable();
    t.uuid('room_id').notNullable();
    t.uuid('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.timestamp('last_read_at', { useTz: true }).notNullable();
    t.primary(['room_id', 'user_id']);
    t.foreign(['hotel_id', 'room_id']).references(['hotel_id', 'id']).inTable('chat_rooms').onDelete('CASCADE');
  });

  await knex.schema.createTable('chat_presence', (t) => {
    t.uuid('user_id').primary().references('users.id').onDelete('CASCADE');
    t.uuid('hotel_id').notNullable().references('hotels.id').onDelete('CASCADE');
    t.timestamp('last_seen_at', { useTz: true }).notNullable();
    t.index(['hotel_id', 'last_seen_at']);
  });

  await knex.raw('ALTER TABLE realtime_events ADD COLUMN audience uuid[]');
  await knex.raw(`
    CREATE OR REPLACE FUNCTION realtime_events_commit() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      pending realtime_events%ROWTYPE;
      next_id bigint;
      message text;
    BEGIN
      -- The first firing in a transaction publishes all of its events; the later ones find nothing left to do.
      IF NOT EXISTS (SELECT 1 FROM realtime_events WHERE id < 0) THEN
        RETURN NULL;
      END IF;
      PERFORM pg_advisory_xact_lock(1381258821, key)
        FROM (SELECT DISTINCT hashtext(hotel_id::text) AS key FROM realtime_events WHERE id < 0) AS locks
        ORDER BY key;
      FOR pending IN SELECT * FROM realtime_events WHERE id < 0 ORDER BY id DESC LOOP
        INSERT INTO realtime_event_heads AS head (hotel_id, last_id) VALUES (pending.hotel_id, 1)
          ON CONFLICT (hotel_id) DO UPDATE SET last_id = head.last_id + 1
          RETURNING last_id INTO next_id;
        UPDATE realtime_events SET id = next_id, created_at = clock_timestamp()
         WHERE hotel_id = pending.hotel_id AND id = pending.id;
        IF pending.audience IS NULL THEN
          message := json_build_object('id', next_id, 'hotelId', pending.hotel_id, 'type', pending.type,
                                       'payload', pending.payload)::text;
        ELSE
          message := json_build_object('id', next_id, 'hotelId', pending.hotel_id, 'type', pending.type,
                                       'payload', pending.payload, 'audience', pending.audience)::text;
        END IF;
        IF octet_length(message) > 7900 THEN
          message := json_build_object('id', next_id, 'hotelId', pending.hotel_id)::text;
        END IF;
        PERFORM pg_notify('hotel_events', message);
      END LOOP;
      RETURN NULL;
    END
    $$`);
}

export async function down(): Promise<void> {
  throw new Error('forward-only: chat history is not dropped by a rollback');
}
