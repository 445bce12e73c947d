import type { Knex } from 'knex';

/** The hotel's retention setting: how many days a guest's personal data is kept after the last stay. */
export interface RetentionSettingsRow {
  hotel_id: string;
  guest_data_days: number;
  updated_at: Date;
}

export type RetentionSettingsChanges = Partial<Pick<RetentionSettingsRow, 'guest_data_days'>>;

/** What a place is told of the guests it erases (one hotel, a batch of guests). */
export interface ErasureTarget {
  hotelId: string;
  /** The outbox names its hotel by slug only. */
  hotelSlug: string;
  guestIds: string[];
  /** The bookings whose primary guest is a guest of the batch: a companion's stays are someone else's records. */
  bookingIds: string[];
  /** Lower-cased e-mails and phones as written (display and normalized), for the rows that keep a contact column. */
  emails: string[];
  phones: string[];
  /** The distinctive values naming a guest (whole name, phone forms, e-mail, passport series and number). */
  needles: string[];
  /** Those and the surname alone: looked for only in the rows linked to the guests' own bookings or profiles. */
  linkedNeedles: string[];
  /** What a tourist tax exemption's document number becomes (an envelope of the marker, the column being required). */
  erasedDocument: { envelope: string; keyId: string };
}

/** One place personal data lives: its eraser answers the rows it changed. */
export interface ErasurePlace {
  place: string;
  erase(trx: Knex.Transaction, target: ErasureTarget): Promise<number>;
}

/** What an erasure on request answers. */
export interface ErasureReport {
  guest_id: string;
  erased_at: Date;
  erased: { place: string; rows: number }[];
  kept: { what: string; why: string }[];
}
