import Joi from 'joi';
import type { PageRequest } from '../../platform/db/keyset';
import { PAGE_HEADERS, sendPage } from '../../platform/http/pagination';
import type { Role } from '../../platform/http/roles';
import { defineHotelRoute, type RouteDefinition } from '../../platform/http/route';
import { idParams, slugParams } from '../../platform/http/schemas';
import { fiscalMessages } from './fiscal.messages';
import { receiptListQuery, receiptSchema } from './fiscal.schemas';
import type { FiscalService } from './fiscal.service';
import type { FiscalReceiptFilter } from './fiscal.types';

/** Who takes money at the desk and who answers for it. */
const READERS: readonly Role[] = ['hotel_admin', 'manager', 'accountant', 'receptionist'];
const tags = ['Fiscal receipts'];
const RECEIPTS = '/api/hotels/:slug/fiscal-receipts';

export function fiscalRoutes(fiscal: FiscalService): RouteDefinition[] {
  return [
    defineHotelRoute<unknown, FiscalReceiptFilter & PageRequest>({
      method: 'get',
      path: RECEIPTS,
      summary: 'List fiscal receipts',
      description:
        'Receipts printed (or to be printed) at the desks’ fiscal registers for money taken there, newest first. ' +
        '`failed` ones carry `error_code` and `error_message` (what the register or the desk said). Filters: ' +
        '`status`, `source_kind`, and the day of `created_at` (`from`/`to`, calendar dates in the hotel time zone, ' +
        'both inclusive, at most two years apart).',
      tags,
      access: { kind: 'hotel', roles: READERS },
      request: { params: slugParams, query: receiptListQuery },
      responses: {
        200: { description: 'Receipts, newest first', schema: Joi.array().items(receiptSchema), headers: PAGE_HEADERS },
      },
      async handler({ hotel, query, res }) {
        sendPage(res, await fiscal.list(hotel.id, query));
      },
    }),
    defineHotelRoute<unknown, unknown, { id: string }>({
      method: 'get',
      path: `${RECEIPTS}/:id`,
      summary: 'Read a fiscal receipt',
      description: 'With the ATOL task sent to the register and, once printed, the fiscal attributes it returned.',
      tags,
      access: { kind: 'hotel', roles: READERS },
      request: { params: idParams },
      responses: {
        200: { description: 'The receipt', schema: receiptSchema },
        404: { description: fiscalMessages.receiptNotFound },
      },
      async handler({ hotel, params, res }) {
        res.json(await fiscal.byId(hotel.id, params.id));
      },
    }),
  ];
}
