/**
 * A fake Channex speaking its API v1 (https://docs.channex.io), in memory, every property on its own:
 *
 * - `user-api-key` on every call (only keys opened with `PUT /_fake/properties/:id`; else 401), each key opening
 *   only its properties (another's is 404). Errors as Channex's: `{ errors: { code, title, details? } }`.
 * - GET /properties/:id, /room_types and /rate_plans (`filter[property_id]`, `pagination[page|limit]`, `meta`).
 * - POST /availability and /restrictions: `{ values: [...] }` applied in order; a refused value is a warning under
 *   `meta.warnings` of a 200, a malformed body a 422. Rates as decimal strings or integers of minor units.
 *   10 calls a minute per kind per property, then 429 `http_too_many_requests`.
 * - Booking revisions (new, modified, cancelled) made by the controls as an OTA would: GET
 *   /booking_revisions/feed (the unacknowledged ones), GET /booking_revisions/:id, POST /booking_revisions/:id/ack;
 *   one unacknowledged for 30 minutes raises an alarm. Webhooks (POST/GET/DELETE /webhooks) are notified of each
 *   revision: `{ event, payload: { booking_id, property_id, revision_id }, property_id, user_id, timestamp }`.
 * - /_fake: test controls (faults, clock, duplicate and held-back notifications), see control-routes.ts, and
 *   fakeChannexControl for a typed client.
 */
export { startFakeChannex, type FakeChannex, type FakeChannexOptions } from './server';
export { fakeChannexControl, type FakeAri, type FakeChannexControl, type OpenedProperty } from './control-client';
export type { PropertySpec } from './control-routes';
export type { RevisionRoomSpec, RevisionSpec, WebhookMode } from './revisions';
export type { Alarm } from './bookings';
export type { BookingRevision, CallRecord, DayRestrictions, Delivery } from './state';
