import type { Knex } from 'knex';
import type { ChannelBookingRevisions, ChannelCredentials, RevisionKind } from '../channels';

/** What became of a revision: applied, older than one applied, waiting for the staff, placed or dismissed by them. */
export const REVISION_OUTCOMES = ['applied', 'superseded', 'unplaced', 'placed', 'dismissed'] as const;
export type RevisionOutcome = (typeof REVISION_OUTCOMES)[number];

/**
 * Why an OTA booking could not be placed (`checked_out`: a modification of a stay whose guest left; `other_currency`:
 * priced in another currency than the hotel's).
 */
export const UNPLACED_REASONS = [
  'no_free_room',
  'unmapped_room_type',
  'several_rooms',
  'refused',
  'checked_out',
  'other_currency',
] as const;
export type UnplacedReason = (typeof UNPLACED_REASONS)[number];

/** What every recorded revision holds. */
interface RecordedRevision {
  id: string;
  hotel_id: string;
  revision_id: string;
  unplaced_reason: UnplacedReason | null;
  unplaced_detail: string | null;
  booking_id: string | null;
  ota_name: string;
  ota_reservation_code: string;
  /** `channel_at` to the microsecond (ISO 8601, UTC), where it was read for ordering. */
  channel_at_exact?: string;
  revision: Record<string, unknown>;
  created_at: Date;
  updated_at: Date;
}

/** A revision read from the channel and recorded with what became of it: its booking, kind and time there known. */
export interface RevisionRecord extends RecordedRevision {
  channel_booking_id: string;
  kind: RevisionKind;
  outcome: RevisionOutcome;
  channel_at: Date;
}

/**
 * A revision the channel answered out of its documented shape: never listed, its booking, kind and time unknown
 * (`unplaced_detail` holds the reader's words, `revision` is empty) until a readable answer takes its record.
 */
export interface UnreadableRecord extends RecordedRevision {
  channel_booking_id: null;
  kind: null;
  outcome: 'unreadable';
  channel_at: null;
}

/** Any row of `channel_revisions`. */
export type StoredRevision = RevisionRecord | UnreadableRecord;

/** The mapping of a hotel's channel (its connection): channel room type → our category, rate plan → our tariff. */
export interface IntakeMapping {
  propertyId: string;
  categoryOf(roomTypeId: string): string | undefined;
  tariffOf(ratePlanId: string): string | undefined;
}

/** The seam's calls with their first argument, the connection's credentials, already given. */
type UnderConnection<T> = {
  [K in keyof T]: T[K] extends (credentials: ChannelCredentials, ...rest: infer A) => infer R
    ? (...rest: A) => R
    : never;
};

/**
 * What intake needs of a hotel's channel connection (the channels module provides it): its mapping, and the
 * channel's booking revisions (`ChannelBookingRevisions`) under the connection's key.
 */
export type IntakeChannel = UnderConnection<ChannelBookingRevisions> & { mapping: IntakeMapping };

/** What intake needs of the channels module: a hotel's connection, and the ARI push's signal. */
export interface IntakeChannels {
  channelOf(hotelId: string): Promise<IntakeChannel | undefined>;
  /** Every hotel connected to the channel manager (the minute sweep polls each). */
  connectedHotels(): Promise<{ id: string; slug: string }[]>;
  /**
   * What the channel sold is not what we hold (an unplaced booking, one dismissed): push the hotel's availability
   * again, in the caller's transaction (a booking written or changed reaches the push by itself).
   */
  pushAgain(trx: Knex.Transaction, hotel: { id: string; slug: string }): Promise<void>;
}
