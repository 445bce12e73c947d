import { randomUUID } from 'node:crypto';
import type Joi from 'joi';
import type { RouteDefinition } from '../../src/platform/http/route';
import { SEED_DATES } from '../../src/modules/pricing/pricing.fixtures';
import { day } from '../../src/platform/fixtures';
import { recordAddresses, type RecordAddresses, type RecordKind } from './tenant-fixture';

/**
 * How the cross-hotel sweep fills a hotel route: which record kind each path parameter and each id field of a body or
 * query names (declared by the modules, beside their seeds), and a minimal valid body or query where one cannot be
 * derived from the route's joi schema. A route the sweep cannot fill fails the gate, naming what to declare.
 */

/** Where the registry's modules say requests name their records (`fixtures.records` of each). */
export const { paths: PATH_PARAM_KINDS, fields: FIELD_KINDS } = recordAddresses();

export type Records = Record<RecordKind, string>;
export type Builder = (own: Records, n: number) => Record<string, unknown>;
/** A variant whose request with the caller's own ids cannot succeed (it collides with the caller's own seed). */
export interface Uncontrolled {
  build: Builder;
  uncontrolled: string;
}
export type Variant = Builder | Uncontrolled;

export interface RequestTemplate {
  /** A minimal valid request of the calling hotel, built from its own records; `n` makes each call unique. */
  base: Builder;
  /** Requests to carry one id field (its own value is then replaced by the other hotel's), when `base` is not it. */
  variants?: Record<string, Variant | Variant[]>;
  /** The request with the caller's own ids succeeds (2xx): checked once per variant, after the cross-hotel ones. */
  control?: boolean;
}

const stay = (n: number) => ({ check_in: day(90 + 3 * n), check_out: day(91 + 3 * n) });
const bookingGuest = (n: number) => ({ guest_last_name: 'Gate', guest_first_name: `Sweep ${n}` });

/** A browser's push keys: any P-256 point (the test VAPID public key is one) and a 16-byte secret. */
const GATE_PUSH_KEYS = {
  p256dh: 'BHQZq8r8VKyNt2Fyb3tFADVImRn8psYqSyye3-gDqyOyB7AX8VhP3UAt_K_ROwwZ5GTbzZW1H8mm40f3rX-L6rc',
  auth: 'AAAAAAAAAAAAAAAAAAAAAA',
};
const gatePushEndpoint = (n: number) => `https://push.example.test/gate-${n}`;

/** Bodies by `METHOD /path`: required for every body with an id field (and where derivation falls short). */
export const BODY_TEMPLATES: Record<string, RequestTemplate> = {
  'POST /api/hotels/:slug/push/subscribe': {
    base: (_r, n) => ({ endpoint: gatePushEndpoint(n), keys: GATE_PUSH_KEYS }),
  },
  'POST /api/hotels/:slug/push/unsubscribe': { base: (_r, n) => ({ endpoint: gatePushEndpoint(n) }) },
  'DELETE /api/hotels/:slug/push/unsubscribe': { base: (_r, n) => ({ endpoint: gatePushEndpoint(n) }) },
  'POST /api/hotels/:slug/users': {
    base: (_r, n) => ({
      name: `Gate member ${n}`,
      email: `gate-${n}-${randomUUID()}@example.test`,
      role: 'technician',
    }),
  },
  'POST /api/hotels/:slug/room-categories': {
    base: (r, n) => ({ name: `Gate category ${n}`, base_price: 100, photos: [r.upload] }),
    control: true,
  },
  'PATCH /api/hotels/:slug/room-categories/:id': { base: (r) => ({ photos: [r.upload] }), control: true },
  'POST /api/hotels/:slug/rooms': {
    base: (r, n) => ({ number: `g${n}-${randomUUID().slice(0, 6)}`, category_id: r.category, photos: [r.upload] }),
    control: true,
  },
  'PATCH /api/hotels/:slug/rooms/:id': {
    base: (r) => ({ category_id: r.category, photos: [r.upload] }),
    control: true,
  },
  'POST /api/hotels/:slug/rate-periods': {
    base: (r, n) => ({
      name: `Gate period ${n}`,
      date_from: day(2 * n, '2033-01-01'),
      date_to: day(2 * n, '2033-01-01'),
      prices: [{ category_id: r.category, price: 100 }],
    }),
    variants: {
      'prices[].category_id': [
        (r, n) => ({
          name: `Gate period ${n}`,
          date_from: day(2 * n, '2033-01-01'),
          date_to: day(2 * n, '2033-01-01'),
          prices: [{ category_id: r.category, price: 100 }],
        }),
        {
          // The dates of the other hotel's seeded period: its (category, dates) must not collide across hotels.
          build: (r, n) => ({
            name: `Gate period ${n}`,
            date_from: SEED_DATES.periodFrom,
            date_to: SEED_DATES.periodTo,
            prices: [{ category_id: r.category, price: 100 }],
          }),
          uncontrolled: "the caller's own seeded period holds these dates",
        },
      ],
    },
    control: true,
  },
  'PATCH /api/hotels/:slug/rate-periods/:id': {
    base: (r) => ({ prices: [{ category_id: r.category, price: 7100 }] }),
    control: true,
  },
  'POST /api/hotels/:slug/rate-overrides': {
    // The date of the other hotel's seeded override: (category, date) keys must not collide across hotels.
    base: (r) => ({ category_id: r.category, date: SEED_DATES.override, price: 100 }),
    control: true,
  },
  'POST /api/hotels/:slug/housekeeping': {
    base: (r) => ({ room_id: r.room, category: 'housekeeping', assignee_id: r.staff, photos: [r.upload] }),
    control: true,
  },
  'PATCH /api/hotels/:slug/housekeeping/:id': {
    base: (r) => ({ assignee_id: r.staff, photos: [r.upload], resolution_photos: [r.upload] }),
    control: true,
  },
  'PUT /api/hotels/:slug/housekeeping/:id/minibar': {
    base: (r) => ({ items: [{ item_id: r.minibarItem, quantity: 1 }] }),
    control: true,
  },
  'POST /api/hotels/:slug/checklist-templates': {
    base: (r, n) => ({
      name: `Gate checklist ${n}`,
      task_category: 'maintenance',
      room_category_id: r.category,
      items: ['Gate item'],
    }),
    control: true,
  },
  'PATCH /api/hotels/:slug/checklist-templates/:id': {
    base: (r) => ({ room_category_id: r.category }),
    control: true,
  },
  'POST /api/hotels/:slug/bookings': {
    base: (r, n) => ({ room_id: r.room, ...stay(n), ...bookingGuest(n), guest_id: r.guest, tariff_id: r.tariff }),
    variants: {
      category_id: (r, n) => ({ category_id: r.category, ...stay(n), ...bookingGuest(n) }),
      // With a price given the stay is not quoted, so the tariff is not read by the pricing service.
      tariff_id: [
        (r, n) => ({ room_id: r.room, ...stay(n), ...bookingGuest(n), tariff_id: r.tariff }),
        (r, n) => ({ room_id: r.room, ...stay(n), ...bookingGuest(n), tariff_id: r.tariff, price: 1000 }),
      ],
    },
    control: true,
  },
  'PATCH /api/hotels/:slug/bookings/:id': {
    base: (r) => ({ room_id: r.room, tariff_id: r.tariff }),
    variants: {
      room_id: (r) => ({ room_id: r.room }),
      tariff_id: [(r) => ({ tariff_id: r.tariff }), (r) => ({ tariff_id: r.tariff, price: 1000 })],
    },
    control: true,
  },
  'POST /api/hotels/:slug/bookings/:id/guests': { base: (r) => ({ guest_id: r.guest }), control: true },
  'POST /api/hotels/:slug/guests/:id/blacklist': { base: () => ({ is_blacklisted: true, reason: 'Gate reason' }) },
  // Shop ids are digits, which no probe value of the derivation is.
  'POST /api/hotels/:slug/payment-gateways': {
    base: (_r, n) => ({ provider: 'yookassa', shop_id: String(100 + n), secret_key: `gate-secret-${n}` }),
  },
  // Whole days far ahead, one per call: a day of the seed's object is never taken twice.
  'POST /api/hotels/:slug/rental-bookings': {
    base: (r, n) => ({
      rental_object_id: r.rentalObject,
      kind: 'daily',
      date_from: day(n + 1, '2034-01-01'),
      date_to: day(n + 1, '2034-01-01'),
      guest_name: `Gate renter ${n}`,
      guest_phone: '+79990000001',
      booking_id: r.booking,
    }),
    control: true,
  },
  'PATCH /api/hotels/:slug/rental-bookings/:id': {
    base: (r) => ({ rental_object_id: r.rentalObject, booking_id: r.booking }),
    control: true,
  },
  // The seed's room with no lock (its own lock's room is taken), and a MAC per call, none of the seed's.
  'POST /api/hotels/:slug/lockvendor/room-locks': {
    base: (r, n) => ({
      lock_mac: `0A0B0C0D${(n & 0xffff).toString(16).padStart(4, '0')}`,
      room_id: r.roomServiceRoom,
      build_no: 1,
      floor_no: 1,
    }),
    control: true,
  },
  // Any other change would sign A's hotel out of its lock account, which later calls of the sweep use.
  'PATCH /api/hotels/:slug/lockvendor/config': { base: () => ({ enabled: true }) },
  'POST /api/hotels/:slug/workstations/:id/ping': { base: () => ({ host: '192.0.2.10' }) },
  // Desk commands: the calling hotel's desk has the reference agent connected (the cross-hotel gate connects it).
  'POST /api/hotels/:slug/workstations/:id/test-device': { base: (r) => ({ device_id: r.device }), control: true },
  'POST /api/hotels/:slug/lockvendor/cards/:id/cancel': {
    base: (r) => ({ workstation_id: r.workstation }),
    control: true,
  },
  // Taken at A's desk, whose register gets the receipt (it waits there for an agent).
  'POST /api/hotels/:slug/bookings/:id/payments': {
    base: () => ({ amount: '10', method: 'cash' }),
    variants: { workstation_id: (r) => ({ amount: '10', method: 'cash', workstation_id: r.workstation }) },
    control: true,
  },
  // Recorded (202), then written by the desk's agent.
  'POST /api/hotels/:slug/lockvendor/issue-card': {
    base: (r) => ({ booking_id: r.booking, workstation_id: r.workstation, sectors: [1] }),
    variants: {
      room_ids: (r) => ({ booking_id: r.booking, workstation_id: r.workstation, sectors: [1], room_ids: [r.room] }),
    },
    control: true,
  },
  'PATCH /api/hotels/:slug/tv-integration/settings': {
    base: (r) => ({ agent_workstation_id: r.workstation }),
    control: true,
  },
  // The seed maps its room to a TV room, reached through its desk.
  'POST /api/hotels/:slug/tv-integration/test-checkin': { base: (r) => ({ room_id: r.room }), control: true },
  'POST /api/hotels/:slug/chat/rooms': {
    base: (r, n) => ({ type: 'group', name: `Gate chat ${n}`, member_ids: [r.staff] }),
    control: true,
  },
  'POST /api/hotels/:slug/chat/rooms/:id/members': { base: (r) => ({ user_ids: [r.staff] }), control: true },
  'POST /api/hotels/:slug/chat/rooms/:id/read': { base: (r) => ({ message_id: r.chatMessage }), control: true },
  'POST /api/hotels/:slug/chat/rooms/:id/messages': {
    base: () => ({ text: 'Gate' }),
    variants: {
      attachment_url: {
        build: (r) => ({ attachment_url: r.upload }),
        uncontrolled: 'the seeded upload is a room photo, and only files of the chat folder are attachments (400)',
      },
    },
  },
  'POST /api/hotels/:slug/chat/typing': { base: (r) => ({ room_id: r.chatRoom }), control: true },
  'PATCH /api/hotels/:slug/room-service/settings': { base: (r) => ({ room_ids: [r.roomServiceRoom] }), control: true },
  'POST /api/hotels/:slug/room-service/orders': {
    base: (r) => ({ booking_id: r.roomServiceStay, items: [{ item_id: r.menuItem, quantity: 1 }] }),
    control: true,
  },
  'POST /api/hotels/:slug/room-service/menu/items': {
    base: (r, n) => ({ category_id: r.menuCategory, name: `Gate dish ${n}`, price: 100, photo_url: r.upload }),
    control: true,
  },
  'PATCH /api/hotels/:slug/room-service/menu/items/:id': {
    base: (r) => ({ category_id: r.menuCategory, photo_url: r.upload }),
    control: true,
  },
  'POST /api/hotels/:slug/minibar/stock': {
    base: (r) => ({ item_id: r.minibarItem, kind: 'receipt', quantity: 1 }),
    control: true,
  },
};

/** Queries by `METHOD /path`, where `{}` plus one id field is not a valid request. */
export const QUERY_TEMPLATES: Record<string, RequestTemplate> = {
  'GET /api/hotels/:slug/availability': { base: () => ({ from: day(0), to: day(3) }), control: true },
  'GET /api/hotels/:slug/quote': {
    base: (r) => ({ category_id: r.category, check_in: day(20), check_out: day(22) }),
    variants: {
      room_id: (r) => ({ room_id: r.room, check_in: day(20), check_out: day(22) }),
      tariff_id: (r) => ({ category_id: r.category, check_in: day(20), check_out: day(22), tariff_id: r.tariff }),
    },
    control: true,
  },
  'GET /api/hotels/:slug/lockvendor/cards': { base: (r) => ({ booking_id: r.booking }), control: true },
  'GET /api/hotels/:slug/lockvendor/dll-info': { base: (r) => ({ workstation_id: r.workstation }), control: true },
  'GET /api/hotels/:slug/chat/search': { base: (r) => ({ q: 'Gate', room_id: r.chatRoom }), control: true },
  'GET /api/hotels/:slug/chat/rooms/:id/messages': {
    base: () => ({}),
    variants: {
      before_id: (r) => ({ before: new Date(Date.now() + 60_000).toISOString(), before_id: r.chatMessage }),
    },
    control: true,
  },
  'GET /api/hotels/:slug/notifications': {
    base: () => ({}),
    variants: {
      before_id: (r) => ({ before: new Date(Date.now() + 60_000).toISOString(), before_id: r.notification }),
    },
    control: true,
  },
};

// ---- the joi schemas, read through describe() --------------------------------------------------------------

interface Description {
  type?: string;
  flags?: { presence?: string; only?: boolean };
  allow?: unknown[];
  keys?: Record<string, Description>;
  items?: Description[];
  rules?: { name: string; args?: { limit?: number } }[];
  matches?: { schema?: Description; then?: Description; otherwise?: Description }[];
}

const describeSchema = (schema: Joi.Schema) => schema.describe() as Description;

/**
 * Fields named like ids that name no record of this service, by field name: a payment provider's shop id is the
 * provider's (hotels may even share a shop), a device's number in its fiscal driver is the driver's, and a lock cloud's
 * app and lock ids are TTLock's, and a TV server's address is the hotel's own system, so another hotel's value there
 * trespasses on nothing.
 */
const EXTERNAL_IDS: ReadonlySet<string> = new Set([
  'shop_id',
  'dto_device_id',
  'client_id',
  'lock_id',
  'server_url',
  // A browser's push service address: each hotel keeps its own subscription row for it.
  'endpoint',
]);

/** A field naming a record: a UUID, an `..._id` name, or a URL (such as an uploaded photo). */
function isReference(name: string, description: Description): boolean {
  if (EXTERNAL_IDS.has(name)) return false;
  const rules = (description.rules ?? []).map((rule) => rule.name);
  return (
    (description.type === 'string' && (rules.includes('guid') || rules.includes('uri'))) ||
    /(^id|_id|Id|_ids|Ids)$/.test(name)
  );
}

/**
 * Paths of the fields of an object schema that name records: `room_id`, `prices[].category_id`, `items[].item_id`,
 * `photos[]`.
 */
export function idFieldsOf(schema: Joi.Schema | undefined): string[] {
  if (!schema) return [];
  const found: string[] = [];
  const walk = (description: Description, path: string, name: string) => {
    // A list of ids (`room_ids`) names records by its items: `room_ids[]`.
    if (path && description.type !== 'array' && isReference(name, description)) {
      found.push(path);
      return;
    }
    for (const [key, child] of Object.entries(description.keys ?? {})) walk(child, path ? `${path}.${key}` : key, key);
    for (const item of description.items ?? []) walk(item, `${path}[]`, name);
    for (const match of description.matches ?? []) {
      for (const branch of [match.schema, match.then, match.otherwise]) if (branch) walk(branch, path, name);
    }
  };
  walk(describeSchema(schema), '', '');
  return [...new Set(found)];
}

export function fieldKind(
  route: RouteDefinition,
  field: string,
  fields: RecordAddresses['fields'] = FIELD_KINDS,
): RecordKind | undefined {
  const name = field.split('.').pop()!.replace(/\[\]$/, '');
  return fields[`${route.method.toUpperCase()} ${route.path} ${field}`] ?? fields[name];
}

/**
 * Sets `value` at `path`: `prices[].category_id` sets the first element's, `photos[]` makes the list `[value]`;
 * false if the path is not there.
 */
export function setPath(target: Record<string, unknown>, path: string, value: unknown): boolean {
  const segments = path.split('.');
  let node: Record<string, unknown> = target;
  for (const [index, segment] of segments.entries()) {
    const last = index === segments.length - 1;
    if (segment.endsWith('[]') && last) {
      node[segment.slice(0, -2)] = [value];
    } else if (segment.endsWith('[]')) {
      const list = node[segment.slice(0, -2)];
      if (!Array.isArray(list) || list.length === 0) return false;
      node = list[0] as Record<string, unknown>;
    } else if (last) {
      node[segment] = value;
    } else {
      const child = node[segment];
      if (typeof child !== 'object' || child === null) return false;
      node = child as Record<string, unknown>;
    }
  }
  return true;
}

const VALIDATION = { abortEarly: false, stripUnknown: true, convert: true } as const;

export function validationError(schema: Joi.Schema, value: unknown): string | undefined {
  return schema.validate(value, VALIDATION).error?.message;
}

function candidates(description: Description, n: number): unknown[] {
  const allowed = (description.allow ?? []).filter((value) => value !== null && value !== '');
  if (description.flags?.only) return allowed;
  switch (description.type) {
    case 'string':
      return [
        `Gate ${n}`,
        `gate-${n}-${randomUUID().slice(0, 8)}@example.test`,
        day(n, '2035-01-01'),
        '12:00',
        `gate-${n}.example.test`,
        ...allowed,
      ];
    case 'number':
      return [1, 10, 0];
    case 'boolean':
      return [true, false];
    case 'date':
      return [new Date(Date.parse('2035-01-01T12:00:00Z') + n * 3_600_000).toISOString()];
    case 'alternatives':
      return [100, '100', true, `Gate ${n}`];
    case 'array':
      return [[]];
    case 'object':
      return [{}];
    default:
      return [];
  }
}

/**
 * A minimal valid value of an object schema without id fields: its required keys, or (for a `min(1)` patch) the
 * first key that can be filled; undefined when no combination of probe values passes the schema.
 */
export function deriveMinimal(schema: Joi.ObjectSchema, n: number): Record<string, unknown> | undefined {
  const description = describeSchema(schema);
  const keys = Object.entries(description.keys ?? {});
  const valueFor = (key: string, child: Description) =>
    candidates(child, n).find((value) => !schema.extract(key).validate(value, VALIDATION).error);
  const body: Record<string, unknown> = {};
  for (const [key, child] of keys) {
    if (child.flags?.presence !== 'required') continue;
    const value = valueFor(key, child);
    if (value === undefined) return undefined;
    body[key] = value;
  }
  if (!validationError(schema, body)) return body;
  for (const [key, child] of keys) {
    if (key in body || child.flags?.presence === 'forbidden') continue;
    const value = valueFor(key, child);
    if (value !== undefined && !validationError(schema, { ...body, [key]: value })) return { ...body, [key]: value };
  }
  return undefined;
}
