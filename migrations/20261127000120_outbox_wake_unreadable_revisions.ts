import type { Knex } from 'knex';

/**
 * One coalesced wake of a workflow through the outbox, for the triggers that wake one: `outbox_wake(wake)` queues
 * the signal unless its workflow has two wakes still undelivered (the second reaches it after this commit, and the
 * relay delivers a workflow's messages in order), and tells the relay. The webhooks' event trigger (migration 103) and
 * the channel sync's inventory trigger (migration 114) each had a copy of it; both call it now, their behaviour
 * unchanged.
 *
 * And a booking revision the channel answers that intake cannot read is recorded too (`channel_revisions`, outcome
 * `unreadable`, the parser's words in `unplaced_detail`), beside the others: its booking, kind and time at the channel
 * are unknown, so they may be missing on such a row only. A later readable answer of it takes its row.
 */

/** The wake of each active subscription that wants the event's type (its delivery workflow). */
const WEBHOOK_WAKE = `
      jsonb_build_object(
        'kind', 'signalWithStart', 'workflowType', 'webhookDelivery',
        'workflowId', 'webhooks:' || s.id,
        'args', jsonb_build_array(jsonb_build_object('hotelId', s.hotel_id, 'subscriptionId', s.id)),
        'signal', 'wake', 'signalArgs', '[]'::jsonb,
        'searchAttributes', jsonb_build_object('HotelSlug', h.slug), 'reviveFinished', true)`;
const WEBHOOK_TARGETS = `
        FROM webhook_subscriptions s JOIN hotels h ON h.id = s.hotel_id
       WHERE s.hotel_id = NEW.hotel_id AND s.status = 'active' AND NEW.type = ANY (s.event_types)`;

/** The wake of the connected hotel's channel sync. */
const CHANNEL_WAKE = `
      jsonb_build_object(
        'kind', 'signalWithStart', 'workflowType', 'channelSync',
        'workflowId', 'channels:' || c.hotel_id,
        'args', jsonb_build_array(jsonb_build_object('hotelId', c.hotel_id)),
        'signal', 'ariChanged', 'signalArgs', jsonb_build_array(jsonb_build_object('full', false)),
        'searchAttributes', jsonb_build_object('HotelSlug', h.slug), 'reviveFinished', true)`;
const CHANNEL_TARGETS = `
        FROM channel_connections c JOIN hotels h ON h.id = c.hotel_id
       WHERE c.hotel_id = NEW.hotel_id`;

/** The webhooks' event record (migration 103): only its wake is written here. */
const webhookEventsRecord = (wake: string) => `
    CREATE OR REPLACE FUNCTION webhook_events_record() RETURNS trigger LANGUAGE plpgsql AS $$
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
      ${wake}
      RETURN NULL;
    END
    $$`;

const channelSyncWake = (wake: string) => `
    CREATE OR REPLACE FUNCTION channel_sync_wake() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      ${wake}
      RETURN NULL;
    END
    $$`;

/** Through the one function: each target's message. */
const viaOutboxWake = (message: string, targets: string) => `PERFORM outbox_wake(${message})${targets};`;

/** As migrations 103 and 114 wrote it: the coalesced insert and the notice inline. */
const inline = (message: string, targets: string, workflowId: string) => `INSERT INTO outbox (message)
      SELECT ${message}${targets}
         AND (SELECT count(*) FROM (SELECT 1 FROM outbox o
                                     WHERE o.workflow_id = ${workflowId} AND o.delivered_at IS NULL
                                     LIMIT 2) AS waiting) < 2;
      IF FOUND THEN
        PERFORM pg_notify('outbox', '');
      END IF;`;

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE FUNCTION outbox_wake(wake jsonb) RETURNS boolean LANGUAGE plpgsql AS $$
    BEGIN
      IF (SELECT count(*) FROM (SELECT 1 FROM outbox o
                                 WHERE o.workflow_id = wake->>'workflowId' AND o.delivered_at IS NULL
                                 LIMIT 2) AS waiting) >= 2 THEN
        RETURN false;
      END IF;
      INSERT INTO outbox (message) VALUES (wake);
      PERFORM pg_notify('outbox', '');
      RETURN true;
    END
    $$`);
  await knex.raw(webhookEventsRecord(viaOutboxWake(WEBHOOK_WAKE, WEBHOOK_TARGETS)));
  await knex.raw(channelSyncWake(viaOutboxWake(CHANNEL_WAKE, CHANNEL_TARGETS)));
  await knex.raw(`ALTER TABLE channel_revisions
    ALTER COLUMN channel_booking_id DROP NOT NULL, ALTER COLUMN kind DROP NOT NULL, ALTER COLUMN channel_at DROP NOT NULL,
    DROP CONSTRAINT channel_revisions_outcome,
    ADD CONSTRAINT channel_revisions_outcome
      CHECK (outcome IN ('applied', 'superseded', 'unplaced', 'placed', 'dismissed', 'unreadable')),
    ADD CONSTRAINT channel_revisions_read CHECK (outcome = 'unreadable'
      OR (channel_booking_id IS NOT NULL AND kind IS NOT NULL AND channel_at IS NOT NULL))`);
}

export async function down(knex: Knex): Promise<void> {
  await knex('channel_revisions').where({ outcome: 'unreadable' }).delete();
  await knex.raw(`ALTER TABLE channel_revisions
    DROP CONSTRAINT channel_revisions_read,
    DROP CONSTRAINT channel_revisions_outcome,
    ADD CONSTRAINT channel_revisions_outcome
      CHECK (outcome IN ('applied', 'superseded', 'unplaced', 'placed', 'dismissed')),
    ALTER COLUMN channel_booking_id SET NOT NULL, ALTER COLUMN kind SET NOT NULL, ALTER COLUMN channel_at SET NOT NULL`);
  await knex.raw(webhookEventsRecord(inline(WEBHOOK_WAKE, WEBHOOK_TARGETS, `'webhooks:' || s.id`)));
  await knex.raw(channelSyncWake(inline(CHANNEL_WAKE, CHANNEL_TARGETS, `'channels:' || c.hotel_id`)));
  await knex.raw('DROP FUNCTION outbox_wake(jsonb)');
}
