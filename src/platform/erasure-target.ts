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
