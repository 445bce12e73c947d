import type { Knex } from 'knex';
import type { DbOrTrx } from '../../platform/db/knex';
import { pageOf, type PageRequest, type SortKey } from '../../platform/db/keyset';
import { settingsTable } from '../../platform/db/settings-table';
import { LATE_AFTER } from '../../platform/db/mail-claims';
import {
  REVIEW_ASPECTS,
  type Averages,
  type InvitationRow,
  type NewInvitation,
  type OptOutRow,
  type ReviewFilter,
  type ReviewRow,
  type ReviewSettingsRow,
} from './reviews.types';
import type { ErasureTarget } from '../../platform/personal-data';

export const settingsRepository = settingsTable<ReviewSettingsRow>('review_settings');

/**
 * Longer than one attempt can spend between taking an invitation on and recording how it went: the mailer's own
 * bound (the platform's mail claims), so a row still unsent after it belongs to an attempt that is gone, and the
 * stay's workflow is not held for a quarter of an hour by a crashed worker.
 */
const IN_DOUBT_AFTER = LATE_AFTER;

/** The rows of review_invitations: one per stay, from taking the e-mail on (`sent_at` set once sent). */
export const invitationsRepository = {
  async claim(db: DbOrTrx, invitation: NewInvitation): Promise<boolean> {
    const inserted = await db('review_invitations')
      .insert(invitation)
      .onConflict('booking_id')
      .ignore()
      .returning('id');
    return inserted.length > 0;
  },

  standing(db: DbOrTrx, hotelId: string, bookingId: string): Promise<{ sent: boolean; in_doubt: boolean } | undefined> {
    return db('review_invitations')
      .where({ hotel_id: hotelId, booking_id: bookingId })
      .first(
        db.raw('sent_at IS NOT NULL AS sent'),
        db.raw(`claimed_at < now() - interval '${IN_DOUBT_AFTER}' AS in_doubt`),
      );
  },

  /** When the booking's invitation was sent and used (its timeline); no token, no address. */
  timesOf: (
    db: DbOrTrx,
    hotelId: string,
    bookingId: string,
  ): Promise<Pick<InvitationRow, 'sent_at' | 'used_at' | 'expires_at'> | undefined> =>
    db('review_invitations')
      .where({ hotel_id: hotelId, booking_id: bookingId })
      .first('sent_at', 'used_at', 'expires_at'),

  release: (db: DbOrTrx, hotelId: string, bookingId: string) =>
    db('review_invitations').where({ hotel_id: hotelId, booking_id: bookingId }).whereNull('sent_at').delete(),

  markSent: (db: DbOrTrx, hotelId: string, bookingId: string) =>
    db('review_invitations')
      .where({ hotel_id: hotelId, booking_id: bookingId })
      .update({ sent_at: db.raw('coalesce(sent_at, now())') }),

  /**
   * The invitation a link's token belongs to, from its claim on: the token exists only in the e-mail, which the guest
   * may open before the worker has committed `sent_at`. The one lookup not scoped by a hotel: the token is what names
   * the hotel, for a guest who has no account.
   */
  async byTokenDigest(db: DbOrTrx, digest: string): Promise<(InvitationRow & { expired: boolean }) | undefined> {
    return db('review_invitations')
      .where({ token_sha256: digest })
      .first('*', db.raw('expires_at <= now() AS expired'));
  },

  /** Takes the link's one use; false when another request took it first (it waits for that one's transaction). */
  async use(trx: Knex.Transaction, hotelId: string, id: string): Promise<boolean> {
    const used = await trx('review_invitations')
      .where({ hotel_id: hotelId, id })
      .whereNull('used_at')
      .where('expires_at', '>', trx.fn.now())
      .update({ used_at: trx.fn.now() })
      .returning('id');
    return used.length > 0;
  },
};

const NEWEST_FIRST: readonly SortKey[] = [
  { sql: 'created_at', type: 'timestamptz', desc: true },
  { sql: 'id', type: 'uuid', desc: true },
];

/** Instants from the start of day `from` to the end of day `to` of the hotel's calendar. */
function withinDays(query: Knex.QueryBuilder, db: DbOrTrx, timeZone: string, from?: string, to?: string) {
  if (from) query.where('created_at', '>=', db.raw('(?::date)::timestamp AT TIME ZONE ?', [from, timeZone]));
  if (to) query.where('created_at', '<', db.raw('(?::date + 1)::timestamp AT TIME ZONE ?', [to, timeZone]));
  return query;
}

const averageColumns = (db: DbOrTrx) => [
  db.raw('count(*)::int AS count'),
  ...(['overall', ...REVIEW_ASPECTS] as const).map((column) =>
    db.raw('round(avg(??)::numeric, 2)::float8 AS ??', [column, column]),
  ),
];

type AverageRow = Averages & { count: number };

export const reviewsRepository = {
  async insert(
    trx: Knex.Transaction,
    row: Omit<ReviewRow, 'id' | 'created_at' | 'updated_at' | 'replied_at' | 'replied_by' | 'reply'>,
  ): Promise<ReviewRow> {
    const [created] = await trx('reviews').insert(row).returning('*');
    return created as ReviewRow;
  },

  async find(db: DbOrTrx, hotelId: string, id: string): Promise<ReviewRow | undefined> {
    return db('reviews').where({ hotel_id: hotelId, id }).first();
  },

  ofBooking: (db: DbOrTrx, hotelId: string, bookingId: string): Promise<ReviewRow | undefined> =>
    db('reviews').where({ hotel_id: hotelId, booking_id: bookingId }).first(),

  async update(db: DbOrTrx, hotelId: string, id: string, changes: Partial<ReviewRow>): Promise<ReviewRow | undefined> {
    const [row] = await db('reviews')
      .where({ hotel_id: hotelId, id })
      .update({ ...changes, updated_at: db.fn.now() })
      .returning('*');
    return row as ReviewRow | undefined;
  },

  page(db: DbOrTrx, hotelId: string, timeZone: string, filter: ReviewFilter, request: PageRequest) {
    const query = db('reviews').where({ hotel_id: hotelId }).select('*');
    if (filter.status) query.where('status', filter.status);
    if (filter.min_rating !== undefined) query.where('overall', '>=', filter.min_rating);
    if (filter.max_rating !== undefined) query.where('overall', '<=', filter.max_rating);
    if (filter.has_reply !== undefined)
      query.modify((q) => (filter.has_reply ? q.whereNotNull('reply') : q.whereNull('reply')));
    withinDays(query, db, timeZone, filter.from, filter.to);
    return pageOf<ReviewRow>(db, query, NEWEST_FIRST, request);
  },

  /** The averages of the reviews that came in on those days (hidden ones left out), overall and per month. */
  async summary(db: DbOrTrx, hotelId: string, timeZone: string, from: string, to: string) {
    const counted = () =>
      withinDays(db('reviews').where({ hotel_id: hotelId }).whereNot('status', 'hidden'), db, timeZone, from, to);
    const total = (await counted().first(averageColumns(db))) as AverageRow;
    const months = (await counted()
      .select(db.raw("to_char(created_at AT TIME ZONE ?, 'YYYY-MM') AS month", [timeZone]), ...averageColumns(db))
      .groupByRaw('1')
      .orderByRaw('1')) as (AverageRow & { month: string })[];
    return { total, months };
  },

  /** The opt-outs of the erased guests' e-mails (the address is all they hold). */
  async eraseOptOuts(trx: Knex.Transaction, target: ErasureTarget): Promise<number> {
    if (target.emails.length === 0) return 0;
    return trx('review_opt_outs').where({ hotel_id: target.hotelId }).whereIn('email', target.emails).delete();
  },
};

const OPT_OUTS_NEWEST_FIRST: readonly SortKey[] = NEWEST_FIRST;

export const optOutsRepository = {
  async has(db: DbOrTrx, hotelId: string, email: string): Promise<boolean> {
    return Boolean(await db('review_opt_outs').where({ hotel_id: hotelId, email }).first('id'));
  },

  /** The address's opt-out, made now or found from before (`created` tells which). */
  async add(
    db: DbOrTrx,
    row: Pick<OptOutRow, 'hotel_id' | 'email' | 'source' | 'created_by'>,
  ): Promise<{ optOut: OptOutRow; created: boolean }> {
    const [inserted] = await db('review_opt_outs')
      .insert(row)
      .onConflict(['hotel_id', 'email'])
      .ignore()
      .returning('*');
    if (inserted) return { optOut: inserted as OptOutRow, created: true };
    const existing = await db('review_opt_outs').where({ hotel_id: row.hotel_id, email: row.email }).first();
    return { optOut: existing as OptOutRow, created: false };
  },

  async remove(db: DbOrTrx, hotelId: string, id: string): Promise<boolean> {
    return (await db('review_opt_outs').where({ hotel_id: hotelId, id }).delete()) > 0;
  },

  page(db: DbOrTrx, hotelId: string, email: string | undefined, request: PageRequest) {
    const query = db('review_opt_outs').where({ hotel_id: hotelId }).select('*');
    if (email) query.where('email', email);
    return pageOf<OptOutRow>(db, query, OPT_OUTS_NEWEST_FIRST, request);
  },
};
