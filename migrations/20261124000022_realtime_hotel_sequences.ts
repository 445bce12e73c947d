import type { Knex } from 'knex';

/**
 * Realtime event ids become per hotel (1, 2, 3... for each hotel): with one global sequence a hotel's clients saw,
 * in the gaps between their own ids, how busy the rest of the platform was. The commit trigger already holds the
 * hotel's advisory lock while it numbers the transaction's events, so a per-hotel counter row is taken under that
 * lock; ids still follow commit order within a hotel, which is all a replay cursor needs.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('realtime_event_heads', (t) => {
    t.uuid('hotel_id').primary().references('hotels.id').onDelete('CASCADE');
    t.bigInteger('last_id').notNullable();
  });
  // Hotels continue from where their clients' cursors are, so no cursor handed out before is reused.
  await knex.raw(`
    INSERT INTO realtime_event_heads (hotel_id, last_id)
    SELECT hotel_id, max(last_id) FROM (
      SELECT hotel_id, max(id) AS last_id FROM realtime_events WHERE id > 0 GROUP BY hotel_id
      UNION ALL
      SELECT hotel_id, purged_through FROM realtime_event_horizons
    ) known
    GROUP BY hotel_id`);
  await knex.raw('ALTER TABLE realtime_events DROP CONSTRAINT realtime_events_pkey');
  await knex.raw('ALTER TABLE realtime_events ADD PRIMARY KEY (hotel_id, id)');
  await knex.raw('DROP INDEX IF EXISTS realtime_events_hotel_id_id_index');
  await knex.raw('DROP SEQUENCE realtime_events_id_seq');
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
        message := json_build_object('id', next_id, 'hotelId', pending.hotel_id, 'type', pending.type,
                                     'payload', pending.payload)::text;
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
  throw new Error('forward-only: per-hotel realtime ids cannot be mapped back to one sequence');
}
