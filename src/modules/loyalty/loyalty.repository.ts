import type { Knex } from 'knex';
import type { DbOrTrx } from '../../platform/db/knex';
import { pageOf, type PageRequest } from '../../platform/db/keyset';
import { settingsTable } from '../../platform/db/settings-table';
import type { EarnedRow } from './loyalty.rules';
import type { EntryRow, LoyaltySettingsRow, NewEntry, TierInput, TierRow } from './loyalty.types';

export const settingsRepository = settingsTable<LoyaltySettingsRow>('loyalty_settings');

export const tiersRepository = {
  async list(db: DbOrTrx, hotelId: string): Promise<TierRow[]> {
    return db('loyalty_tiers').where({ hotel_id: hotelId }).orderBy('threshold');
  },

  /** The whole list at once: its bounds are the list's, not a row's. */
  async replace(trx: Knex.Transaction, hotelId: string, tiers: readonly TierInput[]): Promise<void> {
    await trx('loyalty_tiers').where({ hotel_id: hotelId }).delete();
    await trx('loyalty_tiers').insert(tiers.map((tier) => ({ ...tier, hotel_id: hotelId })));
  },
};

const ENTRY_KEYS = [
  { sql: 'created_at', type: 'timestamptz', desc: true },
  { sql: 'id', type: 'uuid', desc: true },
] as const;

export const entriesRepository = {
  /** Holds one guest's points still until the transaction ends: balance checks and FIFO expiry see no one else's. */
  async lockGuest(trx: Knex.Transaction, hotelId: string, guestId: string): Promise<void> {
    await trx.raw('SELECT pg_advisory_xact_lock(hashtextextended(?, 0))', [`loyalty:${hotelId}:${guestId}`]);
  },

  /** The stay's row, unless the stay already has one: answers whether this call wrote it. */
  async insertStay(db: DbOrTrx, entry: NewEntry): Promise<boolean> {
    const { rows } = await db.raw<{ rows: unknown[] }>(
      `INSERT INTO loyalty_entries (hotel_id, guest_id, points, reason, booking_id, tier, stay_nights, stay_spend,
                                    expires_at)
       VALUES (:hotel_id, :guest_id, :points, 'stay', :booking_id, :tier, :stay_nights, :stay_spend, :expires_at)
       ON CONFLICT (hotel_id, booking_id) WHERE reason = 'stay' DO NOTHING
       RETURNING id`,
      {
        hotel_id: entry.hotel_id,
        guest_id: entry.guest_id,
        points: entry.points,
        booking_id: entry.booking_id ?? null,
        tier: entry.tier ?? null,
        stay_nights: entry.stay_nights ?? null,
        stay_spend: entry.stay_spend ?? null,
        expires_at: entry.expires_at ?? null,
      },
    );
    return rows.length > 0;
  },

  async insert(db: DbOrTrx, entry: NewEntry): Promise<EntryRow> {
    const [row] = await db('loyalty_entries').insert(entry).returning('*');
    return row as EntryRow;
  },

  async find(db: DbOrTrx, hotelId: string, id: string): Promise<EntryRow | undefined> {
    return db('loyalty_entries').where({ hotel_id: hotelId, id }).first();
  },

  async reversalOf(db: DbOrTrx, hotelId: string, redemptionId: string): Promise<EntryRow | undefined> {
    return db('loyalty_entries').where({ hotel_id: hotelId, reversed_entry_id: redemptionId }).first();
  },

  /** The booking's latest `limit` entries, newest first (its timeline). */
  ofBooking: (db: DbOrTrx, hotelId: string, bookingId: string, limit: number): Promise<EntryRow[]> =>
    db('loyalty_entries')
      .where({ hotel_id: hotelId, booking_id: bookingId })
      .orderBy('created_at', 'desc')
      .limit(limit),

  async stayOf(db: DbOrTrx, hotelId: string, bookingId: string): Promise<EntryRow | undefined> {
    return db('loyalty_entries').where({ hotel_id: hotelId, booking_id: bookingId, reason: 'stay' }).first();
  },

  async balance(db: DbOrTrx, hotelId: string, guestId: string): Promise<number> {
    const row = await db('loyalty_entries')
      .where({ hotel_id: hotelId, guest_id: guestId })
      .sum({ balance: 'points' })
      .first();
    return Number(row?.balance ?? 0);
  },

  /** The nights and money of the guest's stays credited since `since`: what their tier is computed from. */
  async qualifying(db: DbOrTrx, hotelId: string, guestId: string, since: Date) {
    const row = await db('loyalty_entries')
      .where({ hotel_id: hotelId, guest_id: guestId, reason: 'stay' })
      .where('created_at', '>=', since)
      .select(db.raw('coalesce(sum(stay_nights), 0)::int AS nights'), db.raw('coalesce(sum(stay_spend), 0) AS spend'))
      .first();
    return { nights: Number(row?.nights ?? 0), spend: String(row?.spend ?? '0') };
  },

  /** Every row that earned points, and the points that have left the balance in all. */
  async earnedAndSpent(db: DbOrTrx, hotelId: string, guestId: string): Promise<{ earned: EarnedRow[]; spent: number }> {
    const earned = await db('loyalty_entries')
      .where({ hotel_id: hotelId, guest_id: guestId })
      .where('points', '>', 0)
      .select('id', 'points', 'expires_at', 'created_at');
    const row = await db('loyalty_entries')
      .where({ hotel_id: hotelId, guest_id: guestId })
      .where('points', '<', 0)
      .sum({ spent: 'points' })
      .first();
    return { earned: earned as EarnedRow[], spent: -Number(row?.spent ?? 0) };
  },

  /** Guests with earned rows past their expiry that no expiry row has closed yet. */
  async dueGuests(db: DbOrTrx, now: Date, limit: number): Promise<{ hotel_id: string; guest_id: string }[]> {
    const { rows } = await db.raw<{ rows: { hotel_id: string; guest_id: string }[] }>(
      `SELECT DISTINCT e.hotel_id, e.guest_id
         FROM loyalty_entries e
        WHERE e.expires_at <= :now
          AND NOT EXISTS (SELECT 1 FROM loyalty_entries x WHERE x.expired_entry_id = e.id)
        LIMIT :limit`,
      { now, limit },
    );
    return rows;
  },

  /** The guest's earned rows already closed by an expiry row. */
  async expiredIds(db: DbOrTrx, hotelId: string, guestId: string): Promise<Set<string>> {
    const rows = await db('loyalty_entries')
      .where({ hotel_id: hotelId, guest_id: guestId, reason: 'expiry' })
      .select('expired_entry_id');
    return new Set(rows.map((row: { expired_entry_id: string }) => row.expired_entry_id));
  },

  page(db: DbOrTrx, hotelId: string, guestId: string, request: PageRequest) {
    // An expiry that found nothing left of its row only marks it settled: no change to show.
    const query = db('loyalty_entries')
      .where({ hotel_id: hotelId, guest_id: guestId })
      .whereNot((settled) => settled.where({ reason: 'expiry', points: 0 }))
      .select('*');
    return pageOf<EntryRow>(db, query, ENTRY_KEYS, request);
  },
};
