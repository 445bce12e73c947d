import Joi from 'joi';
import { defineHotelRoute, type RouteDefinition } from '../../platform/http/route';
import type { Role } from '../../platform/http/roles';
import { idParams, slugParams } from '../../platform/http/schemas';
import { dllInfoResult } from '../agents';
import { cancelCardBody, cardIssuanceSchema, cardsQuery, dllInfoQuery, issueCardBody } from './cards.schemas';
import { cardMessages } from './cards.messages';
import type { CardsService } from './cards.service';
import type { IssueCardInput } from './cards.types';

/** Cards are issued and voided at the desk. */
const DESK: readonly Role[] = ['hotel_admin', 'manager', 'receptionist'];
const base = '/api/hotels/:slug/lockvendor';
const tags = ['Door locks'];
const access = { kind: 'hotel', roles: DESK } as const;
const notFound = { 404: { description: cardMessages.notFound } };

export function cardsRoutes(cards: CardsService): RouteDefinition[] {
  return [
    defineHotelRoute<IssueCardInput>({
      method: 'post',
      path: `${base}/issue-card`,
      summary: 'Issue a door-lock card for a booking',
      description:
        'Records the issuance and has the desk’s agent write the card (workflow `card:<id>`, searchable by booking). ' +
        'Answered at once with status `pending`; `card_issuance_updated` (or `GET …/cards/{id}`) tells `written` with ' +
        'the card number, or `failed` with the encoder’s or lock cloud’s reason. 422 when the booking is not ' +
        'confirmed or checked in, a room has no lock, the desk has no encoder port, or the validity is outside the stay.',
      tags,
      access,
      request: { params: slugParams, body: issueCardBody },
      responses: {
        202: { description: 'Being written', schema: cardIssuanceSchema },
        404: { description: 'No such booking or workstation in this hotel' },
        422: { description: 'Refused by a rule (see description)' },
      },
      async handler({ hotel, auth, body, res }) {
        res.status(202).json(await cards.issue(hotel.id, body, { userId: auth.sub }));
      },
    }),
    defineHotelRoute<unknown, { workstation_id: string }>({
      method: 'get',
      path: `${base}/dll-info`,
      summary: "The desk's card encoder DLL",
      description:
        'Asks the agent of `workstation_id` for the version of its card encoder DLL and whether an encoder answers on ' +
        'the workstation’s `ttlock_com_port` (422 `encoder_port_missing` without one; 409/502/504 from the desk).',
      tags,
      access,
      request: { params: slugParams, query: dllInfoQuery },
      responses: {
        200: { description: 'The DLL and the encoder', schema: dllInfoResult },
        404: { description: 'No such workstation in this hotel' },
        409: { description: 'The desk is offline' },
        422: { description: 'No encoder port set for the desk' },
        502: { description: 'The desk refused (e.g. `encoder_not_found`)' },
        504: { description: 'The desk did not answer' },
      },
      async handler({ hotel, query, res }) {
        res.json(await cards.dllInfo(hotel.id, query.workstation_id));
      },
    }),
    defineHotelRoute<unknown, { booking_id: string }>({
      method: 'get',
      path: `${base}/cards`,
      summary: 'The cards issued for a booking',
      description: 'Newest first (200 at most).',
      tags,
      access,
      request: { params: slugParams, query: cardsQuery },
      responses: { 200: { description: 'Its cards', schema: Joi.array().items(cardIssuanceSchema) } },
      async handler({ hotel, query, res }) {
        res.json(await cards.forBooking(hotel.id, query.booking_id));
      },
    }),
    defineHotelRoute<unknown, unknown, { id: string }>({
      method: 'get',
      path: `${base}/cards/:id`,
      summary: 'A card issuance',
      tags,
      access,
      request: { params: idParams },
      responses: { 200: { description: 'The issuance', schema: cardIssuanceSchema }, ...notFound },
      async handler({ hotel, params, res }) {
        res.json(await cards.get(hotel.id, params.id));
      },
    }),
    defineHotelRoute<{ workstation_id: string }, unknown, { id: string }>({
      method: 'post',
      path: `${base}/cards/:id/cancel`,
      summary: 'Cancel a written card',
      description:
        'Put the card on the encoder of `workstation_id`: its agent voids it and reports its number (409 ' +
        '`other_card` when it is another card, `card_not_written` unless written; 409/502/504 from the desk as for ' +
        'any desk command).',
      tags,
      access,
      request: { params: idParams, body: cancelCardBody },
      responses: {
        200: { description: 'Cancelled', schema: cardIssuanceSchema },
        ...notFound,
        409: { description: 'Not written, another card, or the desk offline' },
        502: { description: 'The desk refused (e.g. `no_card`)' },
        504: { description: 'The desk did not answer' },
      },
      async handler({ hotel, auth, params, body, res }) {
        res.json(await cards.cancel(hotel.id, params.id, body.workstation_id, { userId: auth.sub }));
      },
    }),
  ];
}
