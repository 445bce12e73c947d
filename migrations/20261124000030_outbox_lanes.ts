import type { Knex } from 'knex';

/**
 * The relay delivers many workflows at once, each one's messages in order, and serves hotels in turn: it needs the
 * target workflow and the hotel (its lane; '' for messages without one) in their own indexed columns. They are
 * generated from the message, so existing rows are filled in and a process still running the previous code writes
 * them too.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`ALTER TABLE outbox
    ADD COLUMN workflow_id text GENERATED ALWAYS AS (message->>'workflowId') STORED,
    ADD COLUMN lane text GENERATED ALWAYS AS (coalesce(message->'searchAttributes'->>'HotelSlug', '')) STORED`);
  // Is an earlier message of this workflow still undelivered? (the ordering check for every candidate)
  await knex.raw('CREATE INDEX outbox_workflow_pending_idx ON outbox (workflow_id, id) WHERE delivered_at IS NULL');
  // The hotels with undelivered messages, and each one's oldest first.
  await knex.raw('CREATE INDEX outbox_lane_pending_idx ON outbox (lane, id) WHERE delivered_at IS NULL');
  // The backlog: how many are undelivered and since when.
  await knex.raw('CREATE INDEX outbox_pending_age_idx ON outbox (created_at) WHERE delivered_at IS NULL');
  await knex.raw('DROP INDEX outbox_pending_idx');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('CREATE INDEX outbox_pending_idx ON outbox (available_at, id) WHERE delivered_at IS NULL');
  await knex.raw('DROP INDEX outbox_pending_age_idx, outbox_lane_pending_idx, outbox_workflow_pending_idx');
  await knex.raw('ALTER TABLE outbox DROP COLUMN lane, DROP COLUMN workflow_id');
}
