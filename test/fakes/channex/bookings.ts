import type { Request, Response, Router } from 'express';
import { keyProperties, opened, type Calls } from './api-routes';
import { paginate, resource } from './catalogue';
import { notFound, validationError } from './errors';
import type { Notifier } from './notifier';
import { buildRevision, type FeedOrder, type RevisionSpec, type WebhookMode } from './revisions';
import { newId, type BookingRevision, type FakeChannexState, type Property, type Webhook } from './state';

const EVENT_OF: Record<BookingRevision['status'], string> = {
  new: 'booking_new',
  modified: 'booking_modification',
  cancelled: 'booking_cancellation',
};
const ALARM_EVENT = 'non_acked_booking';
const MODES: WebhookMode[] = ['once', 'twice', 'hold', 'none'];
const FEED_ORDERS: FeedOrder[] = ['in_order', 'before_previous'];

export interface Alarm {
  revision_id: string;
  booking_id: string;
  property_id: string;
  inserted_at: string;
  unacknowledged_ms: number;
}

/** Booking revisions (made by the controls as an OTA would), their feed and acknowledgements, and webhooks. */
export class Bookings {
  constructor(
    private readonly state: FakeChannexState,
    private readonly notifier: Notifier,
  ) {}

  routes(router: Router, calls: Calls): void {
    router.get('/booking_revisions/feed', (request, response) => {
      const properties = this.feedProperties(request, response);
      calls.guard(response, 'booking_revisions_feed', properties);
      const pending = this.state.feed.filter((revision) => {
        const property = properties.find((candidate) => candidate.id === revision.property_id);
        return property !== undefined && !property.ackedAt.has(revision.id);
      });
      const { items, meta } = paginate(request, pending);
      response.json({ data: items.map(revisionResource), meta });
    });
    router.get('/booking_revisions/:id', (request, response) => {
      const { property, revision } = this.find(request, response);
      calls.guard(response, 'booking_revision', [property]);
      response.json({ data: revisionResource(revision) });
    });
    router.post('/booking_revisions/:id/ack', (request, response) => {
      const { property, revision } = this.find(request, response);
      calls.guard(response, 'booking_revision_ack', [property]);
      if (!property.ackedAt.has(revision.id)) property.ackedAt.set(revision.id, this.state.now(property));
      revision.acknowledge_status = 'acknowledged';
      response.json({ meta: { message: 'Success' } });
    });
    router.post('/webhooks', (request, response) => {
      const webhook = this.webhookOf(request.body, response);
      calls.guard(response, 'webhooks', [this.state.property(webhook.property_id)!]);
      this.state.property(webhook.property_id)!.webhooks.set(webhook.id, webhook);
      response.status(201).json({ data: resource('webhook', webhook) });
    });
    router.get('/webhooks', (request, response) => {
      const properties = this.ofKey(response);
      calls.guard(response, 'webhooks', properties);
      const webhooks = properties.flatMap((property) => [...property.webhooks.values()]);
      const { items, meta } = paginate(request, webhooks);
      response.json({ data: items.map((webhook) => resource('webhook', webhook)), meta });
    });
    router.delete('/webhooks/:id', (request, response) => {
      const id = (request.params as { id: string }).id;
      const property = [...keyProperties(response)]
        .map((propertyId) => this.state.property(propertyId))
        .find((candidate) => candidate?.webhooks.has(id));
      if (!property) throw notFound();
      calls.guard(response, 'webhooks', [property]);
      property.webhooks.delete(id);
      response.json({ meta: { message: 'Success' } });
    });
  }

  /** The documented status of each revision served out of shape (`off_spec`), until it is repaired. */
  private readonly offSpec = new Map<string, BookingRevision['status']>();

  /** A revision served out of shape answered as documented again, and announced (false: it was not out of shape). */
  repair(property: Property, revision: BookingRevision): boolean {
    const status = this.offSpec.get(revision.id);
    if (status === undefined) return false;
    revision.status = status;
    this.offSpec.delete(revision.id);
    this.announce(property, revision, 1);
    return true;
  }

  /** Makes an OTA's revision and announces it to the property's webhooks (unless held back or silenced). */
  make(property: Property, spec: RevisionSpec): BookingRevision {
    const mode = spec.webhook ?? 'once';
    if (!MODES.includes(mode)) throw validationError({ webhook: [`must be one of ${MODES.join(', ')}`] });
    const order = spec.feed_order ?? 'in_order';
    if (!FEED_ORDERS.includes(order))
      throw validationError({ feed_order: [`must be one of ${FEED_ORDERS.join(', ')}`] });
    const revision = buildRevision(property, spec, this.state.now(property));
    if (spec.off_spec === true) {
      this.offSpec.set(revision.id, revision.status);
      revision.status = 'tentative' as BookingRevision['status'];
    }
    if (order === 'before_previous' && revision.status === 'new') {
      throw validationError({ feed_order: ['before_previous: a new booking has no previous revision'] });
    }
    const previous = property.revisions.findLast((made) => made.booking_id === revision.booking_id);
    property.revisions.push(revision);
    const at = order === 'before_previous' ? this.state.feed.indexOf(previous!) : this.state.feed.length;
    this.state.feed.splice(at, 0, revision);
    if (mode === 'hold') property.held.push(revision.id);
    else if (mode !== 'none') this.announce(property, revision, mode === 'twice' ? 2 : 1);
    return revision;
  }

  /** Sends the held-back notifications (those named, in that order; else all, oldest first). */
  release(property: Property, revisionIds?: string[]): number {
    const ids = revisionIds ?? [...property.held];
    if (new Set(ids).size !== ids.length) throw validationError({ revision_ids: ['each revision once'] });
    for (const id of ids) {
      const revision = this.state.revision(property, id);
      if (!revision || !property.held.includes(id)) throw validationError({ revision_ids: [`${id} is not held`] });
    }
    property.held = property.held.filter((id) => !ids.includes(id));
    for (const id of ids) this.announce(property, this.state.revision(property, id)!, 1);
    return ids.length;
  }

  /** Notifies the webhooks that hear the revision's event (by default its status's), `times` times each. */
  announce(property: Property, revision: BookingRevision, times: number, alarm = false): void {
    const now = () => new Date(this.state.now(property)).toISOString();
    for (const webhook of property.webhooks.values()) {
      const event = alarm ? alarmEventFor(webhook) : eventFor(webhook, revision);
      if (!webhook.is_active || !event) continue;
      const payload = {
        booking_id: revision.booking_id,
        property_id: property.id,
        revision_id: revision.id,
        ...(webhook.send_data ? revisionResource(revision).attributes : {}),
      };
      const body = { event, payload, property_id: property.id, user_id: null, timestamp: now() };
      for (let sent = 0; sent < times; sent++) this.notifier.send(property, webhook, revision.id, event, body, now);
    }
  }

  /** Revisions left unacknowledged longer than the property's alarm threshold (Channex: 30 minutes). */
  alarms(property: Property): Alarm[] {
    const now = this.state.now(property);
    return property.revisions
      .filter((revision) => !property.ackedAt.has(revision.id))
      .map((revision) => ({
        revision_id: revision.id,
        booking_id: revision.booking_id,
        property_id: property.id,
        inserted_at: revision.inserted_at,
        unacknowledged_ms: now - Date.parse(revision.inserted_at),
      }))
      .filter((alarm) => alarm.unacknowledged_ms >= property.alarmAfterMs);
  }

  /** Raises the alarms due (once each): announced to the webhooks that hear `non_acked_booking`. */
  raiseAlarms(property: Property): void {
    for (const alarm of this.alarms(property)) {
      if (property.alarmed.has(alarm.revision_id)) continue;
      property.alarmed.add(alarm.revision_id);
      this.announce(property, this.state.revision(property, alarm.revision_id)!, 1, true);
    }
  }

  private feedProperties(request: Request, response: Response): Property[] {
    const id = request.query['filter[property_id]'];
    if (id !== undefined) {
      if (typeof id !== 'string') throw validationError({ 'filter[property_id]': ['must be one id'] });
      return [opened(this.state, response, id)];
    }
    return this.ofKey(response);
  }

  /** Every property the request's key opens. */
  private ofKey(response: Response): Property[] {
    return [...keyProperties(response)].map((propertyId) => this.state.property(propertyId)!);
  }

  private find(request: Request, response: Response) {
    const id = (request.params as { id: string }).id;
    for (const propertyId of keyProperties(response)) {
      const property = this.state.property(propertyId)!;
      const revision = this.state.revision(property, id);
      if (revision) return { property, revision };
    }
    throw notFound();
  }

  private webhookOf(body: unknown, response: Response): Webhook {
    const fields = ((body as { webhook?: unknown } | null)?.webhook ?? null) as Record<string, unknown> | null;
    if (typeof fields !== 'object' || fields === null) throw validationError({ webhook: ['is required'] });
    const { property_id: propertyId, callback_url: url, event_mask: mask, headers = {} } = fields;
    const details: Record<string, string[]> = {};
    if (typeof propertyId !== 'string' || !keyProperties(response).has(propertyId)) details.property_id = ['not found'];
    if (typeof url !== 'string' || !/^https?:\/\//.test(url) || !URL.canParse(url)) details.callback_url = ['invalid'];
    if (typeof mask !== 'string' || mask.trim() === '') details.event_mask = ["can't be blank"];
    if (typeof headers !== 'object' || headers === null) details.headers = ['must be an object'];
    for (const flag of ['is_active', 'send_data']) {
      if (flag in fields && typeof fields[flag] !== 'boolean') details[flag] = ['must be true or false'];
    }
    if (Object.keys(details).length > 0) throw validationError(details);
    return {
      id: newId(),
      property_id: propertyId as string,
      callback_url: url as string,
      event_mask: mask as string,
      is_active: (fields.is_active as boolean | undefined) ?? true,
      send_data: (fields.send_data as boolean | undefined) ?? false,
      headers: headers as Record<string, string>,
    };
  }
}

/** The event a webhook hears for the revision: its own name if masked in (or `*`), else `booking`, else none. */
function eventFor(webhook: Webhook, revision: BookingRevision): string | undefined {
  const events = webhook.event_mask.split(';').map((event) => event.trim());
  const specific = EVENT_OF[revision.status];
  if (events.includes('*') || events.includes(specific)) return specific;
  return events.includes('booking') ? 'booking' : undefined;
}

function alarmEventFor(webhook: Webhook): string | undefined {
  const events = webhook.event_mask.split(';').map((event) => event.trim());
  return events.includes('*') || events.includes(ALARM_EVENT) ? ALARM_EVENT : undefined;
}

export function revisionResource(revision: BookingRevision) {
  return {
    ...resource('booking_revision', revision),
    relationships: {
      property: { data: { type: 'property', id: revision.property_id } },
      booking: { data: { type: 'booking', id: revision.booking_id } },
    },
  };
}
