import Joi from 'joi';
import type { PageRequest } from '../../platform/db/keyset';
import { idempotencyKeyHeader } from '../../platform/http/idempotency-key';
import { PAGE_HEADERS, pageQueryKeys, sendPage } from '../../platform/http/pagination';
import { defineHotelRoute, type RouteDefinition } from '../../platform/http/route';
import { idParams, slugParams } from '../../platform/http/schemas';
import {
  createDepositBody,
  depositHistorySchema,
  depositSchema,
  minibarSchema,
  refundBody,
  releaseBody,
} from './deposits.schemas';
import { MONEY_DESK, MONEY_READERS } from '../payments';
import type { DepositInput, DepositsService } from './deposits.service';
import type { Deduction } from './deposits.types';

type Params = { id: string };

export function depositsRoutes(deposits: DepositsService): RouteDefinition[] {
  const tags = ['Deposits'];
  const depositPath = '/api/hotels/:slug/bookings/:id/deposit';
  const noDeposit = { description: 'No such booking, or it has no deposit' };
  const busy = { description: 'An operation on the deposit is still being carried out' };
  return [
    defineHotelRoute<unknown, PageRequest>({
      method: 'get',
      path: '/api/hotels/:slug/deposits',
      summary: 'Deposit history',
      description: "The hotel's deposits, newest first, with the guest's name and the room.",
      tags,
      access: { kind: 'hotel', roles: MONEY_READERS },
      request: { params: slugParams, query: Joi.object(pageQueryKeys) },
      responses: {
        200: { description: 'Deposits', schema: Joi.array().items(depositHistorySchema), headers: PAGE_HEADERS },
      },
      async handler({ hotel, query, res }) {
        sendPage(res, await deposits.history(hotel.id, query));
      },
    }),
    defineHotelRoute<DepositInput, unknown, Params>({
      method: 'post',
      path: depositPath,
      summary: 'Take a deposit for a booking',
      description:
        "`hold` holds the amount on the guest's card, `yookassa_charge` charges it in full, `cash` records cash taken " +
        'at the desk (`paid_cash` at once). A card deposit starts as `hold_created`: its `confirmation_url` (the page ' +
        'where the guest pays) appears within seconds; poll every 5 s (or follow `deposit_updated` on `/ws`) until ' +
        '`hold_confirmed` (or `paid` for a charge) with `card_last4` and `card_brand`. A `hold` for a stay longer than ' +
        "the hotel's long-stay threshold is taken as `yookassa_charge` when that setting is on (a hold lives 7 days). " +
        'Accepts `Idempotency-Key`.',
      tags,
      access: { kind: 'hotel', roles: MONEY_DESK },
      request: { params: idParams, body: createDepositBody, headers: idempotencyKeyHeader },
      responses: {
        201: { description: 'The deposit', schema: depositSchema },
        404: { description: 'No such booking' },
        409: { description: 'The booking has a deposit that is not closed yet' },
        422: { description: 'The booking is cancelled or checked out, or online payment is not configured' },
      },
      async handler({ hotel, params, body, auth, headers, res }) {
        const actor = { userId: auth.sub, hotelSlug: hotel.slug };
        const result = await deposits.create(hotel.id, params.id, body, actor, headers['idempotency-key']);
        res.status(result.status).json(result.body);
      },
    }),
    defineHotelRoute<unknown, unknown, Params>({
      method: 'get',
      path: depositPath,
      summary: "The booking's deposit",
      description: 'Its latest deposit with its refunds: the status the desk polls every 5 s while `hold_created`.',
      tags,
      access: { kind: 'hotel', roles: MONEY_READERS },
      request: { params: idParams },
      responses: { 200: { description: 'The deposit', schema: depositSchema }, 404: noDeposit },
      async handler({ hotel, params, res }) {
        res.json(await deposits.current(hotel.id, params.id));
      },
    }),
    defineHotelRoute<unknown, unknown, Params>({
      method: 'delete',
      path: depositPath,
      summary: 'Cancel a deposit',
      description:
        'Only while `hold_created` (the guest has not paid) or `paid_cash` (the cash is handed back). Should the ' +
        'guest still pay a cancelled card deposit, the money goes straight back to the card.',
      tags,
      access: { kind: 'hotel', roles: MONEY_DESK },
      request: { params: idParams },
      responses: {
        200: { description: 'The cancelled deposit', schema: depositSchema },
        404: noDeposit,
        409: busy,
        422: { description: 'Not cancellable in its status' },
      },
      async handler({ hotel, params, auth, res }) {
        res.json(await deposits.cancel(hotel.id, params.id, { userId: auth.sub, hotelSlug: hotel.slug }));
      },
    }),
    defineHotelRoute<{ items: Deduction[] }, unknown, Params>({
      method: 'post',
      path: `${depositPath}/release`,
      summary: 'Release a deposit',
      description:
        'Gives the deposit back, keeping the deductions in `items` (presets, minibar lines from `GET …/deposit/' +
        'minibar`, or free amounts): a hold is captured for their sum and the rest released, a charge refunded but ' +
        'for them, cash recorded. Answers 202 with `pending_operation: release`; the deposit becomes `released` ' +
        'within seconds and the guest receives the itemized statement by e-mail. Refused (422) before the booking is ' +
        '`checked_out` while `release_requires_checkout` is on, and when the deductions exceed the deposit.',
      tags,
      access: { kind: 'hotel', roles: MONEY_DESK },
      request: { params: idParams, body: releaseBody },
      responses: {
        202: { description: 'The deposit, its release under way', schema: depositSchema },
        404: noDeposit,
        409: busy,
        422: { description: 'Not releasable now (status, checkout, or deductions above the deposit)' },
      },
      async handler({ hotel, params, body, auth, res }) {
        const actor = { userId: auth.sub, hotelSlug: hotel.slug };
        res.status(202).json(await deposits.release(hotel.id, params.id, body.items, actor));
      },
    }),
    defineHotelRoute<{ amount?: string }, unknown, Params>({
      method: 'post',
      path: `${depositPath}/refund`,
      summary: 'Refund a charged deposit',
      description:
        'A charged deposit (`yookassa_charge`, or a hold the hotel captured) is refunded in full without `amount`, ' +
        'or in part: `partially_refunded` while some remains, `refunded` after; `refunded_amount` grows. Never more ' +
        'than was paid and not yet refunded (422). Answers 202; the refund appears in `refunds` and completes within ' +
        'seconds. Accepts `Idempotency-Key`.',
      tags,
      access: { kind: 'hotel', roles: MONEY_DESK },
      request: { params: idParams, body: refundBody, headers: idempotencyKeyHeader },
      responses: {
        202: { description: 'The deposit, its refund under way', schema: depositSchema },
        404: noDeposit,
        409: busy,
        422: { description: 'Not refundable, or more than may be refunded' },
      },
      async handler({ hotel, params, body, auth, headers, res }) {
        const actor = { userId: auth.sub, hotelSlug: hotel.slug };
        const key = headers['idempotency-key'];
        const result = await deposits.refund(hotel.id, params.id, body.amount, actor, key);
        res.status(result.status).json(result.body);
      },
    }),
    defineHotelRoute<unknown, unknown, Params>({
      method: 'get',
      path: `${depositPath}/minibar`,
      summary: "The stay's minibar consumption",
      description: 'What the minibar checks of the stay recorded, with the total: candidates for release deductions.',
      tags,
      access: { kind: 'hotel', roles: MONEY_READERS },
      request: { params: idParams },
      responses: {
        200: { description: 'Consumption', schema: minibarSchema },
        404: { description: 'No such booking' },
      },
      async handler({ hotel, params, res }) {
        res.json(await deposits.minibar(hotel.id, params.id));
      },
    }),
  ];
}
