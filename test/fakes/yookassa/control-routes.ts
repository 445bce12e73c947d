import express, { type Request, type Router } from 'express';
import type { YooKassaNotificationEvent } from '../../../src/integrations/yookassa';
import { invalidRequest } from './errors';
import type { Payments } from './payments';
import type { FakeState, FaultMode, Shop } from './state';

const EVENTS: YooKassaNotificationEvent[] = [
  'payment.waiting_for_capture',
  'payment.succeeded',
  'payment.canceled',
  'refund.succeeded',
];
const FAULT_MODES: FaultMode[] = ['unavailable', 'lose_response'];

/** The test's levers, under /_fake (no auth, not part of YooKassa): all per shop. */
export function controlRoutes(state: FakeState, payments: Payments): Router {
  const router = express.Router();
  router.use(express.json());
  const shopOf = (request: Request) => state.shop((request.params as { shopId: string }).shopId);

  /** Opens the shop (its secret key) or changes it: the API answers only shops opened here. */
  router.put('/shops/:shopId', (request, response) => {
    const shop = shopOf(request);
    const { secret_key: secretKey, webhook_url: webhookUrl } = body(request);
    if (secretKey !== undefined) {
      if (typeof secretKey !== 'string' || !/^\S{1,256}$/.test(secretKey)) {
        throw invalidRequest('secret_key must be 1 to 256 characters without spaces', 'secret_key');
      }
      shop.secretKey = secretKey;
    }
    if (webhookUrl !== undefined) {
      if (webhookUrl !== null && (typeof webhookUrl !== 'string' || !URL.canParse(webhookUrl))) {
        throw invalidRequest('webhook_url must be an absolute URL or null', 'webhook_url');
      }
      shop.webhookUrl = webhookUrl;
    }
    response.json(describe(shop));
  });

  router.post('/shops/:shopId/clock', (request, response) => {
    const shop = shopOf(request);
    const advanceMs: unknown = body(request).advance_ms;
    if (typeof advanceMs !== 'number' || !Number.isFinite(advanceMs) || advanceMs < 0) {
      throw invalidRequest('advance_ms must be a number of milliseconds, zero or more', 'advance_ms');
    }
    shop.clockOffsetMs += advanceMs;
    payments.expireDue(shop);
    response.json(describe(shop));
  });

  router.get('/shops/:shopId/payments', (request, response) => {
    response.json({ items: payments.list(shopOf(request)) });
  });

  router.get('/shops/:shopId/requests', (request, response) => {
    response.json(Object.fromEntries(shopOf(request).requests));
  });

  router.post('/shops/:shopId/faults', (request, response) => {
    const shop = shopOf(request);
    const { mode, count } = body(request);
    if (!FAULT_MODES.includes(mode as FaultMode)) {
      throw invalidRequest(`mode must be one of ${FAULT_MODES.join(', ')}`, 'mode');
    }
    if (!Number.isInteger(count) || (count as number) < 0) throw invalidRequest('count must be 0 or more', 'count');
    shop.fault = { mode: mode as FaultMode, remaining: count as number };
    response.json(describe(shop));
  });

  router.post('/shops/:shopId/notify', (request, response) => {
    const { payment_id: paymentId, refund_id: refundId, event, times = 1 } = body(request);
    if (!EVENTS.includes(event as YooKassaNotificationEvent)) {
      throw invalidRequest(`event must be one of ${EVENTS.join(', ')}`, 'event');
    }
    if (typeof paymentId !== 'string') throw invalidRequest('payment_id is required', 'payment_id');
    if (refundId !== undefined && typeof refundId !== 'string')
      throw invalidRequest('refund_id is a string', 'refund_id');
    if (!Number.isInteger(times) || (times as number) < 1) throw invalidRequest('times must be 1 or more', 'times');
    for (let sent = 0; sent < (times as number); sent++) {
      payments.announceAgain(shopOf(request), event as YooKassaNotificationEvent, paymentId, refundId);
    }
    response.json({ sent: times });
  });

  return router;
}

function body(request: Request): Record<string, unknown> {
  return (request.body ?? {}) as Record<string, unknown>;
}

function describe(shop: Shop) {
  return {
    shop_id: shop.id,
    webhook_url: shop.webhookUrl,
    provisioned: shop.secretKey !== undefined,
    clock_offset_ms: shop.clockOffsetMs,
    fault: shop.fault ?? null,
  };
}
