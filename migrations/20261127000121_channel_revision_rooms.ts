import type { Knex } from 'knex';

/**
 * An OTA reservation of several rooms makes one booking of ours per room: a revision applied records them
 * (`booking_ids`, by the room's place in the revision); `booking_id` stays its first room's. A revision of one room
 * leaves it null (its booking is `booking_id`).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE channel_revisions ADD COLUMN booking_ids uuid[]');
  await knex.raw('CREATE INDEX channel_revisions_booking_ids ON channel_revisions USING gin (booking_ids)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE channel_revisions DROP COLUMN booking_ids');
}
