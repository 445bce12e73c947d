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
  guestIds: string[];
  /** Every booking a guest of the batch stayed in (as its guest or one of its guests). */
  bookingIds: string[];
  /** The bookings whose guest columns are a guest of the batch (the primary guest, or the same phone or e-mail). */
  ownBookingIds: string[];
  /** Lower-cased e-mails and phones as written, for the places that keep contacts without a link. */
  emails: string[];
  phones: string[];
  /** Every value that names a guest of the batch (names, contacts, document numbers), found and overwritten in text. */
  needles: string[];
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
