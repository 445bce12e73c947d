import type { Knex } from 'knex';
import { pageOf, type Page, type PageRequest, type SortKey } from '../../platform/db/keyset';
import type { DbOrTrx } from '../../platform/db/knex';
import { atVersion } from '../../platform/db/version';
import type { ExpectedVersion } from '../../platform/http/concurrency';
import type { GuestRow } from './guests.types';

const GUEST_ORDER: SortKey[] = [
  { sql: 'last_name', type: 'text' },
  { sql: 'first_name', type: 'text' },
  { sql: 'id', type: 'uuid' },
];

/** Stored columns a write sets (never the id, tenant or timestamps). */
export type GuestColumns = Partial<Omit<GuestRow, 'id' | 'hotel_id' | 'created_at' | 'updated_at'>>;

export type DocumentColumns = Pick<
  GuestRow,
  | 'passport_series_encrypted'
  | 'passport_number_encrypted'
  | 'passport_issued_by_encrypted'
  | 'passport_issue_date_encrypted'
  | 'passport_key_id'
>;

/** A prepared search: every name word must match, or the phone digits must. */
export interface GuestSearch {
  /** Lower-cased words; each matches part of the name or of the e-mail. */
  words?: string[];
  /** Digits matched anywhere in the phone's normal form (in the typed digits of a phone without one). */
  phoneDigits?: string;
  blacklisted?: boolean;
}

const likeEscape = (value: string) => value.replace(/[\\%_]/g, '\\$&');

export const guestsRepository = {
  async list(db: DbOrTrx, hotelId: string, search: GuestSearch, page: PageRequest): Promise<Page<GuestRow>> {
    const query = db('guests').select('*').where({ hotel_id: hotelId });
    if (search.blacklisted !== undefined) query.where({ is_blacklisted: search.blacklisted });
    if (search.phoneDigits !== undefined) {
      const like = `%${likeEscape(search.phoneDigits)}%`;
      // A phone with no normal form is still found by the digits it was typed with.
      query.where((phone) =>
        phone
          .whereLike('phone_normalized', like)
          .orWhere((typed) =>
            typed
              .whereNull('phone_normalized')
              .whereRaw("regexp_replace(coalesce(phone, ''), '\\D', '', 'g') LIKE ?", [like]),
          ),
      );
    }
    for (const word of search.words ?? []) {
      const pattern = `%${likeEscape(word)}%`;
      query.where((inner) => inner.whereLike('search_name', pattern).orWhereLike('email', pattern));
    }
    return pageOf(db, query, GUEST_ORDER, page);
  },

  async find(db: DbOrTrx, hotelId: string, id: string): Promise<GuestRow | undefined> {
    return db<GuestRow>('guests').where({ hotel_id: hotelId, id }).first();
  },

  /** The guest, locked until the transaction ends (writes that read passport envelopes first). */
  async lock(trx: Knex.Transaction, hotelId: string, id: string): Promise<GuestRow | undefined> {
    return trx<GuestRow>('guests').where({ hotel_id: hotelId, id }).forUpdate().first();
  },

  async insert(db: DbOrTrx, hotelId: string, columns: GuestColumns): Promise<GuestRow> {
    const [row] = await db<GuestRow>('guests')
      .insert({ ...columns, hotel_id: hotelId })
      .returning('*');
    return row;
  },

  async update(db: DbOrTrx, hotelId: string, id: string, columns: GuestColumns): Promise<GuestRow | undefined> {
    const [row] = await db<GuestRow>('guests')
      .where({ hotel_id: hotelId, id })
      .update({ ...columns, updated_at: db.fn.now() })
      .returning('*');
    return row;
  },

  async delete(db: DbOrTrx, hotelId: string, id: string, expected?: ExpectedVersion): Promise<boolean> {
    return (await db('guests').where({ hotel_id: hotelId, id }).modify(atVersion(expected)).delete()) > 0;
  },

  /** Guests with this phone (normal form) or e-mail (lower-cased), most recently updated first. */
  async findByContact(
    db: DbOrTrx,
    hotelId: string,
    contact: { phoneNormalized?: string; email?: string },
  ): Promise<GuestRow[]> {
    if (!contact.phoneNormalized && !contact.email) return [];
    return db<GuestRow>('guests')
      .where({ hotel_id: hotelId })
      .where((inner) => {
        if (contact.phoneNormalized) inner.orWhere('phone_normalized', contact.phoneNormalized);
        if (contact.email) inner.orWhereRaw('lower(email) = ?', [contact.email]);
      })
      .orderBy([
        { column: 'updated_at', order: 'desc' },
        { column: 'id', order: 'asc' },
      ])
      .limit(50);
  },

  /** Blacklists (reason, now, by whom) or, with `null`, lifts the blacklisting and clears all three. */
  async setBlacklist(
    db: DbOrTrx,
    hotelId: string,
    id: string,
    blacklisting: { reason: string; by: string | null } | null,
    expected?: ExpectedVersion,
  ): Promise<GuestRow | undefined> {
    const [row] = await db<GuestRow>('guests')
      .where({ hotel_id: hotelId, id })
      .modify(atVersion(expected))
      .update({
        is_blacklisted: blacklisting !== null,
        blacklist_reason: blacklisting?.reason ?? null,
        blacklisted_at: blacklisting ? db.fn.now() : null,
        blacklisted_by: blacklisting?.by ?? null,
        updated_at: db.fn.now(),
      })
      .returning('*');
    return row;
  },

  /**
   * Key rotation, across hotels (or within `hotelId`): the next guests after `afterId` (id order) whose passport
   * envelopes use a key other than `currentKeyId`, locked until the transaction ends.
   */
  async lockWithOtherKey(
    trx: Knex.Transaction,
    currentKeyId: string,
    page: { afterId?: string; limit: number; hotelId?: string },
  ): Promise<GuestRow[]> {
    const query = trx<GuestRow>('guests')
      .whereNotNull('passport_key_id')
      .whereNot('passport_key_id', currentKeyId)
      .orderBy('id')
      .limit(page.limit)
      .forUpdate();
    if (page.afterId) query.where('id', '>', page.afterId);
    if (page.hotelId) query.where({ hotel_id: page.hotelId });
    return query;
  },

  /** Rewrites the passport envelopes only: re-encryption is not a change of the guest, `updated_at` stays. */
  async setDocuments(db: DbOrTrx, hotelId: string, id: string, columns: DocumentColumns): Promise<void> {
    await db('guests').where({ hotel_id: hotelId, id }).update(columns);
  },
};
