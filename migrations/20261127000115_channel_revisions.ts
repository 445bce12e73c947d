import type { Knex } from 'knex';
import { installAuditTriggers } from '../src/platform/db/audit-tables';

/**
 * Booking intake from a channel manager (docs/decisions/channel-intake.md): every booking revision the channel
 * announced, recorded once per hotel and revision id in the transaction that applied it (so a second delivery
 * changes nothing), with the channel's booking it belongs to and its time at the channel (so an older revision than
 * one applied is recorded as superseded), and the revisions that could not be placed, kept for the staff with the
 * revision as intake parsed it (the subset it reads: guest's name and contacts, the OTA's notes, rooms and prices; erased
 * with the guest by the module's `personalData`). `channel_intake_hooks` holds each hotel's intake: the hash of its webhook token and
 * the webhook registered at the channel with it.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('channel_revisions', (table) => {
    table.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    table.uuid('hotel_id').notNullable().references('hotels.id').onDelete('CASCADE');
    table.text('revision_id').notNullable();
    table.text('channel_booking_id').notNullable();
    table.text('kind').notNullable();
    table.text('outcome').notNullable();
    table.text('unplaced_reason');
    table.text('unplaced_detail');
    table.uuid('booking_id').references('bookings.id').onDelete('SET NULL');
    table.text('ota_name').notNullable();
    table.text('ota_reservation_code').notNullable();
    table.timestamp('channel_at', { useTz: true }).notNullable();
    table.jsonb('revision').notNullable();
    table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    table.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    table.unique(['hotel_id', 'revision_id']);
    table.index(['hotel_id', 'channel_booking_id', 'channel_at']);
  });
  await knex.raw(`ALTER TABLE channel_revisions
    ADD CONSTRAINT channel_revisions_kind CHECK (kind IN ('new', 'modified', 'cancelled')),
    ADD CONSTRAINT channel_revisions_outcome CHECK (outcome IN ('applied', 'superseded', 'unplaced', 'placed', 'dismissed'))`);
  await knex.raw(
    "CREATE INDEX channel_revisions_unplaced ON channel_revisions (hotel_id, created_at) WHERE outcome = 'unplaced'",
  );
  await knex.raw('CREATE INDEX channel_revisions_booking ON channel_revisions (hotel_id, booking_id)');
  await knex.schema.createTable('channel_intake_hooks', (table) => {
    table.uuid('hotel_id').primary().references('hotels.id').onDelete('CASCADE');
    table.text('token_hash').notNullable().unique();
    table.text('webhook_id');
    table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await installAuditTriggers(knex, ['channel_revisions', 'channel_intake_hooks']);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('channel_intake_hooks');
  await knex.schema.dropTable('channel_revisions');
}
