import type { Knex } from 'knex';

/**
 * Reviews: the hotel's settings (invitations on, their delay after check-out, publishing on arrival or after
 * moderation); one invitation per stay (its link's token kept only as a SHA-256, the address it went to, the facts the
 * review page shows, whether it was sent and used); at most one review per stay, with its ratings, staff's reply and
 * status; and the addresses that asked to hear nothing more of reviews from the hotel. Every bound the API checks is a
 * constraint too.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('review_settings', (t) => {
    t.uuid('hotel_id').primary().references('hotels.id').onDelete('CASCADE');
    t.boolean('invitations_enabled').notNullable().defaultTo(false);
    t.integer('invitation_delay_hours').notNullable().defaultTo(24);
    t.boolean('auto_publish').notNullable().defaultTo(false);
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw(`ALTER TABLE review_settings
    ADD CONSTRAINT review_settings_values_check CHECK (invitation_delay_hours BETWEEN 0 AND 720)`);
  // Hotels registered before this migration; new ones get theirs at registration.
  await knex.raw('INSERT INTO review_settings (hotel_id) SELECT id FROM hotels ON CONFLICT DO NOTHING');

  await knex.schema.createTable('review_invitations', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('hotel_id').notNullable().references('hotels.id').onDelete('CASCADE');
    t.uuid('booking_id').notNullable().unique();
    t.text('token_sha256').notNullable().unique();
    t.text('email').notNullable();
    t.text('guest_first_name').notNullable();
    t.date('stay_from').notNullable();
    t.date('stay_to').notNullable();
    t.timestamp('claimed_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('sent_at', { useTz: true });
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('used_at', { useTz: true });
    t.index(['hotel_id']);
  });
  await knex.raw(`ALTER TABLE review_invitations
    ADD CONSTRAINT review_invitations_booking_fk FOREIGN KEY (hotel_id, booking_id) REFERENCES bookings (hotel_id, id)
      ON DELETE CASCADE,
    ADD CONSTRAINT review_invitations_values_check CHECK (
      token_sha256 ~ '^[0-9a-f]{64}$' AND char_length(email) <= 254 AND char_length(guest_first_name) <= 100
      AND stay_to >= stay_from AND expires_at > claimed_at AND (used_at IS NULL OR sent_at IS NOT NULL))`);

  await knex.schema.createTable('reviews', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('hotel_id').notNullable().references('hotels.id').onDelete('CASCADE');
    t.uuid('booking_id').notNullable().unique();
    t.uuid('invitation_id').notNullable().unique().references('review_invitations.id').onDelete('CASCADE');
    t.smallint('overall').notNullable();
    t.smallint('cleanliness');
    t.smallint('staff');
    t.smallint('comfort');
    t.smallint('value');
    t.text('comment').notNullable().defaultTo('');
    t.text('guest_first_name').notNullable();
    t.date('stay_from').notNullable();
    t.date('stay_to').notNullable();
    t.text('status').notNullable();
    t.text('reply');
    t.timestamp('replied_at', { useTz: true });
    t.uuid('replied_by').references('users.id').onDelete('SET NULL');
    t.timestamp('published_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['hotel_id', 'created_at']);
  });
  await knex.raw(`ALTER TABLE reviews
    ADD CONSTRAINT reviews_booking_fk FOREIGN KEY (hotel_id, booking_id) REFERENCES bookings (hotel_id, id)
      ON DELETE CASCADE,
    ADD CONSTRAINT reviews_values_check CHECK (
      overall BETWEEN 1 AND 5 AND cleanliness BETWEEN 1 AND 5 AND staff BETWEEN 1 AND 5
      AND comfort BETWEEN 1 AND 5 AND value BETWEEN 1 AND 5
      AND char_length(comment) <= 2000 AND char_length(reply) <= 2000
      AND status IN ('pending', 'published', 'hidden')
      AND (reply IS NULL) = (replied_at IS NULL))`);

  await knex.schema.createTable('review_opt_outs', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('hotel_id').notNullable().references('hotels.id').onDelete('CASCADE');
    t.text('email').notNullable();
    t.text('source').notNullable();
    t.uuid('created_by').references('users.id').onDelete('SET NULL');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['hotel_id', 'email']);
  });
  await knex.raw(`ALTER TABLE review_opt_outs
    ADD CONSTRAINT review_opt_outs_values_check CHECK (
      char_length(email) <= 254 AND email = lower(email) AND source IN ('guest', 'staff'))`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('review_opt_outs');
  await knex.schema.dropTable('reviews');
  await knex.schema.dropTable('review_invitations');
  await knex.schema.dropTable('review_settings');
}
