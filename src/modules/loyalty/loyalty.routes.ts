import Joi from 'joi';
import type { PageRequest } from '../../platform/db/keyset';
import { idempotencyKeyHeader } from '../../platform/http/idempotency-key';
import { PAGE_HEADERS, sendPage } from '../../platform/http/pagination';
import { settingsRoutes } from '../../platform/http/settings-routes';
import { defineHotelRoute, type RouteDefinition } from '../../platform/http/route';
import { HOTEL_MANAGEMENT, type Role } from '../../platform/http/roles';
import { idParams } from '../../platform/http/schemas';
import {
  accountSchema,
  adjustmentBody,
  entriesQuery,
  entrySchema,
  accrualSchema,
  redemptionBody,
  redemptionSchema,
  reversalParams,
  reversalSchema,
  settingsChanges,
  settingsSchema,
} from './loyalty.schemas';
import type { Adjustment, LoyaltyService } from './loyalty.service';
import type { LoyaltySettingsChanges } from './loyalty.types';

interface Id {
  slug: string;
  id: string;
}

interface RedemptionId extends Id {
  entryId: string;
}

/** The desk tells guests about the programme and spends their points; management runs it. */
const LOYALTY_READERS: readonly Role[] = ['hotel_admin', 'manager', 'receptionist'];

const tags = ['Loyalty'];
const settingsPath = '/api/hotels/:slug/loyalty/settings';
const accountPath = '/api/hotels/:slug/guests/:id/loyalty';
const redemptionsPath = '/api/hotels/:slug/bookings/:id/loyalty-redemptions';

export function loyaltyRoutes(loyalty: LoyaltyService): RouteDefinition[] {
  return [
    ...settingsRoutes<LoyaltySettingsChanges>({
      path: settingsPath,
      subject: 'loyalty programme',
      tags,
      readers: LOYALTY_READERS,
      writers: HOTEL_MANAGEMENT,
      schema: settingsSchema,
      changes: settingsChanges,
      answer: 'The programme with its tiers',
      changeDescription:
        '`enabled` (off by default), `tier_basis` (`nights` or `spend` of checked-out stays in the last 365 days), ' +
        '`point_value` (money one point takes off a bill, 0.01 to 10000), `expiry_months` (1 to 120, null: never), ' +
        '`tiers` (replaces the list: 1 to 10, thresholds unique, exactly one at 0; `earn_rate` points per 100 of a ' +
        "stay's cost, 0 to 1000). A list that breaks a bound is refused (422) and nothing changes.",
      refusals: { 422: { description: 'The tiers break a bound (`loyalty_tiers_invalid`)' } },
      settings: loyalty.settings,
    }),
    defineHotelRoute<unknown, unknown, Id>({
      method: 'get',
      path: accountPath,
      summary: "A guest's loyalty account",
      description:
        'The tier (from the nights or money of their stays checked out in the last 365 days while the programme ' +
        'ran), the balance (the sum of the ledger) and what it is worth, the next points to expire, and what is ' +
        'still needed for the next tier. Points past their date are written off first (as a redemption does), so ' +
        'the balance is what can be spent and `next_expiry` is always ahead.',
      tags,
      access: { kind: 'hotel', roles: LOYALTY_READERS },
      request: { params: idParams },
      responses: { 200: { description: 'The account', schema: accountSchema }, 404: { description: 'No such guest' } },
      async handler({ hotel, params, res }) {
        res.json(await loyalty.account(hotel.id, params.id));
      },
    }),
    defineHotelRoute<unknown, PageRequest, Id>({
      method: 'get',
      path: `${accountPath}/entries`,
      summary: "A guest's points ledger",
      description:
        'Newest first. Each change with its reason: `stay` (earned on `booking_id`, at `tier`), `redemption` ' +
        '(negative: spent on `booking_id`, `amount` taken off its bill; positive: given back), `expiry` (what was ' +
        'left of `expired_entry_id` at its date, oldest points first), `adjustment` (by a manager, with `note`).',
      tags,
      access: { kind: 'hotel', roles: LOYALTY_READERS },
      request: { params: idParams, query: entriesQuery },
      responses: {
        200: { description: 'Ledger rows', schema: Joi.array().items(entrySchema), headers: PAGE_HEADERS },
        404: { description: 'No such guest' },
      },
      async handler({ hotel, params, query, res }) {
        sendPage(res, await loyalty.entries(hotel.id, params.id, query));
      },
    }),
    defineHotelRoute<Adjustment, unknown, Id>({
      method: 'post',
      path: `${accountPath}/adjustments`,
      summary: "Correct a guest's points",
      description:
        'A manager adds (expiring like earned points) or takes off points with a required `note`; a debit beyond ' +
        'the balance is refused (422 `loyalty_insufficient_points`). Accepts `Idempotency-Key`.',
      tags,
      access: { kind: 'hotel', roles: HOTEL_MANAGEMENT },
      request: { params: idParams, body: adjustmentBody, headers: idempotencyKeyHeader },
      responses: {
        201: { description: 'The ledger row', schema: entrySchema },
        404: { description: 'No such guest' },
        422: { description: 'More points taken off than the guest holds' },
      },
      async handler({ hotel, params, body, auth, headers, res }) {
        const result = await loyalty.adjust(hotel.id, params.id, body, auth.sub, headers['idempotency-key']);
        res.status(result.status).json(result.body);
      },
    }),
    defineHotelRoute<{ points: number }, unknown, Id>({
      method: 'post',
      path: redemptionsPath,
      summary: "Pay part of a stay with the primary guest's points",
      description:
        "Takes `points` off the booking's primary guest's balance and `points × point_value` off the booking's bill " +
        '(a `loyalty_redemption` line; `balance` falls by it) in one transaction. Refused (422): the programme off ' +
        '(`loyalty_programme_off`), no guest profile (`loyalty_no_guest`), more points than the balance ' +
        '(`loyalty_insufficient_points`), a cancelled or checked-out booking (`booking_closed`), a discount beyond ' +
        'what the stay costs (`discount_exceeds_due`). Accepts `Idempotency-Key`.',
      tags,
      access: { kind: 'hotel', roles: LOYALTY_READERS },
      request: { params: idParams, body: redemptionBody, headers: idempotencyKeyHeader },
      responses: {
        201: { description: 'Redeemed', schema: redemptionSchema },
        404: { description: 'No such booking' },
        422: { description: 'A rule refused it' },
      },
      async handler({ hotel, params, body, auth, headers, res }) {
        const result = await loyalty.redeem(hotel.id, params.id, body.points, auth.sub, headers['idempotency-key']);
        res.status(result.status).json(result.body);
      },
    }),
    defineHotelRoute<unknown, unknown, RedemptionId>({
      method: 'post',
      path: `${redemptionsPath}/:entryId/reversal`,
      summary: 'Give back the points of a redemption',
      description:
        'For a booking cancelled after points were spent on it, or a redemption made by mistake: a positive ' +
        '`redemption` row naming the one it reverses (the points come back and expire after the programme period ' +
        'again) and, on a booking still open, the discount taken back off its bill. Once per redemption (409 ' +
        '`loyalty_already_reversed`); a checked-out stay is settled (422 `booking_closed`).',
      tags,
      access: { kind: 'hotel', roles: LOYALTY_READERS },
      request: { params: reversalParams },
      responses: {
        201: { description: 'Given back', schema: reversalSchema },
        404: { description: 'No such redemption on this booking' },
        409: { description: 'Already given back' },
        422: { description: 'The stay is checked out' },
      },
      async handler({ hotel, params, auth, res }) {
        res.status(201).json(await loyalty.reverse(hotel.id, params.id, params.entryId, auth.sub));
      },
    }),
    defineHotelRoute<unknown, unknown, Id>({
      method: 'post',
      path: '/api/hotels/:slug/bookings/:id/loyalty-accrual',
      summary: 'Credit a checked-out stay with its points',
      description:
        'The booking workflow credits every stay at check-out; the desk uses this when that found nothing to credit ' +
        '(the guest profile was linked after check-out, or the programme was turned on since). Once per stay like ' +
        'the workflow (`already_accrued`); only stays checked out within the last 365 days. `no_programme` and ' +
        '`not_eligible` (not checked out, no primary guest profile, nothing spent, too long ago) say why not.',
      tags,
      access: { kind: 'hotel', roles: LOYALTY_READERS },
      request: { params: idParams },
      responses: {
        200: { description: "The outcome and the stay's ledger row", schema: accrualSchema },
        404: { description: 'No such booking' },
      },
      async handler({ hotel, params, res }) {
        res.json(await loyalty.creditStay(hotel.id, params.id));
      },
    }),
  ];
}
