import { crudRoutes } from '../../platform/http/crud';
import { slugParams } from '../../platform/http/schemas';
import { defineHotelRoute, type RouteDefinition } from '../../platform/http/route';
import { ALL_STAFF, type Role } from '../../platform/http/roles';
import { gatewayMessages } from './payments.gateways';
import {
  createGatewayBody,
  createMethodBody,
  gatewaySchema,
  methodListQuery,
  methodSchema,
  settingsSchema,
  updateGatewayBody,
  updateMethodBody,
  updateSettingsBody,
} from './payments.schemas';
import type { PaymentsService } from './payments.service';
import type { PaymentSettingsChanges } from './payments.types';

/** The desk and the accountant take money (deposits, online payments); security may look (a guest leaving). */
export const MONEY_DESK: readonly Role[] = ['hotel_admin', 'manager', 'receptionist', 'accountant'];
export const MONEY_READERS: readonly Role[] = [...MONEY_DESK, 'security'];

/** Who configures how the hotel is paid: its owner, managers and the accountant. */
const PAYMENT_CONFIGURERS: readonly Role[] = ['hotel_admin', 'manager', 'accountant'];

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
    defineHotelRoute<PaymentSettingsChanges>({
      method: 'patch',
      path: '/api/hotels/:slug/payment-settings',
      summary: 'Update the payment settings',
      description:
        'Any of the fields, at least one. `require_payment_checkin`: `none` (check in regardless of balance), `soft` ' +
        '(check in with a warning when a balance is due), `hard` (check-in refused while a balance is due). ' +
        '`release_requires_checkout`: a deposit is released only once its booking is checked out. ' +
        '`long_stay_charge_enabled` with `long_stay_threshold_days` (1–365): a stay of more nights is charged in full ' +
        "instead of held, as a provider's hold lives 7 days. `hold_expiry_action`: what becomes of a confirmed hold " +
        "about to lapse on the provider's 7th day (`capture` or `release`). `online_payment_ttl_minutes` (5–10080): " +
        'how long an unpaid online booking waits for its payment. `deduction_presets`: at most 50, each a name and ' +
        '1–20 amounts greater than 0 (answered with two decimals); the list given replaces the stored one. ' +
        '`fiscal_taxation` (`osn`, `usn_income` by default, `usn_income_outcome`, `esn`, `patent`) and `fiscal_vat` ' +
        '(`none` by default, `0`, `5`, `7`, `10`, `20`, `22`): what the receipts the desks print say; ' +
        '`fiscal_vat_room_service` (same values): the rate of the receipt line for room service billed to the stay.',
      tags,
      access: { kind: 'hotel', roles: PAYMENT_CONFIGURERS },
      concurrency: 'if-match',
      request: { params: slugParams, body: updateSettingsBody },
      responses: { 200: { description: 'Settings', schema: settingsSchema } },
      async handler({ hotel, body, expectedVersion, res }) {
        res.json(await payments.updateSettings(hotel.id, body, expectedVersion));
      },
    }),
    ...crudRoutes({
      basePath: '/api/hotels/:slug/payment-methods',
      noun: 'payment method',
      tags,
      readRoles: ALL_STAFF,
      writeRoles: PAYMENT_CONFIGURERS,
      schemas: { item: methodSchema, create: createMethodBody, update: updateMethodBody, listQuery: methodListQuery },
      service: payments.methods,
      descriptions: {
        create: '`type` is the kind of payment it records (`cash`, `card`, ...); `currency` an ISO 4217 code (RUB).',
      },
    }),
    ...crudRoutes({
      basePath: '/api/hotels/:slug/payment-gateways',
      noun: 'payment gateway',
      tags,
      readRoles: PAYMENT_CONFIGURERS,
      writeRoles: PAYMENT_CONFIGURERS,
      schemas: { item: gatewaySchema, create: createGatewayBody, update: updateGatewayBody },
      service: payments.gateways,
      descriptions: {
        create:
          'One gateway per provider (409 for a second). `secret_key` is stored encrypted and never returned: answers ' +
          'carry `secret_key_set` and `secret_key_hint`. `return_url` (where the provider sends the payer after ' +
          'paying) must be an http(s) address outside private networks (400).',
        update: 'A `secret_key` given replaces the stored one.',
      },
      refusals: { create: { 409: { description: gatewayMessages.providerTaken } } },
      // A kept key stores a digest of its body, and this body carries the gateway's secret key.
      createWithoutKey: { none: 'a second gateway of the provider is refused (409)' },
    }),
  ];
}
