import Joi from 'joi';
import { idempotencyKeyHeader } from '../../platform/http/idempotency-key';
import { defineHotelRoute, defineRoute, type RouteDefinition } from '../../platform/http/route';
import { idParams, okResponse } from '../../platform/http/schemas';
import { bookingSchema } from '../bookings';
import { receiptSchema } from '../fiscal';
import { MONEY_DESK, MONEY_READERS } from '../payments';
import type { DeskPaymentInput, DeskPayments } from './billing.desk-payments';
import type { ProviderNotification, ProviderNotifications } from './billing.notifications';
import {
  createPaymentBody,
  onlinePaymentBody,
  onlinePaymentSchema,
  paymentParams,
  paymentSchema,
  providerNotificationBody,
} from './billing.schemas';
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
      caller: 'provider',
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

/** The payments of a booking staff record at the desk, documented with the bookings as before. */
export function deskPaymentsRoutes(deskPayments: DeskPayments): RouteDefinition[] {
  const bookingTags = ['Bookings'];
  return [
    defineHotelRoute<unknown, unknown, { id: string }>({
      method: 'get',
      path: '/api/hotels/:slug/bookings/:id/payments',
      summary: 'Payments of a booking',
      tags: bookingTags,
      access: { kind: 'hotel', roles: MONEY_DESK },
      request: { params: idParams },
      responses: { 200: { description: 'Payments', schema: Joi.array().items(paymentSchema) } },
      async handler({ hotel, params, res }) {
        res.json(await deskPayments.list(hotel.id, params.id));
      },
    }),
    defineHotelRoute<DeskPaymentInput, unknown, { id: string }>({
      method: 'post',
      path: '/api/hotels/:slug/bookings/:id/payments',
      summary: 'Record a payment (a negative amount is a refund)',
      description:
        'Changes `paid_amount` in the same transaction. Accepts `Idempotency-Key` like booking creation. With ' +
        '`workstation_id` (cash or card), the desk’s fiscal register prints its 54-FZ receipt (a return for a ' +
        'negative amount): `fiscal_receipt` is answered `pending` and followed at `GET /fiscal-receipts/{id}`; 422 ' +
        '`no_fiscal_register` or `receipt_method`, and nothing is recorded.',
      tags: bookingTags,
      access: { kind: 'hotel', roles: MONEY_DESK },
      request: { params: idParams, body: createPaymentBody, headers: idempotencyKeyHeader },
      responses: {
        201: {
          description: 'The payment, the booking after it, and the receipt being printed (or null)',
          schema: Joi.object({
            payment: paymentSchema,
            booking: bookingSchema,
            fiscal_receipt: Joi.alternatives().try(receiptSchema, Joi.valid(null)),
          }),
        },
        404: { description: 'No such booking' },
        422: {
          description:
            'The sum of the payments would leave what its column holds, or the key was used with another body',
        },
      },
      async handler({ hotel, params, body, auth, headers, res }) {
        const result = await deskPayments.create(hotel, params.id, body, auth.sub, headers['idempotency-key']);
        res.status(result.status).json(result.body);
      },
    }),
    defineHotelRoute<unknown, unknown, { id: string; paymentId: string }>({
      method: 'delete',
      path: '/api/hotels/:slug/bookings/:id/payments/:paymentId',
      summary: 'Delete a payment',
      description: 'Changes `paid_amount` back in the same transaction; answers the booking after it.',
      tags: bookingTags,
      access: { kind: 'hotel', roles: MONEY_DESK },
      request: { params: paymentParams },
      responses: {
        200: { description: 'The booking', schema: bookingSchema },
        404: { description: 'No such payment' },
        409: { description: 'A payment of an invoice (`invoice_payment_of_invoice`): it stays with the invoice' },
        422: { description: 'The sum of the payments would leave what its column holds' },
      },
      async handler({ hotel, params, auth, res }) {
        res.json(await deskPayments.remove(hotel.id, params.id, params.paymentId, auth.sub));
      },
    }),
  ];
}
