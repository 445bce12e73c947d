import type { Knex } from 'knex';

/**
 * The erasure (docs/decisions/retention.md) finds a guest's rows by their link, hotel first: the tables it reads by
 * booking without an index on it (housekeeping tasks; the TV push log's is migration 105's), and the rows it matches by the guest's own
 * contact (rental bookings by phone or e-mail, fiscal receipts by the buyer's contact), each read by an index instead
 * of a scan of the hotel's rows per batch.
 */
const INDEXES = [
  ['housekeeping_tasks_booking_idx', 'housekeeping_tasks (hotel_id, booking_id) WHERE booking_id IS NOT NULL'],
  ['rental_bookings_phone_idx', 'rental_bookings (hotel_id, guest_phone)'],
  ['rental_bookings_email_idx', 'rental_bookings (hotel_id, lower(guest_email))'],
  ['fiscal_receipts_buyer_idx', "fiscal_receipts (hotel_id, lower(task->'clientInfo'->>'emailOrPhone'))"],
];

export async function up(knex: Knex): Promise<void> {
  for (const [name, on] of INDEXES) await knex.raw(`CREATE INDEX ${name} ON ${on}`);
}

export async function down(knex: Knex): Promise<void> {
  for (const [name] of INDEXES) await knex.raw(`DROP INDEX ${name}`);
}
