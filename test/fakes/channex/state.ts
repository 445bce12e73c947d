import { randomUUID } from 'node:crypto';

export interface RoomType {
  id: string;
  property_id: string;
  title: string;
  count_of_rooms: number;
  occ_adults: number;
  occ_children: number;
  occ_infants: number;
  default_occupancy: number;
}

export interface RatePlan {
  id: string;
  property_id: string;
  room_type_id: string;
  title: string;
  currency: string;
  sell_mode: 'per_room' | 'per_person';
  rate_mode: 'manual';
}

/** What one rate plan holds on one date (Channex's defaults until a value is pushed). */
export interface DayRestrictions {
  /** Decimal string in the plan's currency, e.g. "4500.00". */
  rate: string;
  min_stay_arrival: number;
  min_stay_through: number;
  max_stay: number;
  closed_to_arrival: boolean;
  closed_to_departure: boolean;
  stop_sell: boolean;
}

export type CallKind =
  | 'availability'
  | 'restrictions'
  | 'availability_read'
  | 'restrictions_read'
  | 'property'
  | 'room_types'
  | 'rate_plans'
  | 'booking_revisions_feed'
  | 'booking_revision'
  | 'booking_revision_ack'
  | 'webhooks';

export interface CallRecord {
  kind: CallKind;
  at: string;
  /** How many ARI values the call carried for this property (0 for other calls). */
  values: number;
  status: number;
  warnings: number;
}

export type RevisionStatus = 'new' | 'modified' | 'cancelled';

export interface RevisionRoom {
  room_type_id: string;
  rate_plan_id: string;
  checkin_date: string;
  checkout_date: string;
  amount: string;
  days: Record<string, string>;
  occupancy: { adults: number; children: number; infants: number; ages: number[] };
  guests: { name: string; surname: string }[];
}

export interface Customer {
  name: string;
  surname: string;
  mail: string | null;
  phone: string | null;
  country: string | null;
  language: string | null;
}

/** A booking revision's attributes as the API shows them. */
export interface BookingRevision {
  id: string;
  booking_id: string;
  property_id: string;
  status: RevisionStatus;
  ota_reservation_code: string;
  ota_name: string;
  unique_id: string;
  system_id: string;
  revision_id: string;
  arrival_date: string;
  departure_date: string;
  arrival_hour: string | null;
  amount: string;
  currency: string;
  payment_collect: 'property' | 'ota';
  payment_type: 'credit_card' | 'bank_transfer';
  ota_commission: string;
  customer: Customer;
  rooms: RevisionRoom[];
  services: unknown[];
  guarantee: null;
  notes: string | null;
  inserted_at: string;
  acknowledge_status: 'pending' | 'acknowledged';
}

export interface Webhook {
  id: string;
  property_id: string;
  callback_url: string;
  /** `*` or event names separated by `;`. */
  event_mask: string;
  is_active: boolean;
  send_data: boolean;
  headers: Record<string, string>;
}

export interface Delivery {
  revision_id: string;
  event: string;
  url: string;
  at: string;
  /** The receiver's HTTP status, or null when it could not be reached. */
  status: number | null;
  error?: string;
}

export interface Property {
  id: string;
  title: string;
  currency: string;
  timezone: string;
  roomTypes: Map<string, RoomType>;
  /** Room type id -> adults it takes, for those opened with `occ_adults` (a revision's adults are checked on it). */
  statedCapacity: Map<string, number>;
  ratePlans: Map<string, RatePlan>;
  availability: Map<string, Map<string, number>>;
  restrictions: Map<string, Map<string, DayRestrictions>>;
  calls: CallRecord[];
  /** Per ARI kind, the (fake clock) times of the calls counted against the limit in the last minute. */
  rateWindow: { availability: number[]; restrictions: number[] };
  rateLimitPerMinute: number;
  /** Forced faults by the calls they hit (a kind's own before `any`). */
  faults: Map<FaultTarget, Fault>;
  clockOffsetMs: number;
  /** How long a revision may stay unacknowledged before it raises an alarm (Channex: 30 minutes). */
  alarmAfterMs: number;
  /** Reads answer `stop_sell: true` on a day the rate plan's room type has no rooms (as Channex is said to). */
  soldOutStopSell: boolean;
  revisions: BookingRevision[];
  ackedAt: Map<string, number>;
  /** Revisions whose alarm has been raised (and announced as `non_acked_booking`). */
  alarmed: Set<string>;
  webhooks: Map<string, Webhook>;
  /** Revisions whose notifications are held back (a control option), in the order they were made. */
  held: string[];
  deliveries: Delivery[];
}

/** Which calls a forced fault hits: ARI writes and reads of a kind, feed polls, or any call. */
export type FaultTarget = 'availability' | 'restrictions' | 'feed' | 'any';
export const FAULT_TARGETS: FaultTarget[] = ['availability', 'restrictions', 'feed', 'any'];

export interface Fault {
  status: number;
  remaining: number;
  /** A forced 429's Retry-After (seconds), when it says one. */
  retryAfter?: number;
}

const TARGET_OF: Partial<Record<CallKind, FaultTarget>> = {
  availability: 'availability',
  availability_read: 'availability',
  restrictions: 'restrictions',
  restrictions_read: 'restrictions',
  booking_revisions_feed: 'feed',
};

/** An API key's own record: its ARI calls that reached none of its properties, and their limit window. */
export interface KeyLog {
  calls: CallRecord[];
  rateWindow: { availability: number[]; restrictions: number[] };
}

export const ALARM_AFTER_MS = 30 * 60_000;
export const RATE_LIMIT_PER_MINUTE = 10;

export class FakeChannexState {
  readonly properties = new Map<string, Property>();
  /**
   * API key -> the properties it opens (one key may serve several, as a Channex user's does, and several keys one
   * property, as while a connection rotates its key).
   */
  readonly keys = new Map<string, Set<string>>();
  readonly keyLogs = new Map<string, KeyLog>();
  /** Every revision of every property in the order the feed serves them (made order, unless a control moved one). */
  readonly feed: BookingRevision[] = [];

  property(id: string): Property | undefined {
    return this.properties.get(id);
  }

  /** The property with this id, made empty on first use (the control routes fill it). */
  open(id: string): Property {
    let property = this.properties.get(id);
    if (!property) {
      property = {
        id,
        title: 'Property',
        currency: 'RUB',
        timezone: 'Europe/Moscow',
        roomTypes: new Map(),
        statedCapacity: new Map(),
        ratePlans: new Map(),
        availability: new Map(),
        restrictions: new Map(),
        calls: [],
        rateWindow: { availability: [], restrictions: [] },
        rateLimitPerMinute: RATE_LIMIT_PER_MINUTE,
        faults: new Map(),
        clockOffsetMs: 0,
        alarmAfterMs: ALARM_AFTER_MS,
        soldOutStopSell: false,
        revisions: [],
        ackedAt: new Map(),
        alarmed: new Set(),
        webhooks: new Map(),
        held: [],
        deliveries: [],
      };
      this.properties.set(id, property);
    }
    return property;
  }

  /** The key opens the property too (the property's other keys keep it). */
  grant(apiKey: string, propertyId: string): void {
    const ids = this.keys.get(apiKey) ?? new Set<string>();
    ids.add(propertyId);
    this.keys.set(apiKey, ids);
  }

  /** The key opens nothing any more: its calls are 401. Answers whether it was known. */
  revoke(apiKey: string): boolean {
    this.keyLogs.delete(apiKey);
    return this.keys.delete(apiKey);
  }

  keyLog(apiKey: string): KeyLog {
    let log = this.keyLogs.get(apiKey);
    if (!log) {
      log = { calls: [], rateWindow: { availability: [], restrictions: [] } };
      this.keyLogs.set(apiKey, log);
    }
    return log;
  }

  now(property: Property): number {
    return Date.now() + property.clockOffsetMs;
  }

  /** The property's forced fault for a call of this kind (its kind's first, else `any`), used up by taking it. */
  takeFault(property: Property, kind: CallKind): Fault | undefined {
    const target = TARGET_OF[kind];
    const fault = [target && property.faults.get(target), property.faults.get('any')].find(
      (candidate) => candidate && candidate.remaining > 0,
    );
    if (!fault) return undefined;
    fault.remaining -= 1;
    return fault;
  }

  revision(property: Property, id: string): BookingRevision | undefined {
    return property.revisions.find((revision) => revision.id === id);
  }
}

export const newId = (): string => randomUUID();
