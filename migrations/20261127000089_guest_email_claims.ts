import type { Knex } from 'knex';

/**
 * The guests' booking e-mails are claimed like every other e-mail sent at most once (`mail_claims`, keyed
 * `guest-email:<hotel>:<booking>:<kind>`): their own table goes, its rows moved over.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`INSERT INTO mail_claims (key, claimed_at, sent_at)
    SELECT 'guest-email:' || hotel_id || ':' || booking_id || ':' || kind, claimed_at, sent_at FROM booking_guest_emails
    ON CONFLICT (key) DO NOTHING`);
  await knex.schema.dropTable('booking_guest_emails');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.createTable('booking_guest_emails', (t) => {
    t.uuid('hotel_id').notNullable();
    t.uuid('booking_id').notNullable();
    t.text('kind').notNullable();
    t.timestamp('claimed_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('sent_at', { useTz: true });
    t.primary(['booking_id', 'kind']);
    t.foreign(['hotel_id', 'booking_id']).references(['hotel_id', 'id']).inTable('bookings').onDelete('CASCADE');
  });
  await knex.raw(`ALTER TABLE booking_guest_emails
    ADD CONSTRAINT booking_guest_emails_kind_check CHECK (kind IN ('received','confirmed','cancelled'))`);
  await knex.raw(`INSERT INTO booking_guest_emails (hotel_id, booking_id, kind, claimed_at, sent_at)
    SELECT split_part(key, ':', 2)::uuid, split_part(key, ':', 3)::uuid, split_part(key, ':', 4), claimed_at, sent_at
    FROM mail_claims m WHERE key LIKE 'guest-email:%'
      AND EXISTS (SELECT 1 FROM bookings b WHERE b.id = split_part(m.key, ':', 3)::uuid)`);
  await knex('mail_claims').where('key', 'like', 'guest-email:%').delete();
}
