import type { ChannelCredentials } from './channels.credentials';
import type { ChannelBookingRevisions } from './channels.revisions';

/**
 * The seam between this PMS and a channel manager: what the connection checks a mapping against, the two ARI pushes,
 * and the booking revisions intake takes in (`channels.revisions.ts`). Channex implements it (`channels.channex.ts`);
 * a second provider (TravelLine, Bnovo...) sits beside it.
 */
export interface ChannelRoomType {
  id: string;
  title: string;
}

export interface ChannelRatePlan {
  id: string;
  title: string;
  /** The room type the rate plan sells. */
  room_type_id: string | null;
}

export interface ChannelListing {
  roomTypes: ChannelRoomType[];
  ratePlans: ChannelRatePlan[];
}

/** Dates YYYY-MM-DD, both included. */
export interface DateRange {
  date_from: string;
  date_to: string;
}

export type AvailabilityValue = DateRange & { room_type_id: string; availability: number };

/** The values a rate plan has on a night: its price and restrictions, as the channel names them. */
export interface RateValues {
  rate: string;
  min_stay_arrival: number;
  min_stay_through: number;
  max_stay: number;
  closed_to_arrival: boolean;
  closed_to_departure: boolean;
  stop_sell: boolean;
}

export type RestrictionValue = DateRange & { rate_plan_id: string } & RateValues;

/** What a push came to: the warnings the channel returned for items it refused (under a 200). */
export interface PushResult {
  warnings: unknown[];
}

export interface ChannelManager extends ChannelBookingRevisions {
  listing(credentials: ChannelCredentials): Promise<ChannelListing>;
  pushAvailability(credentials: ChannelCredentials, values: AvailabilityValue[]): Promise<PushResult>;
  pushRestrictions(credentials: ChannelCredentials, values: RestrictionValue[]): Promise<PushResult>;
  /** Reconciliation's reads (`HeldAvailability`, `HeldRestrictions` below). */
  readAvailability(credentials: ChannelCredentials, range: DateRange): Promise<HeldAvailability>;
  readRestrictions(credentials: ChannelCredentials, range: DateRange): Promise<HeldRestrictions>;
}

/**
 * A channel manager's failure: `unauthorized` (a wrong key), `not_found` (an unknown property, or record), `refused`
 * (another refusal: final until staff change the connection), `rate_limited` (429; `retryAfterSeconds` when told),
 * `unavailable` (no answer, a timeout, a 5xx) or `unreadable` (an answer not of the provider's documented shape).
 */
export class ChannelError extends Error {
  constructor(
    readonly kind: 'unauthorized' | 'not_found' | 'refused' | 'rate_limited' | 'unavailable' | 'unreadable',
    message: string,
    readonly status?: number,
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = 'ChannelError';
  }

  get retryable(): boolean {
    return this.kind === 'rate_limited' || this.kind === 'unavailable';
  }
}

/**
 * What the channel holds over a range of dates, as the nightly reconciliation reads it back: rooms to sell per room
 * type, and per rate plan the values a push sends (`RateValues`; the rate as the channel spells it, e.g. "100.00"),
 * each by date. An id or a date the channel did not answer is absent.
 */
export type HeldAvailability = Record<string, Record<string, number>>;
export type HeldRestrictions = Record<string, Record<string, Partial<RateValues>>>;
/** The values of a rate plan's night, in the order a push and a read name them. */
export const RATE_FIELDS: readonly (keyof RateValues)[] = [
  'rate',
  'min_stay_arrival',
  'min_stay_through',
  'max_stay',
  'closed_to_arrival',
  'closed_to_departure',
  'stop_sell',
];
