import { defineHotelRoute, type RouteDefinition } from '../../platform/http/route';
import { HOTEL_MANAGEMENT } from '../../platform/http/roles';
import { idParams, slugParams } from '../../platform/http/schemas';
import { MONEY_DESK, MONEY_READERS } from '../payments';
import {
  bookingFoliosSchema,
  closeDayBody,
  companyFolioBody,
  folioLineParams,
  folioSchema,
  lineSchema,
  manualLineBody,
  moveLineBody,
  moveSchema,
  settingsBody,
  settingsSchema,
  settlementBody,
  settlementSchema,
} from './folios.schemas';
import type { FoliosService } from './folios.service';
import type { CompanyFolioInput, ManualLineInput, SettlementDecision } from './folios.types';

const tags = ['Folios'];
const folioPath = '/api/hotels/:slug/bookings/:id/folio';

/** A booking's folios: read by those who see its payments, written by the money desk; days closed by management. */
export function foliosRoutes(folios: FoliosService): RouteDefinition[] {
  return [
    defineHotelRoute<unknown, unknown, { id: string }>({
      method: 'get',
      path: folioPath,
      summary: 'The booking’s folios: lines, balances, moves and check-out decisions',
      description:
        'Lines are signed: what the payer owes is positive (nights, tourist tax, room service, services, refunds), ' +
        'what settles it negative (payments, discounts). A folio’s `balance` is the sum of its lines; the top ' +
        '`balance` that of every folio of the booking. The guest folio is made the first time it is needed.',
      tags,
      access: { kind: 'hotel', roles: MONEY_READERS },
      request: { params: idParams },
      responses: {
        200: { description: 'The folios', schema: bookingFoliosSchema },
        404: { description: 'No such booking' },
      },
      async handler({ hotel, params, res }) {
        res.json(await folios.view(hotel.id, params.id));
      },
    }),
    defineHotelRoute<ManualLineInput, unknown, { id: string }>({
      method: 'post',
      path: `${folioPath}/lines`,
      summary: 'Post a line by hand (a service, a discount, a correction)',
      description:
        'Posted on the hotel’s current business date (never a closed one). A correction of a closed day’s line is ' +
        'a new line naming it in `corrects_line_id`. With `source`, a retry posts nothing and answers the first ' +
        'line (200); a new line is 201.',
      tags,
      access: { kind: 'hotel', roles: MONEY_DESK },
      request: { params: idParams, body: manualLineBody },
      responses: {
        201: { description: 'Posted', schema: lineSchema },
        200: { description: 'Posted before with this `source`', schema: lineSchema },
        400: { description: 'Invalid line, a sign against its kind, a folio or line not of this booking' },
        404: { description: 'No such booking' },
        409: { description: 'The `source` was used for a line of another booking' },
      },
      async handler({ hotel, params, body, auth, res }) {
        const posted = await folios.addManual(hotel.id, params.id, body, auth.sub);
        res.status(posted.created ? 201 : 200).json(posted.line);
      },
    }),
    defineHotelRoute<CompanyFolioInput, unknown, { id: string }>({
      method: 'post',
      path: `${folioPath}/companies`,
      summary: 'Split the bill: a folio of the booking for a company paying part of it',
      tags,
      access: { kind: 'hotel', roles: MONEY_DESK },
      request: { params: idParams, body: companyFolioBody },
      responses: {
        201: { description: 'The company’s folio', schema: folioSchema },
        404: { description: 'No such booking' },
        422: { description: 'The booking has as many company folios as it may' },
      },
      async handler({ hotel, params, body, auth, res }) {
        res.status(201).json(await folios.addCompanyFolio(hotel.id, params.id, body, auth.sub));
      },
    }),
    defineHotelRoute<{ folio_id: string }, unknown, { id: string; lineId: string }>({
      method: 'post',
      path: `${folioPath}/lines/:lineId/move`,
      summary: 'Move a line to another folio of the booking (recorded)',
      tags,
      access: { kind: 'hotel', roles: MONEY_DESK },
      request: { params: folioLineParams, body: moveLineBody },
      responses: {
        201: { description: 'The move', schema: moveSchema },
        400: { description: 'The folio is not of this booking' },
        404: { description: 'No such booking or line' },
        409: { description: 'The line belongs to a closed business day, or is on that folio already' },
      },
      async handler({ hotel, params, body, auth, res }) {
        res.status(201).json(await folios.moveLine(hotel.id, params.id, params.lineId, body.folio_id, auth.sub));
      },
    }),
    defineHotelRoute<{ decision: SettlementDecision; note?: string }, unknown, { id: string }>({
      method: 'post',
      path: `${folioPath}/settlement`,
      summary: 'Record the desk’s decision on the guest folio’s balance before check-out',
      description:
        'Recorded with the guest folio’s balance now. Where the hotel asks for it (`checkout_needs_settlement`), a ' +
        'check-out with a balance other than zero is 409 `folio_unsettled` until a decision for that balance is recorded.',
      tags,
      access: { kind: 'hotel', roles: MONEY_DESK },
      request: { params: idParams, body: settlementBody },
      responses: {
        201: { description: 'Recorded', schema: settlementSchema },
        404: { description: 'No such booking' },
      },
      async handler({ hotel, params, body, auth, res }) {
        res.status(201).json(await folios.settle(hotel.id, params.id, body, auth.sub));
      },
    }),
    defineHotelRoute({
      method: 'get',
      path: '/api/hotels/:slug/folio-settings',
      summary: 'The hotel’s books: the last closed business day, and whether check-out needs a decision on a balance',
      tags,
      access: { kind: 'hotel', roles: MONEY_READERS },
      request: { params: slugParams },
      responses: { 200: { description: 'Settings', schema: settingsSchema } },
      async handler({ hotel, res }) {
        res.json(await folios.settings.get(hotel.id));
      },
    }),
    defineHotelRoute<{ checkout_needs_settlement: boolean }>({
      method: 'patch',
      path: '/api/hotels/:slug/folio-settings',
      summary: 'Whether a check-out with a balance needs the desk’s recorded decision (off by default)',
      tags,
      access: { kind: 'hotel', roles: HOTEL_MANAGEMENT },
      request: { params: slugParams, body: settingsBody },
      responses: { 200: { description: 'Settings', schema: settingsSchema } },
      async handler({ hotel, body, res }) {
        res.json(await folios.settings.change(hotel.id, body));
      },
    }),
    defineHotelRoute<{ date: string }>({
      method: 'post',
      path: '/api/hotels/:slug/folio-settings/close-day',
      summary: 'Close the business days through a date by hand (a hotel without the night audit)',
      description:
        'Lines of a closed day are never changed, moved or deleted; postings go to the next open day. Never ' +
        'backwards (409), never beyond the current business date (400); refused while the hotel’s night audit is ' +
        'on (409 `night_audit_enabled`: the audit closes each day).',
      tags,
      access: { kind: 'hotel', roles: HOTEL_MANAGEMENT },
      request: { params: slugParams, body: closeDayBody },
      responses: {
        200: { description: 'Settings', schema: settingsSchema },
        400: { description: 'A day not yet come' },
        409: { description: 'That day is closed already, or the night audit closes the days' },
      },
      async handler({ hotel, body, res }) {
        res.json(await folios.settings.closeByHand(hotel.id, body.date));
      },
    }),
  ];
}
