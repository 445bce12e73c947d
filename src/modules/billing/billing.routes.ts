import Joi from 'joi';
import { idempotencyKeyHeader } from '../../platform/http/idempotency-key';
import { defineHotelRoute, defineRoute, type RouteDefinition } from '../../platform/http/route';
import { idParams, okResponse } from '../../platform/http/schemas';
import { MONEY_DESK, MONEY_READERS } from '../payments';
import type { ProviderNotification, ProviderNotifications } from './billing.notifications';
import { onlinePaymentBody, onlinePaymentSchema, providerNotificationBody } from './billing.schemas';
import type { OnlinePaymentInput, OnlinePayments } from './billing.online';

type Params = { id: string };

/** Online payments of bookings and the provider's notifications (documented with the deposits, as before). */
export function onlinePaymentsRoutes(
  onlinePayments: OnlinePayments,
  notifications: ProviderNotifications,
): RouteDefinition[] {
  const tags = ['Deposits'];
  return [
    defineHotelRoute<OnlinePaymentInput, unknown, Params>({
      method: 'post',
      path: '/api/hotels/:slug/bookings/:id/online-payments',
      summary: 'Start an online payment of a booking',
      description:
        'For `amount` (default: the balance) through YooKassa. Its `confirmation_url` appears within seconds; once ' +
        "paid it becomes a row of the booking's payments (exactly once) and, for an `online` booking still an " +
        "`inquiry`, confirms it when the gateway has `auto_confirm_on_payment`. Unpaid after the hotel's " +
        '`online_payment_ttl_minutes`, it is given up and such an unpaid online booking is cancelled. Accepts ' +
        '`Idempotency-Key`.',
      tags,
      access: { kind: 'hotel', roles: MONEY_DESK },
      request: { params: idParams, body: onlinePaymentBody, headers: idempotencyKeyHeader },
      responses: {
        201: { description: 'The online payment', schema: onlinePaymentSchema },
        404: { description: 'No such booking' },
        422: { description: 'Nothing to pay, the booking is closed, or online payment is not configured' },
      },
      async handler({ hotel, params, body, auth, headers, res }) {
        const actor = { userId: auth.sub, hotelSlug: hotel.slug };
        const key = headers['idempotency-key'];
        const result = await onlinePayments.create(hotel.id, params.id, body, actor, key);
        res.status(result.status).json(result.body);
      },
    }),
    defineHotelRoute<unknown, unknown, Params>({
      method: 'get',
      path: '/api/hotels/:slug/bookings/:id/online-payments',
      summary: "A booking's online payments",
      tags,
      access: { kind: 'hotel', roles: MONEY_READERS },
      request: { params: idParams },
      responses: { 200: { description: 'Online payments', schema: Joi.array().items(onlinePaymentSchema) } },
      async handler({ hotel, params, res }) {
        res.json(await onlinePayments.list(hotel.id, params.id));
      },
    }),
    defineRoute<ProviderNotification>({
      method: 'post',
      path: '/api/payments/yookassa/notifications',
      summary: 'YooKassa notification',
      description:
        'Set this address as the HTTP notification URL of the shop. A notification is never believed: it only makes ' +
        "the service re-read the payment it names from YooKassa with the hotel's credentials, so duplicates, " +
        'out-of-order and forged notifications change nothing twice or at all. Always 200 for a well-formed body ' +
        '(YooKassa repeats a notification until it gets 200); 403 from an address outside ' +
        '`YOOKASSA_NOTIFICATION_SOURCES` when that is set; 429 past `YOOKASSA_NOTIFICATIONS_PER_MINUTE` from one ' +
        'address. The notifications of one payment within `YOOKASSA_NOTIFICATION_COALESCE_MS` make one re-read.',
      tags,
      access: { kind: 'public' },
      rateLimit: { scope: 'yookassa.notifications', perAddress: notifications.limit, store: 'local' },
      request: { body: providerNotificationBody },
      responses: {
        200: { description: 'Received', schema: okResponse },
        403: { description: 'Not from YooKassa' },
        429: { description: 'Too many notifications from this address' },
      },
      async handler({ body, req, res }) {
        await notifications.receive(body, req.ip);
        res.json({ ok: true });
      },
    }),
  ];
}
