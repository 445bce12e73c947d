import Joi from 'joi';
import { pages, type ChannexCall } from './channels.channex-call';
import { ChannelError } from './channels.manager';
import type { ChannelBookingRevisions, ChannelRevision, RevisionRoom } from './channels.revisions';

const date = Joi.string().isoDate();
/** A guest's field cut to the length the bookings route takes (the OTA's value is the guest's, never refused). */
const field = (max: number) => Joi.string().trim().max(max).truncate().allow('', null);
const amount = Joi.alternatives(Joi.string(), Joi.number());

const roomSchema = Joi.object({
  room_type_id: Joi.string().required(),
  rate_plan_id: Joi.string().allow(null),
  checkin_date: date.required(),
  checkout_date: date.required(),
  days: Joi.object().pattern(date, amount).default({}),
  amount: amount.allow(null),
  occupancy: Joi.object({
    adults: Joi.number().integer().min(0).default(1),
    children: Joi.number().integer().min(0).default(0),
  })
    .unknown()
    .default({ adults: 1, children: 0 }),
}).unknown();

/** A revision's attributes as Channex documents them (what intake reads of them; the rest is not read). */
const attributesSchema = Joi.object({
  id: Joi.string(),
  booking_id: Joi.string().required(),
  property_id: Joi.string().required(),
  status: Joi.string().valid('new', 'modified', 'cancelled').required(),
  ota_name: Joi.string().allow('').default(''),
  ota_reservation_code: Joi.string().allow('').default(''),
  // Kept as written (Joi's isoDate would rewrite it to milliseconds): Channex gives microseconds, which order a
  // booking's revisions made within one millisecond.
  inserted_at: Joi.string()
    .pattern(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:?\d{2})$/)
    .custom((value: string, helpers) => (Number.isNaN(Date.parse(value)) ? helpers.error('any.invalid') : value))
    .required(),
  currency: Joi.string().allow(null),
  payment_collect: Joi.string().valid('ota', 'property').default('property'),
  notes: field(4000),
  customer: Joi.object({
    name: field(100),
    surname: field(100),
    mail: field(254),
    phone: field(30),
  })
    .unknown()
    .default({}),
  rooms: Joi.array().items(roomSchema).default([]),
}).unknown();

interface Attributes {
  id?: string;
  booking_id: string;
  property_id: string;
  status: ChannelRevision['kind'];
  ota_name: string;
  ota_reservation_code: string;
  inserted_at: string;
  currency?: string | null;
  payment_collect: 'ota' | 'property';
  notes?: string | null;
  customer: { name?: string | null; surname?: string | null; mail?: string | null; phone?: string | null };
  rooms: {
    room_type_id: string;
    rate_plan_id?: string | null;
    checkin_date: string;
    checkout_date: string;
    days: Record<string, string | number>;
    amount?: string | number | null;
    occupancy: { adults: number; children: number };
  }[];
}

const dayOf = (value: string) => value.slice(0, 10);

/** Per night (its date) its price, as the channel priced it. */
function nightsOf(room: Attributes['rooms'][number]): Record<string, string> {
  const nights: Record<string, string> = {};
  for (const [day, price] of Object.entries(room.days)) nights[dayOf(day)] = String(price);
  return nights;
}

function roomOf(room: Attributes['rooms'][number]): RevisionRoom {
  return {
    roomTypeId: room.room_type_id,
    ratePlanId: room.rate_plan_id ?? null,
    checkIn: dayOf(room.checkin_date),
    checkOut: dayOf(room.checkout_date),
    nights: nightsOf(room),
    amount: room.amount === undefined || room.amount === null ? null : String(room.amount),
    adults: room.occupancy.adults,
    children: room.occupancy.children,
  };
}

/**
 * A revision from Channex's answer (`{ data: { id, type: 'booking_revision', attributes } }`); an answer not of that
 * shape is `unreadable` (the channel's fault: 502 `channel_answer`), never applied in part.
 */
export function parseRevision(body: unknown): ChannelRevision {
  const data = (body as { data?: { id?: unknown; attributes?: unknown } } | undefined)?.data;
  const { error, value } = attributesSchema.validate(data?.attributes ?? {}, { convert: true });
  if (error || typeof data?.id !== 'string')
    throw new ChannelError(
      'unreadable',
      `Channex answered a booking revision intake cannot read: ${error?.message ?? 'no id'}`,
    );
  const attributes = value as Attributes;
  return {
    id: data.id,
    bookingId: attributes.booking_id,
    propertyId: attributes.property_id,
    kind: attributes.status,
    otaName: attributes.ota_name,
    otaReservationCode: attributes.ota_reservation_code,
    insertedAt: attributes.inserted_at,
    currency: attributes.currency ?? null,
    paymentCollect: attributes.payment_collect,
    customer: {
      name: attributes.customer.name ?? '',
      surname: attributes.customer.surname ?? '',
      mail: attributes.customer.mail || null,
      phone: attributes.customer.phone || null,
    },
    rooms: attributes.rooms.map(roomOf),
    notes: attributes.notes || null,
  };
}

/** The ids of the feed's answer (`{ data: [{ id, ... }] }`). */
export function parseFeed(body: unknown): string[] {
  const data = (body as { data?: unknown } | undefined)?.data;
  if (!Array.isArray(data))
    throw new ChannelError('unreadable', 'Channex answered a booking revision feed intake cannot read');
  return data.flatMap((item: { id?: unknown }) => (typeof item?.id === 'string' ? [item.id] : []));
}

/** Revisions read from the feed per page, and the most pages a round reads (the rest wait for the next round). */
const FEED_LIMIT = 100;
const FEED_PAGES = 10;

/** Gone already (a 404) is undefined. */
async function unlessMissing<T>(call: () => Promise<T>): Promise<T | undefined> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof ChannelError && error.kind === 'not_found') return undefined;
    throw error;
  }
}

/**
 * The booking side of the Channex adapter: the feed of revisions not acknowledged (of the connection's property,
 * oldest first), one revision by id, its acknowledgement; and the booking webhook.
 */
export function channexRevisions(call: ChannexCall): ChannelBookingRevisions {
  const revisionPath = (id: string) => `/booking_revisions/${encodeURIComponent(id)}`;
  return {
    async revisionFeed(credentials) {
      const feed = { limit: FEED_LIMIT, most: FEED_PAGES };
      return [...new Set(await pages(call, credentials, '/booking_revisions/feed', feed, parseFeed))];
    },
    async revision(credentials, id) {
      const answer = await unlessMissing(() => call(credentials, 'GET', revisionPath(id)));
      return answer === undefined ? undefined : parseRevision(answer);
    },
    async ackRevision(credentials, id) {
      await call(credentials, 'POST', `${revisionPath(id)}/ack`);
    },
    async registerWebhook(credentials, url, headers) {
      const webhook = {
        property_id: credentials.propertyId,
        callback_url: url,
        event_mask: 'booking',
        headers,
        is_active: true,
        send_data: false,
      };
      const answer = (await call(credentials, 'POST', '/webhooks', { webhook })) as { data?: { id?: unknown } };
      if (typeof answer.data?.id !== 'string')
        throw new ChannelError('unreadable', 'Channex answered a webhook without its id');
      return answer.data.id;
    },
    async removeWebhook(credentials, id) {
      await unlessMissing(() => call(credentials, 'DELETE', `/webhooks/${encodeURIComponent(id)}`));
    },
  };
}
