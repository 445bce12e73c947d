import { randomInt } from 'node:crypto';
import { parseRate } from './ari';
import { addDays, daysBetween, isIsoDate } from './dates';
import { validationError } from './errors';
import {
  newId,
  type BookingRevision,
  type Customer,
  type Property,
  type RevisionRoom,
  type RevisionStatus,
} from './state';

/** How the revision's notification goes out: once, twice (a duplicate), held back until released, or not at all. */
export type WebhookMode = 'once' | 'twice' | 'hold' | 'none';

export interface RevisionRoomSpec {
  room_type_id: string;
  rate_plan_id: string;
  /** The room's occupancy (2 adults by default; at most the room type's `occ_adults` when it was opened with one). */
  adults?: number;
  children?: number;
  infants?: number;
  /** The price of each night (decimal string), unless `days` gives them one by one (every night, a price each). */
  rate?: string;
  days?: Record<string, string>;
}

/** What the OTA sends: a new booking, or a modification or cancellation of `booking_id`'s latest revision. */
export interface RevisionSpec {
  status?: RevisionStatus;
  booking_id?: string;
  ota_name?: string;
  ota_reservation_code?: string;
  arrival_date?: string;
  departure_date?: string;
  rooms?: RevisionRoomSpec[];
  customer?: Partial<Customer>;
  payment_collect?: 'property' | 'ota';
  notes?: string;
  webhook?: WebhookMode;
  /**
   * Where the revision stands in the feed: after every earlier one (`in_order`, the default), or just before its
   * booking's previous revision (`before_previous`: the feed serves the booking's revisions out of order).
   */
  feed_order?: FeedOrder;
  /**
   * Served out of the documented shape: its status one Channex does not document (as a change at Channex would be),
   * so a PMS cannot read it. A test's control: the OTA's booking itself is an ordinary one.
   */
  off_spec?: boolean;
}

export type FeedOrder = 'in_order' | 'before_previous';

const OTA_CODES: Record<string, string> = {
  'Booking.com': 'BDC',
  Expedia: 'EXP',
  Ostrovok: 'OST',
  'Yandex Travel': 'YTR',
};
const DEFAULT_RATE = '5000.00';
const STATUSES: RevisionStatus[] = ['new', 'modified', 'cancelled'];

/** The revision the spec describes, in Channex's shape, on the property's clock. */
export function buildRevision(property: Property, spec: RevisionSpec, now: number): BookingRevision {
  const status = spec.status ?? 'new';
  if (!STATUSES.includes(status)) throw validationError({ status: ['must be new, modified or cancelled'] });
  const previous = latestOf(property, spec.booking_id);
  if (status === 'new' && previous) throw validationError({ booking_id: ['has revisions already: modify it'] });
  if (status !== 'new' && !previous) throw validationError({ booking_id: ['is required: no such booking'] });
  if (status === 'modified' && previous?.status === 'cancelled') {
    throw validationError({ status: ['the booking is cancelled: it cannot be modified'] });
  }
  const otaName = spec.ota_name ?? previous?.ota_name ?? 'Booking.com';
  const code = spec.ota_reservation_code ?? previous?.ota_reservation_code ?? String(randomInt(1e9, 1e10));
  const arrival = spec.arrival_date ?? previous?.arrival_date;
  const departure = spec.departure_date ?? previous?.departure_date;
  if (!isIsoDate(arrival) || !isIsoDate(departure) || departure <= arrival) {
    throw validationError({ arrival_date: ['arrival_date and departure_date: dates, departure after arrival'] });
  }
  const rooms = spec.rooms
    ? spec.rooms.map((room) => buildRoom(property, room, arrival, departure))
    : (previous?.rooms ?? []).map((room) => buildRoom(property, sameRoom(room), arrival, departure));
  if (rooms.length === 0) throw validationError({ rooms: ['at least one room'] });
  const amount = rooms.reduce((sum, room) => sum + Number(room.amount), 0).toFixed(2);
  const customer: Customer = {
    name: 'Ivan',
    surname: 'Petrov',
    mail: 'guest@example.com',
    phone: '+79001234567',
    country: 'RU',
    language: 'ru',
    ...previous?.customer,
    ...spec.customer,
  };
  const id = newId();
  return {
    id,
    booking_id: previous?.booking_id ?? newId(),
    property_id: property.id,
    status,
    ota_reservation_code: code,
    ota_name: otaName,
    unique_id: `${OTA_CODES[otaName] ?? 'OTA'}-${code}`,
    system_id: String(randomInt(1e11, 1e12)),
    revision_id: id,
    arrival_date: arrival,
    departure_date: departure,
    arrival_hour: null,
    amount,
    currency: property.currency,
    payment_collect: spec.payment_collect ?? previous?.payment_collect ?? 'property',
    payment_type: 'credit_card',
    ota_commission: '0.00',
    customer,
    rooms,
    services: [],
    guarantee: null,
    notes: spec.notes ?? previous?.notes ?? null,
    inserted_at: new Date(now).toISOString(),
    acknowledge_status: 'pending',
  };
}

function latestOf(property: Property, bookingId: string | undefined): BookingRevision | undefined {
  return property.revisions.findLast((revision) => revision.booking_id === bookingId);
}

/** A room of the previous revision, for new dates: its first night's price for every night. */
function sameRoom(room: RevisionRoom): RevisionRoomSpec {
  const { room_type_id, rate_plan_id, occupancy } = room;
  const rate = Object.values(room.days)[0];
  const { adults, children, infants } = occupancy;
  return { room_type_id, rate_plan_id, adults, children, infants, rate };
}

function buildRoom(property: Property, spec: RevisionRoomSpec, arrival: string, departure: string): RevisionRoom {
  const ratePlan = property.ratePlans.get(spec.rate_plan_id);
  if (!property.roomTypes.has(spec.room_type_id) || ratePlan?.room_type_id !== spec.room_type_id) {
    throw validationError({ rooms: ['room_type_id and rate_plan_id: a rate plan of that room type'] });
  }
  const nights = Array.from({ length: daysBetween(arrival, departure) }, (_, index) => addDays(arrival, index));
  const days = spec.days ? pricedNights(spec.days, nights) : evenly(spec.rate, nights);
  const occupancy = occupancyOf(property, spec);
  return {
    room_type_id: spec.room_type_id,
    rate_plan_id: spec.rate_plan_id,
    checkin_date: arrival,
    checkout_date: departure,
    amount: Object.values(days)
      .reduce((sum, amount) => sum + Number(amount), 0)
      .toFixed(2),
    days,
    occupancy,
    guests: [],
  };
}

/** The same price every night. */
function evenly(price: string | undefined, nights: string[]): Record<string, string> {
  const rate = parseRate(price ?? DEFAULT_RATE);
  if (!rate) throw validationError({ rate: ['a decimal string'] });
  return Object.fromEntries(nights.map((night) => [night, rate]));
}

/** A price for each night of the stay and for nothing else, each a decimal string (answered with two decimals). */
function pricedNights(days: unknown, nights: string[]): Record<string, string> {
  const given = typeof days === 'object' && days !== null && !Array.isArray(days) ? Object.entries(days) : [];
  const prices = given.map(([night, price]) => [night, parseRate(price)] as const);
  const sameNights = given.length === nights.length && prices.every(([night]) => nights.includes(night));
  if (!sameNights || prices.some(([, price]) => price === undefined)) {
    throw validationError({ days: ['a decimal price for each night of the stay, by date'] });
  }
  return Object.fromEntries(nights.map((night) => [night, prices.find(([date]) => date === night)![1]!]));
}

function occupancyOf(property: Property, spec: RevisionRoomSpec): RevisionRoom['occupancy'] {
  const { adults = 2, children = 0, infants = 0 } = spec;
  const counts = [adults, children, infants];
  if (!counts.every(Number.isInteger) || adults < 1 || children < 0 || infants < 0) {
    throw validationError({ rooms: ['adults 1 or more, children and infants 0 or more'] });
  }
  const capacity = property.statedCapacity.get(spec.room_type_id);
  if (capacity !== undefined && adults > capacity) {
    throw validationError({ rooms: [`adults: at most ${capacity}, the room type's capacity`] });
  }
  return { adults, children, infants, ages: [] };
}
