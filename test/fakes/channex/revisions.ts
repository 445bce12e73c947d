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
  adults?: number;
  children?: number;
  /** The price of each night (decimal string), unless `days` gives them one by one. */
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
}

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
  return { room_type_id, rate_plan_id, adults: occupancy.adults, children: occupancy.children, rate };
}

function buildRoom(property: Property, spec: RevisionRoomSpec, arrival: string, departure: string): RevisionRoom {
  const ratePlan = property.ratePlans.get(spec.rate_plan_id);
  if (!property.roomTypes.has(spec.room_type_id) || ratePlan?.room_type_id !== spec.room_type_id) {
    throw validationError({ rooms: ['room_type_id and rate_plan_id: a rate plan of that room type'] });
  }
  const nights = Array.from({ length: daysBetween(arrival, departure) }, (_, index) => addDays(arrival, index));
  const rate = parseRate(spec.rate ?? DEFAULT_RATE);
  if (!rate) throw validationError({ rate: ['a decimal string'] });
  const days = spec.days ?? Object.fromEntries(nights.map((night) => [night, rate]));
  const adults = spec.adults ?? 2;
  const children = spec.children ?? 0;
  if (!Number.isInteger(adults) || adults < 1 || !Number.isInteger(children) || children < 0) {
    throw validationError({ rooms: ['adults 1 or more, children 0 or more'] });
  }
  return {
    room_type_id: spec.room_type_id,
    rate_plan_id: spec.rate_plan_id,
    checkin_date: arrival,
    checkout_date: departure,
    amount: Object.values(days)
      .reduce((sum, amount) => sum + Number(amount), 0)
      .toFixed(2),
    days,
    occupancy: { adults, children, infants: 0, ages: [] },
    guests: [],
  };
}
