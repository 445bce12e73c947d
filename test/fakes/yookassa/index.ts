/**
 * A fake YooKassa speaking API v3 (https://yookassa.ru/developers/api), in memory, every shop on its own:
 *
 * - /v3/payments, /v3/payments/:id, /v3/payments/:id/capture, /v3/payments/:id/cancel, /v3/refunds, /v3/refunds/:id
 *   with Basic auth (only shops opened with `PUT /_fake/shops/:shopId` and their secret key), an Idempotence-Key on every
 *   POST (answers kept 24 hours on the shop's clock), YooKassa's validation and error bodies.
 * - /payer/:paymentId, the confirmation_url: the payer pays with a test card (TEST_CARDS).
 * - Notifications to the shop's webhook (else the default one) on waiting_for_capture, succeeded, canceled and refund
 *   succeeded, a failed delivery repeated 3 times.
 * - A payment not paid within an hour is canceled (expired_on_confirmation), a hold not captured within 7 days too
 *   (expired_on_capture).
 * - /_fake: test controls, see control-routes.ts, and fakeYooKassaControl for a typed client.
 */
export { startFakeYooKassa, type FakeYooKassa, type FakeYooKassaOptions } from './server';
export { fakeYooKassaControl, type CardChoice, type FakeYooKassaControl } from './control-client';
export { TEST_CARDS } from './cards';
export type { FaultMode } from './state';
