import { controlCaller } from '../http';
import type { AriKind, AriWarning } from './ari';
import type { Alarm } from './bookings';
import type { PropertySpec } from './control-routes';
import type { RevisionSpec } from './revisions';
import type { BookingRevision, CallRecord, DayRestrictions, Delivery, FaultTarget, RatePlan, RoomType } from './state';

export interface OpenedProperty {
  id: string;
  title: string;
  currency: string;
  /** Every key that opens it (opening it with another key adds one). */
  api_keys: string[];
  room_types: (RoomType & { rate_plans: RatePlan[] })[];
}

export interface FakeAri {
  /** Room type id -> date -> rooms to sell. */
  availability: Record<string, Record<string, number>>;
  /** Rate plan id -> date -> what the plan holds. */
  restrictions: Record<string, Record<string, DayRestrictions>>;
}

export interface FakeChannexControl {
  /**
   * Opens a property (or reshapes it) with its API key, room types and their rate plans (ids made when not given);
   * the API answers only keys opened so, and each key only its properties. Answers the ids.
   */
  openProperty(propertyId: string, spec: PropertySpec): Promise<OpenedProperty>;
  /** What the property holds on the channel: availability per room type and restrictions per rate plan, by date. */
  ari(propertyId: string): Promise<FakeAri>;
  /**
   * Changes what the property holds behind the PMS's back, as an edit in Channex's extranet would: ARI values of
   * `kind` (the API's shape, without `property_id`), applied without a call being logged. Answers the refused ones.
   */
  editAtChannel(propertyId: string, kind: AriKind, values: object[]): Promise<AriWarning[]>;
  /** Every API call that touched the property: kind, time, number of ARI values, status, warnings. */
  calls(propertyId: string): Promise<CallRecord[]>;
  /** Revokes an API key: it opens nothing any more, its calls are 401 (the properties' other keys keep working). */
  revokeKey(apiKey: string): Promise<void>;
  /** The key's ARI calls that named none of its properties (not on any property's log), limited on their own. */
  keyCalls(apiKey: string): Promise<CallRecord[]>;
  /**
   * Makes the property's next `count` API calls of `kind` fail with `status` (400, 422, 429, 500, 502 or 503): ARI writes and
   * reads of `availability` or `restrictions`, `feed` polls, or `any` call (the default). A kind's own fault is
   * taken before `any`; injecting one again for a kind replaces it (count 0 clears it). A 429 may carry a
   * Retry-After of `retryAfterSeconds`.
   */
  injectFault(
    propertyId: string,
    status: number,
    count: number,
    kind?: FaultTarget,
    retryAfterSeconds?: number,
  ): Promise<void>;
  /** Moves the property's clock forward: the rate-limit window and the alarms follow it. */
  advanceClock(propertyId: string, ms: number): Promise<void>;
  /** A webhook of the controls' own (every booking event by default); null removes it. */
  setWebhook(
    propertyId: string,
    url: string | null,
    options?: { event_mask?: string; send_data?: boolean },
  ): Promise<void>;
  /** An OTA's revision: new, modified or cancelled (of `booking_id`); `webhook` says how it is announced. */
  makeRevision(propertyId: string, spec: RevisionSpec): Promise<BookingRevision>;
  /** Every revision made, oldest first, with when it was acknowledged (on the property's clock) or null. */
  revisions(propertyId: string): Promise<(BookingRevision & { acked_at: string | null })[]>;
  /** Sends a revision's notification again, `times` times. */
  notifyAgain(propertyId: string, revisionId: string, times?: number): Promise<void>;
  /** A revision made `off_spec` answered as documented from now on, and announced again. */
  repairRevision(propertyId: string, revisionId: string): Promise<void>;
  /** Sends the held-back notifications: those named, in that order, else all, oldest first. Answers how many. */
  releaseHeld(propertyId: string, revisionIds?: string[]): Promise<number>;
  /** Every notification attempt, once those under way have been made. */
  deliveries(propertyId: string): Promise<Delivery[]>;
  /** Revisions unacknowledged past the property's threshold (30 minutes unless opened with `alarm_after_ms`). */
  alarms(propertyId: string): Promise<Alarm[]>;
}

/** A typed hand on the fake's test controls (/_fake), for tests, the bench and a person in dev. */
export function fakeChannexControl(url: string): FakeChannexControl {
  const call = controlCaller(url);
  const at = (propertyId: string, rest = '') => `/_fake/properties/${encodeURIComponent(propertyId)}${rest}`;
  const items = async <T>(path: string) => ((await call('GET', path)) as { items: T[] }).items;
  return {
    async openProperty(propertyId, spec) {
      return (await call('PUT', at(propertyId), spec)) as OpenedProperty;
    },
    async ari(propertyId) {
      return (await call('GET', at(propertyId, '/ari'))) as FakeAri;
    },
    async editAtChannel(propertyId, kind, values) {
      return ((await call('POST', at(propertyId, '/extranet'), { kind, values })) as { warnings: AriWarning[] })
        .warnings;
    },
    calls: (propertyId) => items<CallRecord>(at(propertyId, '/calls')),
    async revokeKey(apiKey) {
      await call('DELETE', `/_fake/keys/${encodeURIComponent(apiKey)}`);
    },
    keyCalls: (apiKey) => items<CallRecord>(`/_fake/keys/${encodeURIComponent(apiKey)}/calls`),
    async injectFault(propertyId, status, count, kind = 'any', retryAfterSeconds) {
      await call('POST', at(propertyId, '/faults'), { status, count, kind, retry_after: retryAfterSeconds });
    },
    async advanceClock(propertyId, ms) {
      await call('POST', at(propertyId, '/clock'), { advance_ms: ms });
    },
    async setWebhook(propertyId, webhookUrl, options = {}) {
      await call('PUT', at(propertyId, '/webhook'), { url: webhookUrl, ...options });
    },
    async makeRevision(propertyId, spec) {
      return (await call('POST', at(propertyId, '/revisions'), spec)) as BookingRevision;
    },
    revisions: (propertyId) => items<BookingRevision & { acked_at: string | null }>(at(propertyId, '/revisions')),
    async notifyAgain(propertyId, revisionId, times = 1) {
      await call('POST', at(propertyId, `/revisions/${encodeURIComponent(revisionId)}/notify`), { times });
    },
    async repairRevision(propertyId, revisionId) {
      await call('POST', at(propertyId, `/revisions/${encodeURIComponent(revisionId)}/repair`));
    },
    async releaseHeld(propertyId, revisionIds) {
      const body = revisionIds ? { revision_ids: revisionIds } : {};
      return ((await call('POST', at(propertyId, '/webhooks/release'), body)) as { released: number }).released;
    },
    deliveries: (propertyId) => items<Delivery>(at(propertyId, '/deliveries')),
    alarms: (propertyId) => items<Alarm>(at(propertyId, '/alarms')),
  };
}
