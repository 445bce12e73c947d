/**
 * A fake Channex speaking its API v1 (https://docs.channex.io), in memory, every property on its own:
 *
 * - `user-api-key` on every call (only keys opened with `PUT /_fake/properties/:id` and not revoked; else 401), each
 *   key opening only its properties (another's is 404), several keys one property (a key being rotated). Errors as Channex's: `{ errors: { code, title, details? } }`.
 * - GET /properties/:id, /room_types and /rate_plans (`filter[property_id]`, `pagination[page|limit]`, `meta`).
 * - POST /availability and /restrictions: `{ values: [...] }` applied in order (a range starting in the past from the
 *   property's today, in its time zone; one wholly in the past refused); a refused value is a warning under
 *   `meta.warnings` of a 200 whose `data` holds one task per property a value was applied to (none when all were
 *   refused), a malformed body a 422. Rates as decimal strings or integers of minor units. 10 calls a minute per
 *   kind per property, then 429 `http_too_many_requests`; a call naming no property of its key counts on the key's.
 *   GET /availability and /restrictions (`filter[date]` or `filter[date][gte|lte]`, `filter[restrictions]`, with the read-only
 *   `availability_offset` and `max_availability`) answer what it holds; a query they cannot read is 400
 *   `bad_request`.
 * - Booking revisions (new, modified, cancelled) made by the controls as an OTA would: GET
 *   /booking_revisions/feed (the unacknowledged ones, across properties in the order made, or a booking's revision
 *   before its previous one when a control asks), GET /booking_revisions/:id, POST /booking_revisions/:id/ack;
 *   one unacknowledged for 30 minutes raises an alarm (announced as `non_acked_booking`). Webhooks (POST/GET/DELETE /webhooks) are notified of each
 *   revision: `{ event, payload: { booking_id, property_id, revision_id }, property_id, user_id, timestamp }`.
 * - /_fake: test controls (faults for any call or one kind, clock, keys and their revocation, an edit at the channel
 *   behind the PMS's back, duplicate, held-back and out-of-order revisions, revisions answered out of shape until
 *   repaired), see control-routes.ts, and fakeChannexControl for a typed client.
 */
export { startFakeChannex, type FakeChannex, type FakeChannexOptions } from './server';
export { fakeChannexControl, type FakeAri, type FakeChannexControl, type OpenedProperty } from './control-client';
export type { PropertySpec } from './control-routes';
export type { FeedOrder, RevisionRoomSpec, RevisionSpec, WebhookMode } from './revisions';
export type { Alarm } from './bookings';
export type { BookingRevision, CallRecord, DayRestrictions, Delivery, FaultTarget } from './state';
