import type { Knex } from 'knex';

/**
 * A booking's timeline (docs/decisions/timeline.md) reads, for one booking, records whose tables are otherwise read
 * by hotel and time: the TV system's push log, the loyalty entries (read by guest) and the in-app notifications that
 * name the booking in their data. Without these indexes each read would scan the hotel's whole log.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(
    'CREATE INDEX tv_push_log_booking_idx ON tv_push_log (hotel_id, booking_id, created_at) WHERE booking_id IS NOT NULL',
  );
  await knex.raw(
    'CREATE INDEX loyalty_entries_booking_idx ON loyalty_entries (hotel_id, booking_id) WHERE booking_id IS NOT NULL',
  );
  await knex.raw(`CREATE INDEX notifications_booking_idx ON notifications (hotel_id, (data->>'booking_id'), created_at)
    WHERE data \\? 'booking_id'`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX notifications_booking_idx');
  await knex.raw('DROP INDEX loyalty_entries_booking_idx');
  await knex.raw('DROP INDEX tv_push_log_booking_idx');
}
