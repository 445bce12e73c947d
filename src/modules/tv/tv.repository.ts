import { databaseError } from '../../platform/db/base-model';
import { pageOf, type Page, type PageRequest, type SortKey } from '../../platform/db/keyset';
import type { DbOrTrx } from '../../platform/db/knex';
import { settingsTable } from '../../platform/db/settings-table';
import type { NewPushLogEntry, PushLogEntry, TvSettingsRow } from './tv.types';

export const settingsRepository = {
  ...settingsTable<TvSettingsRow>('tv_settings'),

  /** The hotel holding this issued token (vendor tokens are keyed by their hotel: never found this way). */
  async byIssuedTokenHash(db: DbOrTrx, hash: string): Promise<TvSettingsRow | undefined> {
    return db<TvSettingsRow>('tv_settings').where({ tl_token_hash: hash, tl_token_kind: 'issued' }).first();
  },
};

const NEWEST_FIRST: SortKey[] = [
  { sql: 'created_at', type: 'timestamptz', desc: true },
  { sql: 'id', type: 'uuid', desc: true },
];

/** How long push attempts are kept: long enough to answer "did the TV get last week's check-in?". */
export const LOG_RETENTION_DAYS = 30;

export const pushLogRepository = {
  /** Undefined when the hotel is gone (deleted while its bookings' pushes were pending): nobody is left to read it. */
  async add(db: DbOrTrx, entry: NewPushLogEntry): Promise<PushLogEntry | undefined> {
    try {
      const [row] = await db('tv_push_log').insert(entry).returning('*');
      return row as PushLogEntry;
    } catch (error) {
      if (databaseError(error).constraint === 'tv_push_log_hotel_id_foreign') return undefined;
      throw error;
    }
  },

  async list(db: DbOrTrx, hotelId: string, page: PageRequest): Promise<Page<PushLogEntry>> {
    return pageOf(db, db('tv_push_log').select('*').where({ hotel_id: hotelId }), NEWEST_FIRST, page);
  },

  /** A booking's latest `limit` attempts, newest first (the booking's timeline). */
  ofBooking(db: DbOrTrx, hotelId: string, bookingId: string, limit: number): Promise<PushLogEntry[]> {
    return db('tv_push_log')
      .where({ hotel_id: hotelId, booking_id: bookingId })
      .orderBy('created_at', 'desc')
      .limit(limit);
  },

  async purgeOld(db: DbOrTrx): Promise<number> {
    return db('tv_push_log')
      .where('created_at', '<', db.raw(`now() - make_interval(days => ?)`, [LOG_RETENTION_DAYS]))
      .delete();
  },
};
