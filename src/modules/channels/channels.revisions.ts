import type { ChannelCredentials } from './channels.credentials';

/**
 * The booking side of the `ChannelManager` seam: the revisions an OTA's bookings come as, in a shape no provider owns
 * (each adapter reads its own format into it), and what intake asks of the channel about them.
 */
export const REVISION_KINDS = ['new', 'modified', 'cancelled'] as const;
export type RevisionKind = (typeof REVISION_KINDS)[number];

/** One room of a revision: its room type and rate plan at the channel, its nights and their prices. */
export interface RevisionRoom {
  roomTypeId: string;
  ratePlanId: string | null;
  checkIn: string;
  checkOut: string;
  /** Per night (its date) the price, a decimal string in the revision's currency. */
  nights: Record<string, string>;
  /** The room's total, when the channel gives one. */
  amount: string | null;
  adults: number;
  children: number;
}

/**
 * A booking revision as read from the channel (never as a webhook claims it): each is the whole booking as the OTA
 * holds it at `insertedAt`, so the newest applied one is the booking.
 */
export interface ChannelRevision {
  id: string;
  bookingId: string;
  propertyId: string;
  kind: RevisionKind;
  otaName: string;
  otaReservationCode: string;
  /** Its time at the channel (ISO 8601) as the channel wrote it, to the microsecond: `channelMicros` orders by it. */
  insertedAt: string;
  currency: string | null;
  /** Who takes the guest's money: the OTA, or the hotel at the desk. */
  paymentCollect: 'ota' | 'property';
  customer: { name: string; surname: string; mail: string | null; phone: string | null };
  rooms: RevisionRoom[];
  notes: string | null;
}

/** A revision's time at the channel (ISO 8601, any precision) in microseconds since the epoch: its order there. */
export function channelMicros(insertedAt: string): bigint {
  const fraction = /\.(\d+)/.exec(insertedAt)?.[1] ?? '';
  const seconds = Math.floor(Date.parse(insertedAt) / 1000);
  return BigInt(seconds) * 1_000_000n + BigInt(fraction.padEnd(6, '0').slice(0, 6));
}

/**
 * A channel's booking revisions under a connection's credentials: the feed of those not acknowledged (of the
 * property, oldest first), one revision by id, its acknowledgement, and the booking webhook. Failures are
 * `ChannelError`s; an answer that cannot be read is one of kind `unreadable`.
 */
export interface ChannelBookingRevisions {
  /** The ids of the revisions not acknowledged yet, oldest first. */
  revisionFeed(credentials: ChannelCredentials): Promise<string[]>;
  /** The revision, or undefined when the channel has none of that id. */
  revision(credentials: ChannelCredentials, id: string): Promise<ChannelRevision | undefined>;
  ackRevision(credentials: ChannelCredentials, id: string): Promise<void>;
  /** Registers the booking webhook (calling `url` with `headers`); its id. */
  registerWebhook(credentials: ChannelCredentials, url: string, headers: Record<string, string>): Promise<string>;
  /** Removes a webhook registered before (gone already is fine). */
  removeWebhook(credentials: ChannelCredentials, id: string): Promise<void>;
}
