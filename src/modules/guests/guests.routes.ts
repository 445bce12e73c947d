import Joi from 'joi';
import type { PageRequest } from '../../platform/db/keyset';
import { PAGE_HEADERS, sendPage } from '../../platform/http/pagination';
import { defineHotelRoute, type RouteDefinition } from '../../platform/http/route';
import { HOTEL_MANAGEMENT, type Role } from '../../platform/http/roles';
import { idParams, okResponse, slugParams } from '../../platform/http/schemas';
import type { AccessTokenPayload } from '../../platform/http/access-token';
import { blacklistBody, createGuestBody, guestListQuery, guestSchema, updateGuestBody } from './guests.schemas';
import type { GuestsService } from './guests.service';
import type { BlacklistInput, GuestFilter, GuestInput, GuestPatch, Viewer } from './guests.types';

const tags = ['Guests'];

/** Who reads guest profiles: every member of staff but housekeeping and maintenance. */
const READ_ROLES: readonly Role[] = ['hotel_admin', 'manager', 'receptionist', 'accountant', 'security'];
/** Who creates and edits them: the front desk and management. */
const WRITE_ROLES: readonly Role[] = ['hotel_admin', 'manager', 'receptionist'];

const documentsNote =
  'Passport fields (`passport_series`, `passport_number`, `passport_issued_by`, `passport_issue_date`) are stored ' +
  'encrypted and returned in clear only to hotel_admin, manager and receptionist; for other roles they are null ' +
  'and `passport_on_file` tells whether any is stored.';
const notFound = { description: 'No such guest in this hotel' };

const viewerOf = (auth: AccessTokenPayload): Viewer => ({ userId: auth.sub, role: auth.role });

export function guestsRoutes(guests: GuestsService): RouteDefinition[] {
  return [
    defineHotelRoute<unknown, GuestFilter & PageRequest>({
      method: 'get',
      path: '/api/hotels/:slug/guests',
      summary: 'List or search guests',
      description:
        '`q` searches: text made of phone characters (digits, spaces, `+ ( ) . -`) with at least 3 digits matches ' +
        "the phone whatever its formatting: a whole number by its E.164 form, the hotel's country for one typed " +
        'without its code (`+7 (999) 123-45-67` = `8 999 123-45-67` = `79991234567`), a part by its digits; other ' +
        'text is split into words, each of which must match part of the last, first or middle name or of the ' +
        'e-mail, case-insensitively (ё = е). `blacklisted` filters. By last name and first name, a page at a time. ' +
        documentsNote,
      tags,
      access: { kind: 'hotel', roles: READ_ROLES },
      request: { params: slugParams, query: guestListQuery },
      responses: { 200: { description: 'The guests', schema: Joi.array().items(guestSchema), headers: PAGE_HEADERS } },
      async handler({ hotel, auth, query, res }) {
        sendPage(res, await guests.list(hotel.id, viewerOf(auth), query));
      },
    }),
    defineHotelRoute<GuestInput>({
      method: 'post',
      path: '/api/hotels/:slug/guests',
      summary: 'Create a guest',
      description:
        '`last_name` and `first_name` are required (1–100 characters). `phone` 5–30 characters (digits, spaces, ' +
        '`+ ( ) . -`), `email` stored lower-cased, `birth_date` a date in the past and `passport_issue_date` a date ' +
        'not in the future (YYYY-MM-DD). `is_blacklisted` is set only with `POST /guests/{id}/blacklist`. ' +
        documentsNote,
      tags,
      access: { kind: 'hotel', roles: WRITE_ROLES },
      request: { params: slugParams, body: createGuestBody },
      responses: { 201: { description: 'Created', schema: guestSchema } },
      async handler({ hotel, auth, body, res }) {
        res.status(201).json(await guests.create(hotel.id, viewerOf(auth), body));
      },
    }),
    defineHotelRoute<unknown, unknown, { id: string }>({
      method: 'get',
      path: '/api/hotels/:slug/guests/:id',
      summary: 'Read a guest',
      description: documentsNote,
      tags,
      access: { kind: 'hotel', roles: READ_ROLES },
      concurrency: 'if-match',
      request: { params: idParams },
      responses: { 200: { description: 'The guest', schema: guestSchema }, 404: notFound },
      async handler({ hotel, auth, params, res }) {
        res.json(await guests.get(hotel.id, viewerOf(auth), params.id));
      },
    }),
    defineHotelRoute<GuestPatch, unknown, { id: string }>({
      method: 'patch',
      path: '/api/hotels/:slug/guests/:id',
      summary: 'Update a guest',
      description:
        'The fields given change; `null` (or `""`) empties an optional field, passport fields included. ' +
        documentsNote,
      tags,
      access: { kind: 'hotel', roles: WRITE_ROLES },
      concurrency: 'if-match',
      request: { params: idParams, body: updateGuestBody },
      responses: { 200: { description: 'Updated', schema: guestSchema }, 404: notFound },
      async handler({ hotel, auth, params, body, expectedVersion, res }) {
        res.json(await guests.update(hotel.id, viewerOf(auth), params.id, body, expectedVersion));
      },
    }),
    defineHotelRoute<unknown, unknown, { id: string }>({
      method: 'delete',
      path: '/api/hotels/:slug/guests/:id',
      summary: 'Delete a guest',
      description: 'Refused with 409 while bookings name the guest.',
      tags,
      access: { kind: 'hotel', roles: WRITE_ROLES },
      concurrency: 'if-match',
      request: { params: idParams },
      responses: {
        200: { description: 'Deleted', schema: okResponse },
        404: notFound,
        409: { description: 'The guest is linked to bookings' },
      },
      async handler({ hotel, params, expectedVersion, res }) {
        await guests.remove(hotel.id, params.id, expectedVersion);
        res.json({ ok: true });
      },
    }),
    defineHotelRoute<BlacklistInput, unknown, { id: string }>({
      method: 'post',
      path: '/api/hotels/:slug/guests/:id/blacklist',
      summary: 'Blacklist a guest, or lift the blacklisting',
      description:
        '`{ "is_blacklisted": true, "reason": "..." }` blacklists (the reason is required) and records when and by ' +
        'whom (`blacklisted_at`, `blacklisted_by`); `{ "is_blacklisted": false }` lifts it and clears the three. ' +
        'Bookings of a blacklisted guest are flagged to staff, and the public widget refuses them.',
      tags,
      access: { kind: 'hotel', roles: HOTEL_MANAGEMENT },
      concurrency: 'if-match',
      request: { params: idParams, body: blacklistBody },
      responses: { 200: { description: 'The guest', schema: guestSchema }, 404: notFound },
      async handler({ hotel, auth, params, body, expectedVersion, res }) {
        res.json(await guests.setBlacklist(hotel.id, viewerOf(auth), params.id, body, expectedVersion));
      },
    }),
  ];
}
