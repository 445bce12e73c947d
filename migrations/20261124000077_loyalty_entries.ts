import type { Knex } from 'knex';

/**
 * The points ledger: a guest's balance is the sum of their rows, nothing else. Earned rows (`stay`, positive
 * `adjustment`) carry when they expire; an `expiry` row names the earned row it closes (at most one each; 0 points when
 * nothing of it was left), and a
 * `stay` row is unique per booking, so a retried accrual or expiry run cannot write twice. A stay row also keeps the
 * nights and cost it qualified with: a guest's tier is computed from them. Rows go with their guest profile.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('loyalty_entries', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('hotel_id').notNullable().references('hotels.id').onDelete('CASCADE');
    t.uuid('guest_id').notNullable();
    t.integer('points').notNullable();
    t.text('reason').notNullable();
    t.uuid('booking_id');
    t.uuid('expired_entry_id');
    t.text('note');
    t.text('tier');
    t.integer('stay_nights');
    t.decimal('stay_spend', 14, 2);
    t.timestamp('expires_at', { useTz: true });
    t.uuid('created_by').references('users.id').onDelete('SET NULL');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['hotel_id', 'id']);
    t.index(['hotel_id', 'guest_id', 'created_at']);
  });
  await knex.raw(`ALTER TABLE loyalty_entries
    ADD CONSTRAINT loyalty_entries_guest_fk FOREIGN KEY (hotel_id, guest_id) REFERENCES guests (hotel_id, id)
      ON DELETE CASCADE,
    ADD CONSTRAINT loyalty_entries_booking_fk FOREIGN KEY (hotel_id, booking_id) REFERENCES bookings (hotel_id, id),
    ADD CONSTRAINT loyalty_entries_expired_fk FOREIGN KEY (hotel_id, expired_entry_id)
      REFERENCES loyalty_entries (hotel_id, id) ON DELETE CASCADE,
    ADD CONSTRAINT loyalty_entries_values_check CHECK (
      abs(points) <= 100000000
      AND char_length(note) <= 500
      AND CASE reason
        WHEN 'stay' THEN points >= 0 AND booking_id IS NOT NULL AND stay_nights >= 0 AND stay_spend >= 0
        WHEN 'redemption' THEN points < 0 AND booking_id IS NOT NULL
        WHEN 'expiry' THEN points <= 0 AND expired_entry_id IS NOT NULL
        WHEN 'adjustment' THEN points <> 0 AND note IS NOT NULL
        ELSE false END
      AND (reason = 'stay') = (stay_nights IS NOT NULL)
      AND (reason = 'expiry') = (expired_entry_id IS NOT NULL)
      AND (expires_at IS NULL OR (points > 0 AND reason IN ('stay', 'adjustment'))))`);
  await knex.raw(
    "CREATE UNIQUE INDEX loyalty_entries_stay_unique ON loyalty_entries (hotel_id, booking_id) WHERE reason = 'stay'",
  );
  await knex.raw('CREATE UNIQUE INDEX loyalty_entries_expiry_unique ON loyalty_entries (expired_entry_id)');
  await knex.raw('CREATE INDEX loyalty_entries_due_index ON loyalty_entries (expires_at) WHERE expires_at IS NOT NULL');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('loyalty_entries');
}
