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
  ratePlans: Map<string, RatePlan>;
  availability: Map<string, Map<string, number>>;
  restrictions: Map<string, Map<string, DayRestrictions>>;
  calls: CallRecord[];
  /** Per ARI kind, the (fake clock) times of the calls counted against the limit in the last minute. */
  rateWindow: { availability: number[]; restrictions: number[] };
  rateLimitPerMinute: number;
  fault?: { status: number; remaining: number };
  clockOffsetMs: number;
  /** How long a revision may stay unacknowledged before it raises an alarm (Channex: 30 minutes). */
  alarmAfterMs: number;
  revisions: BookingRevision[];
  ackedAt: Map<string, number>;
  webhooks: Map<string, Webhook>;
  /** Revisions whose notifications are held back (a control option), in the order they were made. */
  held: string[];
  deliveries: Delivery[];
}

export const ALARM_AFTER_MS = 30 * 60_000;
export const RATE_LIMIT_PER_MINUTE = 10;

export class FakeChannexState {
  readonly properties = new Map<string, Property>();
  /** API key -> the properties it opens (one key may serve several, as a Channex user's does). */
  readonly keys = new Map<string, Set<string>>();

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
        ratePlans: new Map(),
        availability: new Map(),
        restrictions: new Map(),
        calls: [],
        rateWindow: { availability: [], restrictions: [] },
        rateLimitPerMinute: RATE_LIMIT_PER_MINUTE,
        clockOffsetMs: 0,
        alarmAfterMs: ALARM_AFTER_MS,
        revisions: [],
        ackedAt: new Map(),
        webhooks: new Map(),
        held: [],
        deliveries: [],
      };
      this.properties.set(id, property);
    }
    return property;
  }

  grant(apiKey: string, propertyId: string): void {
    for (const [key, ids] of this.keys) if (key !== apiKey) ids.delete(propertyId);
    const ids = this.keys.get(apiKey) ?? new Set<string>();
    ids.add(propertyId);
    this.keys.set(apiKey, ids);
  }

  now(property: Property): number {
    return Date.now() + property.clockOffsetMs;
  }

  /** The property's forced fault for its next API call, used up by taking it. */
  takeFault(property: Property): number | undefined {
    if (!property.fault || property.fault.remaining <= 0) return undefined;
    property.fault.remaining -= 1;
    return property.fault.status;
  }

  revision(property: Property, id: string): BookingRevision | undefined {
    return property.revisions.find((revision) => revision.id === id);
  }
}

export const newId = (): string => randomUUID();
