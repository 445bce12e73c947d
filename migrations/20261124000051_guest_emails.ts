import type { Knex } from 'knex';

/**
 * E-mails to the guests of online bookings: the language the hotel writes to its guests in, and one row per e-mail a
 * booking's workflow has taken on (received, confirmed, cancelled), so none goes out twice. `sent_at` stays empty
 * while the e-mail is being sent; a row left so for long is an e-mail whose fate is unknown (see bookings.jobs.ts).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('hotel_settings', (t) => {
    t.text('guest_language').notNullable().defaultTo('ru');
  });
  await knex.raw(`ALTER TABLE hotel_settings
    ADD CONSTRAINT hotel_settings_guest_language_check CHECK (guest_language IN ('ru','en'))`);

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
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('booking_guest_emails');
  await knex.schema.alterTable('hotel_settings', (t) => {
    t.dropColumn('guest_language');
  });
}
