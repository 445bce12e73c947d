import type { Knex } from 'knex';

const CHECK_WITHOUT_REVERSALS = `CHECK (
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
  AND (expires_at IS NULL OR (points > 0 AND reason IN ('stay', 'adjustment'))))`;

const CHECK_WITH_REVERSALS = `CHECK (
  abs(points) <= 100000000
  AND char_length(note) <= 500
  AND CASE reason
    WHEN 'stay' THEN points >= 0 AND booking_id IS NOT NULL AND stay_nights >= 0 AND stay_spend >= 0
    WHEN 'redemption' THEN points <> 0 AND booking_id IS NOT NULL AND (points < 0) = (reversed_entry_id IS NULL)
    WHEN 'expiry' THEN points <= 0 AND expired_entry_id IS NOT NULL
    WHEN 'adjustment' THEN points <> 0 AND note IS NOT NULL
    ELSE false END
  AND (reason = 'stay') = (stay_nights IS NOT NULL)
  AND (reason = 'expiry') = (expired_entry_id IS NOT NULL)
  AND (reason = 'redemption' OR reversed_entry_id IS NULL)
  AND (expires_at IS NULL OR points > 0))`;

/**
 * A redemption taken back (its booking cancelled, or the desk took off the wrong amount): a positive `redemption` row
 * naming the row it reverses, at most one per redemption. The points come back as newly earned ones (they expire
 * again after the programme's period), so FIFO treats them like any other earned row.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('loyalty_entries', (t) => {
    t.uuid('reversed_entry_id');
  });
  await knex.raw(`ALTER TABLE loyalty_entries
    DROP CONSTRAINT loyalty_entries_values_check,
    ADD CONSTRAINT loyalty_entries_reversed_fk FOREIGN KEY (hotel_id, reversed_entry_id)
      REFERENCES loyalty_entries (hotel_id, id) ON DELETE CASCADE,
    ADD CONSTRAINT loyalty_entries_values_check ${CHECK_WITH_REVERSALS}`);
  await knex.raw(
    'CREATE UNIQUE INDEX loyalty_entries_reversal_unique ON loyalty_entries (reversed_entry_id) ' +
      'WHERE reversed_entry_id IS NOT NULL',
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex('loyalty_entries').whereNotNull('reversed_entry_id').delete();
  await knex.raw(`ALTER TABLE loyalty_entries
    DROP CONSTRAINT loyalty_entries_values_check,
    DROP CONSTRAINT loyalty_entries_reversed_fk,
    ADD CONSTRAINT loyalty_entries_values_check ${CHECK_WITHOUT_REVERSALS}`);
  await knex.schema.alterTable('loyalty_entries', (t) => {
    t.dropColumn('reversed_entry_id');
  });
}
