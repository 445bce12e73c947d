import type { Knex } from 'knex';

/**
 * Staff realtime events, kept 24 hours so a client that reconnects with `?since=<id>` is replayed what it missed.
 *
 * The id is the client's cursor, so within a hotel ids must follow commit order: were id 11 visible before id 10,
 * a client that saw 11 and reconnected with since=11 would never get 10. A row is therefore inserted with a
 * provisional negative id; a deferred trigger, at commit, takes the hotel's advisory lock (held until the commit
 * is visible), gives the transaction's events their final ids in insertion order and sends the notifications. The
 * lock is taken last thing before the commit, with nothing awaited after it, and several hotels' locks in a sorted
 * order, so it cannot take part in a deadlock; it serialises only the commit tails of one hotel's writers.
 *
 * The notification carries the whole event `{ id, hotelId, type, payload }`, or only `{ id, hotelId }` when that
 * would not fit in pg_notify's 8000 bytes (the listener reads the row).
 *
 * `realtime_event_horizons` records, per hotel, the last id the purge removed: a cursor below it may have missed
 * purged events, and the client is told to reload instead.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('realtime_events', (t) => {
    t.bigIncrements('id');
    t.uuid('hotel_id').notNullable().references('hotels.id').onDelete('CASCADE');
    t.text('type').notNullable();
    t.jsonb('payload').notNullable().defaultTo('{}');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.raw('clock_timestamp()'));
    t.index(['hotel_id', 'id']);
    t.index(['created_at']);
  });
  // Provisional ids until commit (see above); the final ones come from realtime_events_id_seq.
  await knex.raw('CREATE SEQUENCE realtime_events_pending_id_seq OWNED BY realtime_events.id');
  await knex.raw(`ALTER TABLE realtime_events ALTER COLUMN id SET DEFAULT -nextval('realtime_events_pending_id_seq')`);

  await knex.schema.createTable('realtime_event_horizons', (t) => {
    t.uuid('hotel_id').primary().references('hotels.id').onDelete('CASCADE');
    t.bigInteger('purged_through').notNullable();
  });

  await knex.raw(`
    CREATE FUNCTION realtime_events_commit() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      pending bigint;
      event realtime_events%ROWTYPE;
      message text;
    BEGIN
      -- The first firing in a transaction publishes all of its events; the later ones find nothing left to do.
      IF NOT EXISTS (SELECT 1 FROM realtime_events WHERE id < 0) THEN
        RETURN NULL;
      END IF;
      PERFORM pg_advisory_xact_lock(1381258821, key)
        FROM (SELECT DISTINCT hashtext(hotel_id::text) AS key FROM realtime_events WHERE id < 0) AS locks
        ORDER BY key;
      FOR pending IN SELECT id FROM realtime_events WHERE id < 0 ORDER BY id DESC LOOP
        UPDATE realtime_events
           SET id = nextval('realtime_events_id_seq'), created_at = clock_timestamp()
         WHERE id = pending
        RETURNING * INTO event;
        message := json_build_object('id', event.id, 'hotelId', event.hotel_id, 'type', event.type,
                                     'payload', event.payload)::text;
        IF octet_length(message) > 7900 THEN
          message := json_build_object('id', event.id, 'hotelId', event.hotel_id)::text;
        END IF;
        PERFORM pg_notify('hotel_events', message);
      END LOOP;
      RETURN NULL;
    END
    $$`);
  await knex.raw(`
    CREATE CONSTRAINT TRIGGER realtime_events_commit
      AFTER INSERT ON realtime_events
      DEFERRABLE INITIALLY DEFERRED
      FOR EACH ROW EXECUTE FUNCTION realtime_events_commit()`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('realtime_event_horizons');
  await knex.schema.dropTable('realtime_events');
  await knex.raw('DROP FUNCTION realtime_events_commit()');
}
