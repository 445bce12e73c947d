import type { Knex } from 'knex';
import type { ChannelRevision, RevisionKind } from '../channels';

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

export interface RevisionRecord {
  id: string;
  hotel_id: string;
  revision_id: string;
  channel_booking_id: string;
  kind: RevisionKind;
  /** `unreadable`: the channel answered it out of its documented shape (never listed; its booking unknown). */
  outcome: RevisionOutcome | 'unreadable';
  unplaced_reason: UnplacedReason | null;
  unplaced_detail: string | null;
  booking_id: string | null;
  ota_name: string;
  ota_reservation_code: string;
  channel_at: Date;
  /** `channel_at` to the microsecond (ISO 8601, UTC), where it was read for ordering. */
  channel_at_exact?: string;
  revision: Record<string, unknown>;
  created_at: Date;
  updated_at: Date;
}

/** The mapping of a hotel's channel (its connection): channel room type → our category, rate plan → our tariff. */
export interface IntakeMapping {
  propertyId: string;
  categoryOf(roomTypeId: string): string | undefined;
  tariffOf(ratePlanId: string): string | undefined;
}

/** What intake needs of a hotel's channel connection (the channels module provides it). */
export interface IntakeChannel {
  mapping: IntakeMapping;
  /** The revisions not acknowledged yet (the feed), oldest first, as ids. */
  feed(): Promise<string[]>;
  /** The revision, or undefined when the channel has none of that id. */
  revision(id: string): Promise<ChannelRevision | undefined>;
  ack(id: string): Promise<void>;
  /** Registers the booking webhook at the channel (calling `url` with `headers`); its id. */
  registerWebhook(url: string, headers: Record<string, string>): Promise<string>;
  /** Removes a webhook registered before (gone already is fine). */
  removeWebhook(id: string): Promise<void>;
}

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
