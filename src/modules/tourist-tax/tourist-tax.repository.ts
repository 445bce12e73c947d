import type { DbOrTrx } from '../../platform/db/knex';
import { settingsTable } from '../../platform/db/settings-table';
import type { ExpectedVersion } from '../../platform/http/concurrency';
import type { VatRate } from '../../integrations/atol';
import type { ExemptionCategory, TaxSeason } from './tourist-tax.types';

export interface TouristTaxSettingsRow {
  hotel_id: string;
  enabled: boolean;
  rate: string;
  seasons: TaxSeason[];
  vat_rate: VatRate | null;
  updated_at: Date;
}

export interface ExemptionRow {
  hotel_id: string;
  booking_id: string;
  category: ExemptionCategory;
  description: string | null;
  document_kind: string;
  document_number_encrypted: string;
  document_key_id: string;
  document_date: string;
  valid_until: string | null;
  recorded_by: string | null;
  updated_at: Date;
}

export type ExemptionColumns = Omit<ExemptionRow, 'hotel_id' | 'booking_id' | 'updated_at'>;

/** A stay of the report: its nights (check-in to check-out), its price and its exemption, if any. */
export interface ReportedStay {
  id: string;
  check_in: string;
  check_out: string;
  price: string;
  category: ExemptionCategory | null;
  document_date: string | null;
  valid_until: string | null;
}

const DATE = (column: string) => `to_char(${column}, 'YYYY-MM-DD')`;
const EXEMPTION_COLUMNS = [
  'hotel_id',
  'booking_id',
  'category',
  'description',
  'document_kind',
  'document_number_encrypted',
  'document_key_id',
  `${DATE('document_date')} AS document_date`,
  `${DATE('valid_until')} AS valid_until`,
  'recorded_by',
  'updated_at',
];

const settingsRows = settingsTable<TouristTaxSettingsRow>('tourist_tax_settings');

export const settingsRepository = {
  ...settingsRows,
  /** Changes the row (at `expected`'s version when named: 412 otherwise); the seasons written as one JSON array. */
  change(db: DbOrTrx, hotelId: string, changes: Partial<TouristTaxSettingsRow>, expected?: ExpectedVersion) {
    const seasons = changes.seasons && { seasons: JSON.stringify(changes.seasons) as unknown as TaxSeason[] };
    return settingsRows.update(db, hotelId, { ...changes, ...seasons }, expected);
  },
};

export const exemptionsRepository = {
  async find(db: DbOrTrx, hotelId: string, bookingId: string): Promise<ExemptionRow | undefined> {
    return (await db('tourist_tax_exemptions')
      .select(db.raw(EXEMPTION_COLUMNS.join(', ')))
      .where({ hotel_id: hotelId, booking_id: bookingId })
      .first()) as ExemptionRow | undefined;
  },

  /** Records the booking's exemption, or replaces the one it had. */
  async put(db: DbOrTrx, hotelId: string, bookingId: string, columns: ExemptionColumns): Promise<void> {
    await db('tourist_tax_exemptions')
      .insert({ hotel_id: hotelId, booking_id: bookingId, ...columns })
      .onConflict(['hotel_id', 'booking_id'])
      .merge({ ...columns, updated_at: db.fn.now() });
  },

  /** Up to `limit` exemptions whose document is under another key than the current one, locked for the rewrite. */
  async lockUnderOtherKey(trx: DbOrTrx, selection: { currentKeyId: string; limit: number; hotelId?: string }) {
    const { currentKeyId, limit, hotelId } = selection;
    return (await trx('tourist_tax_exemptions')
      .select('hotel_id', 'booking_id', 'document_number_encrypted', 'document_key_id')
      .whereNot('document_key_id', currentKeyId)
      .modify((query) => hotelId && query.where({ hotel_id: hotelId }))
      .limit(limit)
      .forUpdate()) as Pick<
      ExemptionRow,
      'hotel_id' | 'booking_id' | 'document_number_encrypted' | 'document_key_id'
    >[];
  },

  /** Rewrites the document's envelope only: re-encryption is not a change of the exemption, `updated_at` stays. */
  async setDocument(db: DbOrTrx, hotelId: string, bookingId: string, envelope: string, keyId: string) {
    await db('tourist_tax_exemptions')
      .where({ hotel_id: hotelId, booking_id: bookingId })
      .update({ document_number_encrypted: envelope, document_key_id: keyId });
  },

  async remove(db: DbOrTrx, hotelId: string, bookingId: string): Promise<number> {
    return db('tourist_tax_exemptions').where({ hotel_id: hotelId, booking_id: bookingId }).delete();
  },

  /** The nightly stays with a night in `from`..`to` (exclusive) that were checked in, with their exemptions. */
  async staysOver(db: DbOrTrx, hotelId: string, from: string, to: string): Promise<ReportedStay[]> {
    return (
      (await db('bookings as b')
        .leftJoin('tourist_tax_exemptions as e', function joinExemption() {
          this.on('e.hotel_id', 'b.hotel_id').andOn('e.booking_id', 'b.id');
        })
        .select(
          'b.id',
          db.raw(`${DATE('b.check_in')} AS check_in`),
          db.raw(`${DATE('b.check_out')} AS check_out`),
          'b.price',
          'e.category',
          db.raw(`${DATE('e.document_date')} AS document_date`),
          db.raw(`${DATE('e.valid_until')} AS valid_until`),
        )
        .where('b.hotel_id', hotelId)
        .where('b.kind', 'nightly')
        .whereIn('b.status', ['checked_in', 'checked_out'])
        // A stay starts on its check-in day (its hotel's clock, a day either side in UTC): the index's bound.
        .whereRaw('b.start_at < ?::date + 2', [to])
        .where('b.check_in', '<', to)
        .where('b.check_out', '>', from)
        .orderBy('b.id')) as ReportedStay[]
    );
  },
};
