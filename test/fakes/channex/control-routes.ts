import express, { type Request, type Router } from 'express';
import { applyAri } from './ari';
import type { Bookings } from './bookings';
import { isTimeZone } from './dates';
import { notFound, validationError } from './errors';
import type { Notifier } from './notifier';
import type { RevisionSpec } from './revisions';
import {
  FAULT_TARGETS,
  newId,
  type FakeChannexState,
  type FaultTarget,
  type Property,
  type RatePlan,
  type RoomType,
} from './state';

/** A property as the controls open it: its API key, and its room types each with its rate plans. */
export interface PropertySpec {
  api_key: string;
  title?: string;
  currency?: string;
  timezone?: string;
  room_types?: {
    id?: string;
    title: string;
    count_of_rooms?: number;
    occ_adults?: number;
    occ_children?: number;
    rate_plans?: { id?: string; title: string; sell_mode?: RatePlan['sell_mode'] }[];
  }[];
  /** ARI calls a minute per kind (Channex: 10). */
  rate_limit_per_minute?: number;
  /** How long a revision may stay unacknowledged before its alarm (Channex: 30 minutes). */
  alarm_after_ms?: number;
  /** Reads answer `stop_sell: true` on a day the rate plan's room type has no rooms, though none was pushed. */
  sold_out_stop_sell?: boolean;
}

const FAULT_STATUSES = [400, 422, 429, 500, 502, 503];

/** The test's levers, under /_fake (no auth, not part of Channex): all per property. */
export function controlRoutes(state: FakeChannexState, bookings: Bookings, notifier: Notifier): Router {
  const router = express.Router();
  router.use(express.json({ limit: '1mb' }));
  const propertyOf = (request: Request) => {
    const property = state.property((request.params as { id: string }).id);
    if (!property) throw notFound();
    return property;
  };

  router.put('/properties/:id', (request, response) => {
    const property = openProperty(
      state,
      (request.params as { id: string }).id,
      body(request) as unknown as PropertySpec,
    );
    response.json(describe(state, property));
  });
  router.get('/properties/:id', (request, response) => {
    response.json(describe(state, propertyOf(request)));
  });
  router.get('/properties/:id/ari', (request, response) => {
    const property = propertyOf(request);
    const plain = <T>(byId: Map<string, Map<string, T>>) =>
      Object.fromEntries([...byId].map(([id, byDate]) => [id, Object.fromEntries([...byDate].sort())]));
    response.json({ availability: plain(property.availability), restrictions: plain(property.restrictions) });
  });
  // A change made at the channel, not through the API (its extranet, an OTA's): applied as an ARI call's values
  // would be (those it refuses answered as warnings), without a key, the limit or the call log.
  router.post('/properties/:id/extranet', (request, response) => {
    const property = propertyOf(request);
    const { kind, values } = body(request);
    if (kind !== 'availability' && kind !== 'restrictions') throw invalid('kind', 'availability or restrictions');
    if (!Array.isArray(values) || !values.every((value) => typeof value === 'object' && value !== null)) {
      throw invalid('values', 'a list of ARI values');
    }
    const stamped = (values as object[]).map((value) => ({ ...value, property_id: property.id }));
    response.json({ warnings: applyAri(state, kind, stamped, new Set([property.id])).warnings });
  });
  router.get('/properties/:id/calls', (request, response) => {
    response.json({ items: propertyOf(request).calls });
  });
  router.post('/properties/:id/faults', (request, response) => {
    const { status, count, kind = 'any', retry_after: retryAfter } = body(request);
    if (!FAULT_STATUSES.includes(status as number)) throw invalid('status', `one of ${FAULT_STATUSES.join(', ')}`);
    if (!Number.isInteger(count) || (count as number) < 0) throw invalid('count', '0 or more');
    if (!FAULT_TARGETS.includes(kind as FaultTarget)) throw invalid('kind', `one of ${FAULT_TARGETS.join(', ')}`);
    if (retryAfter !== undefined && (status !== 429 || !Number.isInteger(retryAfter) || (retryAfter as number) < 1))
      throw invalid('retry_after', 'whole seconds, 1 or more, of a 429');
    const fault = {
      status: status as number,
      remaining: count as number,
      retryAfter: retryAfter as number | undefined,
    };
    propertyOf(request).faults.set(kind as FaultTarget, fault);
    response.json({ status, count, kind });
  });
  router.post('/properties/:id/clock', (request, response) => {
    const advanceMs = body(request).advance_ms;
    if (typeof advanceMs !== 'number' || !Number.isFinite(advanceMs) || advanceMs < 0) {
      throw invalid('advance_ms', 'a number of milliseconds, 0 or more');
    }
    const property = propertyOf(request);
    property.clockOffsetMs += advanceMs;
    bookings.raiseAlarms(property);
    response.json({ clock_offset_ms: property.clockOffsetMs });
  });
  router.put('/properties/:id/webhook', (request, response) => {
    const property = propertyOf(request);
    const { url, event_mask: mask = '*', send_data: sendData = false } = body(request);
    for (const [id, webhook] of property.webhooks) if (webhook.id.startsWith('control-')) property.webhooks.delete(id);
    if (url !== null) {
      if (typeof url !== 'string' || !URL.canParse(url)) throw invalid('url', 'an absolute URL or null');
      const id = `control-${newId()}`;
      property.webhooks.set(id, {
        id,
        property_id: property.id,
        callback_url: url,
        event_mask: String(mask),
        is_active: true,
        send_data: sendData === true,
        headers: {},
      });
    }
    response.json({ webhooks: [...property.webhooks.values()] });
  });
  router.post('/properties/:id/revisions', (request, response) => {
    response.status(201).json(bookings.make(propertyOf(request), body(request) as unknown as RevisionSpec));
  });
  router.get('/properties/:id/revisions', (request, response) => {
    const property = propertyOf(request);
    const ackedAt = (id: string) => property.ackedAt.get(id);
    response.json({
      items: property.revisions.map((revision) => ({
        ...revision,
        acked_at: ackedAt(revision.id) === undefined ? null : new Date(ackedAt(revision.id)!).toISOString(),
      })),
    });
  });
  router.post('/properties/:id/revisions/:revisionId/notify', (request, response) => {
    const property = propertyOf(request);
    const revision = state.revision(property, (request.params as { revisionId: string }).revisionId);
    if (!revision) throw notFound();
    const { times = 1 } = body(request);
    if (!Number.isInteger(times) || (times as number) < 1) throw invalid('times', '1 or more');
    bookings.announce(property, revision, times as number);
    response.json({ sent: times });
  });
  router.post('/properties/:id/revisions/:revisionId/repair', (request, response) => {
    const property = propertyOf(request);
    const revision = state.revision(property, (request.params as { revisionId: string }).revisionId);
    if (!revision) throw notFound();
    response.json({ repaired: bookings.repair(property, revision) });
  });
  router.post('/properties/:id/webhooks/release', (request, response) => {
    const { revision_ids: ids } = body(request);
    if (ids !== undefined && (!Array.isArray(ids) || !ids.every((id) => typeof id === 'string'))) {
      throw invalid('revision_ids', 'a list of revision ids');
    }
    response.json({ released: bookings.release(propertyOf(request), ids as string[] | undefined) });
  });
  router.get('/properties/:id/deliveries', async (request, response) => {
    const property = propertyOf(request);
    await notifier.settled(property);
    response.json({ items: property.deliveries });
  });
  router.get('/properties/:id/alarms', (request, response) => {
    response.json({ items: bookings.alarms(propertyOf(request)) });
  });
  router.delete('/keys/:key', (request, response) => {
    if (!state.revoke((request.params as { key: string }).key)) throw notFound();
    response.json({ revoked: (request.params as { key: string }).key });
  });
  router.get('/keys/:key/calls', (request, response) => {
    response.json({ items: state.keyLogs.get((request.params as { key: string }).key)?.calls ?? [] });
  });
  return router;
}

/**
 * Opens (or reshapes) a property; room types and rate plans given replace the former ones. The key opens it besides
 * those that did already (as while a connection rotates its key); `DELETE /_fake/keys/:key` revokes one.
 */
export function openProperty(state: FakeChannexState, id: string, spec: PropertySpec): Property {
  if (typeof spec.api_key !== 'string' || !/^\S{8,128}$/.test(spec.api_key)) {
    throw invalid('api_key', '8 to 128 characters without spaces');
  }
  if (spec.timezone !== undefined && !isTimeZone(spec.timezone)) throw invalid('timezone', 'an IANA time zone');
  const property = state.open(id);
  property.title = spec.title ?? property.title;
  property.currency = spec.currency ?? property.currency;
  property.timezone = spec.timezone ?? property.timezone;
  property.rateLimitPerMinute = positive(
    spec.rate_limit_per_minute,
    property.rateLimitPerMinute,
    'rate_limit_per_minute',
  );
  property.alarmAfterMs = positive(spec.alarm_after_ms, property.alarmAfterMs, 'alarm_after_ms');
  property.soldOutStopSell = spec.sold_out_stop_sell === true;
  if (spec.room_types) {
    if (!Array.isArray(spec.room_types)) throw invalid('room_types', 'a list');
    property.roomTypes.clear();
    property.statedCapacity.clear();
    property.ratePlans.clear();
    for (const roomTypeSpec of spec.room_types) {
      const roomType: RoomType = {
        id: roomTypeSpec.id ?? newId(),
        property_id: id,
        title: String(roomTypeSpec.title),
        count_of_rooms: roomTypeSpec.count_of_rooms ?? 10,
        occ_adults: positive(roomTypeSpec.occ_adults, 2, 'occ_adults'),
        occ_children: roomTypeSpec.occ_children ?? 0,
        occ_infants: 0,
        default_occupancy: positive(roomTypeSpec.occ_adults, 2, 'occ_adults'),
      };
      property.roomTypes.set(roomType.id, roomType);
      if (roomTypeSpec.occ_adults !== undefined) property.statedCapacity.set(roomType.id, roomType.occ_adults);
      for (const plan of roomTypeSpec.rate_plans ?? []) {
        const ratePlan: RatePlan = {
          id: plan.id ?? newId(),
          property_id: id,
          room_type_id: roomType.id,
          title: String(plan.title),
          currency: property.currency,
          sell_mode: plan.sell_mode ?? 'per_room',
          rate_mode: 'manual',
        };
        property.ratePlans.set(ratePlan.id, ratePlan);
      }
    }
  }
  state.grant(spec.api_key, id);
  return property;
}

function positive(value: unknown, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || (value as number) < 1) throw invalid(name, 'a positive integer');
  return value as number;
}

const invalid = (field: string, message: string) => validationError({ [field]: [`must be ${message}`] });

function body(request: Request): Record<string, unknown> {
  return (request.body ?? {}) as Record<string, unknown>;
}

/** The property's shape as a test needs it: ids of its room types and their rate plans. */
function describe(state: FakeChannexState, property: Property) {
  return {
    id: property.id,
    title: property.title,
    currency: property.currency,
    room_types: [...property.roomTypes.values()].map((roomType) => ({
      ...roomType,
      rate_plans: [...property.ratePlans.values()].filter((plan) => plan.room_type_id === roomType.id),
    })),
    api_keys: [...state.keys].filter(([, ids]) => ids.has(property.id)).map(([key]) => key),
    rate_limit_per_minute: property.rateLimitPerMinute,
    alarm_after_ms: property.alarmAfterMs,
    clock_offset_ms: property.clockOffsetMs,
    fault: property.faults.get('any') ?? null,
    faults: Object.fromEntries(property.faults),
  };
}
