import type { Knex } from 'knex';

/**
 * Outbound webhooks (docs/decisions/webhooks.md): a hotel's subscriptions, the log of its hotel-wide events kept 30
 * days for delivery, replay and the pull feed, and each subscription's delivery attempts.
 *
 * The event log is filled where realtime events get their place: when the realtime commit trigger gives an event its
 * final per-hotel id (under the hotel's advisory lock, in commit order), a row trigger copies the hotel-wide ones
 * (no audience) of a published kind into `webhook_events` with that id as `seq`, and wakes the delivery workflow of each active
 * subscription that wants the type, through the outbox. A `booking_updated`'s `changes` (which may name the guest) is
 * kept as `changed_fields`, the names of the fields changed. The wake is coalesced: a workflow with two wakes still
 * undelivered needs no third (the second reaches it after this commit; the relay delivers a workflow's messages in
 * order, the second only once the first is recorded).
 */
/**
 * The kinds that are published (WEBHOOK_EVENT_TYPES of the module, which a test compares with this list): only they
 * are kept, so no other event (a notification's title, a chat's) is stored 30 days. A new published kind needs a
 * migration that recreates the trigger with it.
 */
const PUBLISHED = [
  'booking_created',
  'booking_updated',
  'booking:moved',
  'room_updated',
  'housekeeping_task_created',
  'housekeeping_updated',
  'housekeeping_done',
  'restrictions_changed',
  'deposit_updated',
  'invoice_updated',
  'rental_booking_created',
  'rental_booking_updated',
  'room_service_order_created',
  'room_service_order_updated',
  'card_issuance_updated',
  'review:updated',
]
  .map((type) => `'${type}'`)
  .join(', ');

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('webhook_subscriptions', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('hotel_id').notNullable().references('hotels.id').onDelete('CASCADE');
    t.text('endpoint').notNullable();
    t.specificType('event_types', 'text[]').notNullable();
    t.text('status').notNullable().defaultTo('active');
    t.text('paused_reason');
    // AES-GCM envelopes (crypto.encryptSecret): the key signs every delivery, so it is kept, encrypted.
    t.text('secret_encrypted').notNullable();
    t.text('secret_hint').notNullable();
    t.text('previous_secret_encrypted');
    t.timestamp('previous_secret_until', { useTz: true });
    // The last seq delivered (or skipped); the next delivery is the first wanted event after it.
    t.bigInteger('cursor').notNullable().defaultTo(0);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['hotel_id', 'id']);
    t.index(['hotel_id', 'created_at']);
  });
  await knex.raw(`ALTER TABLE webhook_subscriptions ADD CONSTRAINT webhook_subscriptions_values_check CHECK (
      status IN ('active', 'paused') AND char_length(endpoint) <= 2000 AND char_length(paused_reason) <= 2000)`);

  await knex.schema.createTable('webhook_events', (t) => {
    t.uuid('hotel_id').notNullable().references('hotels.id').onDelete('CASCADE');
    t.bigInteger('seq').notNullable();
    t.text('type').notNullable();
    t.jsonb('payload').notNullable();
    // What an erasure of a guest's data finds the events by (retention scrubs `payload` of these rows).
    t.uuid('booking_id');
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.primary(['hotel_id', 'seq']);
    t.index(['hotel_id', 'created_at']);
    // The hourly purge across hotels.
    t.index(['created_at']);
  });
  await knex.raw(
    'CREATE INDEX webhook_events_booking ON webhook_events (hotel_id, booking_id) WHERE booking_id IS NOT NULL',
  );

  // Per hotel, the last seq purged (30 days): a replay from at or below it is refused rather than given with a hole.
  await knex.schema.createTable('webhook_event_horizons', (t) => {
    t.uuid('hotel_id').primary().references('hotels.id').onDelete('CASCADE');
    t.bigInteger('purged_through').notNullable();
  });

  await knex.schema.createTable('webhook_deliveries', (t) => {
    t.bigIncrements('id');
    t.uuid('hotel_id').notNullable();
    t.uuid('subscription_id').notNullable();
    t.bigInteger('seq').notNullable();
    t.text('webhook_id').notNullable();
    t.integer('attempt').notNullable();
    t.integer('status_code');
    t.integer('latency_ms').notNullable();
    t.text('error');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['hotel_id', 'subscription_id', 'id']);
    // An event's earlier attempts (the next attempt's number), and the hourly purge.
    t.index(['hotel_id', 'subscription_id', 'seq']);
    t.index(['created_at']);
    t.foreign(['hotel_id', 'subscription_id'])
      .references(['hotel_id', 'id'])
      .inTable('webhook_subscriptions')
      .onDelete('CASCADE');
  });

  await knex.raw(`
    CREATE FUNCTION webhook_events_record() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO webhook_events (hotel_id, seq, type, payload, booking_id, created_at)
      VALUES (NEW.hotel_id, NEW.id, NEW.type,
              -- A booking's changes may hold a guest's name, phone, e-mail or notes: only their field names leave.
              CASE WHEN NEW.type = 'booking_updated' AND jsonb_typeof(NEW.payload->'changes') = 'object'
                   THEN (NEW.payload - 'changes') || jsonb_build_object('changed_fields',
                          (SELECT coalesce(jsonb_agg(field ORDER BY field), '[]'::jsonb)
                             FROM jsonb_object_keys(NEW.payload->'changes') AS field))
                   ELSE NEW.payload END,
              CASE WHEN NEW.payload->>'booking_id' ~ '^[0-9a-f-]{36}$' THEN (NEW.payload->>'booking_id')::uuid END,
              NEW.created_at);
      INSERT INTO outbox (message)
      SELECT jsonb_build_object(
               'kind', 'signalWithStart', 'workflowType', 'webhookDelivery',
               'workflowId', 'webhooks:' || s.id,
               'args', jsonb_build_array(jsonb_build_object('hotelId', s.hotel_id, 'subscriptionId', s.id)),
               'signal', 'wake', 'signalArgs', '[]'::jsonb,
               'searchAttributes', jsonb_build_object('HotelSlug', h.slug), 'reviveFinished', true)
        FROM webhook_subscriptions s JOIN hotels h ON h.id = s.hotel_id
       WHERE s.hotel_id = NEW.hotel_id AND s.status = 'active' AND NEW.type = ANY (s.event_types)
         AND (SELECT count(*) FROM (SELECT 1 FROM outbox o
                                     WHERE o.workflow_id = 'webhooks:' || s.id AND o.delivered_at IS NULL
                                     LIMIT 2) AS waiting) < 2;
      IF FOUND THEN
        PERFORM pg_notify('outbox', '');
      END IF;
      RETURN NULL;
    END
    $$`);
  await knex.raw(`
    CREATE TRIGGER webhook_events_record AFTER UPDATE OF id ON realtime_events
      FOR EACH ROW WHEN (OLD.id < 0 AND NEW.id > 0 AND NEW.audience IS NULL AND NEW.type IN (${PUBLISHED}))
      EXECUTE FUNCTION webhook_events_record()`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP TRIGGER IF EXISTS webhook_events_record ON realtime_events');
  await knex.raw('DROP FUNCTION IF EXISTS webhook_events_record()');
  await knex.schema.dropTable('webhook_deliveries');
  await knex.schema.dropTable('webhook_event_horizons');
  await knex.schema.dropTable('webhook_events');
  await knex.schema.dropTable('webhook_subscriptions');
}
