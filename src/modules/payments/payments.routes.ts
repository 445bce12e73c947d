import Joi from 'joi';
import { openApiComponent } from '../../platform/http/components';
import { slugParams } from '../../platform/http/schemas';
import { defineHotelRoute, type RouteDefinition } from '../../platform/http/route';
import { ALL_STAFF, type Role } from '../../platform/http/roles';
import type { PaymentsService } from './payments.service';
import { CHECKIN_PAYMENT_LEVELS, type PaymentSettings } from './payments.types';

const SETTINGS_WRITERS: readonly Role[] = ['hotel_admin', 'manager', 'accountant'];

const settingsSchema = Joi.object({
  hotel_id: Joi.string().uuid(),
  require_payment_checkin: Joi.string().valid(...CHECKIN_PAYMENT_LEVELS),
  updated_at: Joi.date(),
}).meta(openApiComponent('PaymentSettings'));

export function paymentsRoutes(payments: PaymentsService): RouteDefinition[] {
  const tags = ['Payments'];
  return [
    defineHotelRoute({
      method: 'get',
      path: '/api/hotels/:slug/payment-settings',
      summary: 'Read the payment settings',
      tags,
      access: { kind: 'hotel', roles: ALL_STAFF },
      concurrency: 'if-match',
      request: { params: slugParams },
      responses: { 200: { description: 'Settings', schema: settingsSchema } },
      async handler({ hotel, res }) {
        res.json(await payments.getSettings(hotel.id));
      },
    }),
    defineHotelRoute<Pick<PaymentSettings, 'require_payment_checkin'>>({
      method: 'patch',
      path: '/api/hotels/:slug/payment-settings',
      summary: 'Update the payment settings',
      description:
        '`require_payment_checkin`: `none` (check in regardless of balance), `soft` (check in with a warning when a ' +
        'balance is due), `hard` (check-in refused while a balance is due).',
      tags,
      access: { kind: 'hotel', roles: SETTINGS_WRITERS },
      concurrency: 'if-match',
      request: {
        params: slugParams,
        body: Joi.object({ require_payment_checkin: settingsSchema.extract('require_payment_checkin').required() }),
      },
      responses: { 200: { description: 'Settings', schema: settingsSchema } },
      async handler({ hotel, body, expectedVersion, res }) {
        res.json(await payments.updateSettings(hotel.id, body, expectedVersion));
      },
    }),
  ];
}
