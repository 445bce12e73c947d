import type { Knex } from 'knex';
import type { DbOrTrx } from '../../platform/db/knex';
import type { ErasureTarget } from '../../platform/erasure-target';
import { scrubJson, scrubText } from '../../platform/personal-data-scrub';
import type { ChannelRevision } from '../channels';
import type { RevisionOutcome, RevisionRecord, StoredRevision, UnplacedReason } from './channel-intake.types';

const TABLE = 'channel_revisions';

/** What a revision's record is written from. */
export interface RecordInput {
  outcome: RevisionOutcome;
  bookingId?: string | null;
  /** The bookings of a revision of several rooms, by the room's place in it (the first is `bookingId`). */
  bookingIds?: string[];
  reason?: UnplacedReason | null;
  /** What refused it, in the refusal's words (for the staff). */
  detail?: string | null;
}

/** The revisions recorded, hotel first; only this file touches the intake's tables. */
export const revisionsRepository = {
  byRevisionId(db: DbOrTrx, hotelId: string, revisionId: string): Promise<StoredRevision | undefined> {
    return db(TABLE).where({ hotel_id: hotelId, revision_id: revisionId }).first();
  },

  find(db: DbOrTrx, hotelId: string, id: string, lock = false): Promise<StoredRevision | undefined> {
    const query = db(TABLE).where({ hotel_id: hotelId, id }).first();
    return lock ? query.forUpdate() : query;
  },

  /** The newest revision of the channel's booking that counted (applied, or stored for the staff, or their answer). */
  latest(db: DbOrTrx, hotelId: string, channelBookingId: string): Promise<RevisionRecord | undefined> {
    return db(TABLE)
      .select(
        '*',
        db.raw(`to_char(channel_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS channel_at_exact`),
      )
      .where({ hotel_id: hotelId, channel_booking_id: channelBookingId })
      .whereNot({ outcome: 'superseded' })
      .orderBy('channel_at', 'desc')
      .orderByRaw("CASE kind WHEN 'cancelled' THEN 2 WHEN 'modified' THEN 1 ELSE 0 END DESC")
      .orderBy('revision_id', 'desc')
      .first();
  },

  /** Our bookings of the channel's booking (one per room): those its latest revision with a booking made or changed. */
  async bookingsOf(db: DbOrTrx, hotelId: string, channelBookingId: string): Promise<string[]> {
    const row = await db(TABLE)
      .where({ hotel_id: hotelId, channel_booking_id: channelBookingId })
      .whereNotNull('booking_id')
      .orderBy('channel_at', 'desc')
      .first('booking_id', 'booking_ids');
    if (!row) return [];
    return (row.booking_ids as string[] | null) ?? [row.booking_id as string];
  },

  /** Serializes the revisions of one channel booking until the transaction ends. */
  async lockBooking(trx: Knex.Transaction, hotelId: string, channelBookingId: string): Promise<void> {
    await trx.raw('SELECT pg_advisory_xact_lock(hashtextextended(?, 0))', [
      `channel-intake:${hotelId}:${channelBookingId}`,
    ]);
  },

  /**
   * Records the revision once (false when it was recorded already); a record of it as unreadable (an earlier answer
   * of the channel) is taken over.
   */
  async insert(trx: DbOrTrx, hotelId: string, revision: ChannelRevision, input: RecordInput): Promise<boolean> {
    const row = {
      hotel_id: hotelId,
      revision_id: revision.id,
      channel_booking_id: revision.bookingId,
      kind: revision.kind,
      outcome: input.outcome,
      unplaced_reason: input.reason ?? null,
      unplaced_detail: input.detail?.slice(0, 500) ?? null,
      booking_id: input.bookingId ?? null,
      booking_ids: input.bookingIds ?? null,
      ota_name: revision.otaName,
      ota_reservation_code: revision.otaReservationCode,
      channel_at: revision.insertedAt,
      revision: JSON.stringify(revision),
    };
    const rows = await trx(TABLE)
      .insert(row)
      .onConflict(['hotel_id', 'revision_id'])
      .merge({ ...row, created_at: trx.fn.now(), updated_at: trx.fn.now() })
      .where(`${TABLE}.outcome`, 'unreadable')
      .returning('id');
    return rows.length > 0;
  },

  /**
   * A revision the channel answered that cannot be read, recorded once with the reader's words (its booking, kind and
   * time at the channel unknown); true when this call recorded it.
   */
  async insertUnreadable(db: DbOrTrx, hotelId: string, revisionId: string, detail: string): Promise<boolean> {
    const rows = await db(TABLE)
      .insert({
        hotel_id: hotelId,
        revision_id: revisionId,
        outcome: 'unreadable',
        unplaced_detail: detail.slice(0, 500),
        ota_name: '',
        ota_reservation_code: '',
        revision: '{}',
      })
      .onConflict(['hotel_id', 'revision_id'])
      .ignore()
      .returning('id');
    return rows.length > 0;
  },

  /** The revisions of the channel booking left for the staff, now that a newer one has counted. */
  async supersedeUnplaced(trx: DbOrTrx, hotelId: string, channelBookingId: string, except: string): Promise<void> {
    await trx(TABLE)
      .where({ hotel_id: hotelId, channel_booking_id: channelBookingId, outcome: 'unplaced' })
      .whereNot({ revision_id: except })
      .update({ outcome: 'superseded', updated_at: trx.fn.now() });
  },

  async settle(trx: DbOrTrx, hotelId: string, id: string, outcome: 'placed' | 'dismissed', bookingId?: string) {
    const [row] = await trx(TABLE)
      .where({ hotel_id: hotelId, id })
      .update({ outcome, booking_id: bookingId ?? null, updated_at: trx.fn.now() })
      .returning('*');
    return row as RevisionRecord;
  },

  unplaced(db: DbOrTrx, hotelId: string, { limit, after }: { limit: number; after?: Date }) {
    const query = db(TABLE).where({ hotel_id: hotelId, outcome: 'unplaced' }).orderBy('created_at').limit(limit);
    if (after) query.where('created_at', '>', after);
    return query as Promise<RevisionRecord[]>;
  },

  /** Every revision of the channel bookings that made or changed our booking (superseded ones too), in order. */
  ofBooking(db: DbOrTrx, hotelId: string, bookingId: string): Promise<RevisionRecord[]> {
    const channelBookings = db(TABLE)
      .where({ hotel_id: hotelId })
      .where((query) => query.where({ booking_id: bookingId }).orWhereRaw('? = ANY (booking_ids)', [bookingId]))
      .select('channel_booking_id');
    return db(TABLE)
      .where({ hotel_id: hotelId })
      .whereIn('channel_booking_id', channelBookings)
      .orderBy('channel_at')
      .orderBy('created_at');
  },

  /**
   * The guests' name and contacts scrubbed from every revision of the channel bookings that made or changed their
   * bookings (superseded and unplaced ones too, which name no booking of ours); answers the rows changed.
   */
  async eraseGuests(trx: Knex.Transaction, target: ErasureTarget): Promise<number> {
    if (target.bookingIds.length === 0) return 0;
    const channelBookings = trx(TABLE)
      .where({ hotel_id: target.hotelId })
      .where((query) =>
        query.whereIn('booking_id', target.bookingIds).orWhereRaw('booking_ids && ?::uuid[]', [target.bookingIds]),
      )
      .select('channel_booking_id');
    const rows: { id: string; revision: unknown; unplaced_detail: string | null }[] = await trx(TABLE)
      .where({ hotel_id: target.hotelId })
      .whereIn('channel_booking_id', channelBookings)
      .forUpdate()
      .select('id', 'revision', 'unplaced_detail');
    let changed = 0;
    for (const row of rows) {
      const revision = JSON.stringify(scrubJson(row.revision, target.linkedNeedles));
      const detail = row.unplaced_detail && scrubText(row.unplaced_detail, target.linkedNeedles);
      if (revision === JSON.stringify(row.revision) && detail === row.unplaced_detail) continue;
      await trx(TABLE).where({ hotel_id: target.hotelId, id: row.id }).update({ revision, unplaced_detail: detail });
      changed += 1;
    }
    return changed;
  },
};

/** Each hotel's webhook token, kept as its hash. */
export const hooksRepository = {
  async hotelOfToken(db: DbOrTrx, tokenHash: string): Promise<string | undefined> {
    const row = await db('channel_intake_hooks').where({ token_hash: tokenHash }).first('hotel_id');
    return row?.hotel_id as string | undefined;
  },

  /** The hotel's intake (locked until the transaction ends), if it was set up. */
  lock(trx: Knex.Transaction, hotelId: string): Promise<{ webhook_id: string | null } | undefined> {
    return trx('channel_intake_hooks').where({ hotel_id: hotelId }).forUpdate().first('webhook_id');
  },

  async replace(db: DbOrTrx, hotelId: string, tokenHash: string, webhookId: string): Promise<void> {
    await db('channel_intake_hooks')
      .insert({ hotel_id: hotelId, token_hash: tokenHash, webhook_id: webhookId, created_at: db.fn.now() })
      .onConflict('hotel_id')
      .merge();
  },

  async remove(db: DbOrTrx, hotelId: string): Promise<void> {
    await db('channel_intake_hooks').where({ hotel_id: hotelId }).delete();
  },

  async hotelSlug(db: DbOrTrx, hotelId: string): Promise<string> {
    return (await hooksRepository.hotel(db, hotelId)).slug;
  },

  hotel(db: DbOrTrx, hotelId: string): Promise<{ slug: string; currency: string }> {
    return db('hotels').where({ id: hotelId }).first('slug', 'currency');
  },
};
