import Joi from 'joi';
import type { Request } from 'express';
import { ForbiddenError, NotFoundError, ValidationError } from '../../platform/errors';
import { PAGE_HEADERS, sendPage } from '../../platform/http/pagination';
import { settingsRoutes } from '../../platform/http/settings-routes';
import { defineHotelRoute, defineRoute, type RouteDefinition } from '../../platform/http/route';
import type { Role } from '../../platform/http/roles';
import { slugParams } from '../../platform/http/schemas';
import type { PageRequest } from '../../platform/db/keyset';
import { tokenInvalid, tvMessages } from './tv.messages';
import {
  issuedTokenSchema,
  logQuery,
  pollAnswerSchema,
  pollLogEntrySchema,
  pollLogQuery,
  pollQuery,
  pushLogSchema,
  settingsSchema,
  testCheckinBody,
  testResultSchema,
  updateSettingsBody,
} from './tv.schemas';
import type { TvService } from './tv.service';
import type { TvSettingsInput } from './tv.types';
import { answersNewSecret } from '../../platform/http/idempotency-key';

const READERS: readonly Role[] = ['hotel_admin', 'manager', 'receptionist'];
const WRITERS: readonly Role[] = ['hotel_admin', 'manager'];

const base = '/api/hotels/:slug/tv-integration';
const tags = ['TV integration'];

/** Polls per address and minute: a TV system polls every few seconds; a guesser of tokens is stopped long before. */
const POLLS_PER_MINUTE = 600;

/** `Authorization: Bearer <token>` or `?token=` (TV middleware often can only set a URL); the header wins. */
function pollToken(req: Request): string | undefined {
  const header = /^Bearer\s+(\S+)$/i.exec(req.get('authorization') ?? '')?.[1];
  const query = typeof req.query.token === 'string' ? req.query.token : undefined;
  return header ?? query;
}

export function tvRoutes(tv: TvService): RouteDefinition[] {
  const pollRoute = (method: RouteDefinition['method']) =>
    defineRoute({
      method,
      path: '/tvpms',
      summary: `The TV system polls the stays in house (${method.toUpperCase()})`,
      description:
        'For the hotel TV system, with any method: authenticated by the hotel `tl_token`, sent as ' +
        '`Authorization: Bearer <token>` or `?token=<token>`, and `?hotel=<slug>` naming the hotel (required with a ' +
        "vendor's own token, which is kept per hotel; a token issued here names its hotel itself). Answers the stays " +
        'checked in now whose room is mapped to a TV room number (`reservations: []` while the integration is off). ' +
        '401 `tv_token_invalid` for a missing or wrong token (or one not of the hotel named) alike. Each answered poll ' +
        'is kept in the ring buffer of `/tvpms/_log`. Limited per address.',
      tags,
      access: { kind: 'public' },
      rateLimit: { scope: 'tv.poll', perAddress: { quota: POLLS_PER_MINUTE, windowSeconds: 60 }, store: 'local' },
      oneAnswer: { refusal: tokenInvalid, inputs: ['query.token', 'query.hotel'] },
      request: { query: pollQuery },
      responses: {
        200: { description: 'The stays in house', schema: pollAnswerSchema },
        401: { description: 'Missing or wrong token' },
      },
      async handler({ req, res }) {
        const hotel = typeof req.query.hotel === 'string' ? req.query.hotel : undefined;
        const reservations = await tv.poll(pollToken(req), { method: req.method, address: req.ip ?? 'unknown', hotel });
        res.json({ reservations });
      },
    });

  return [
    ...settingsRoutes<TvSettingsInput>({
      path: `${base}/settings`,
      subject: 'TV system settings',
      tags,
      readers: READERS,
      writers: WRITERS,
      schema: settingsSchema,
      changes: updateSettingsBody,
      readDescription: 'The poll token is never answered: `tl_token_set` and a hint say whether one is set.',
      changeDescription:
        'Any of the fields, at least one. `connection_type` `direct` (this service calls `server_url`, which must not ' +
        'be a private or local address) or `agent` (the desk `agent_workstation_id`, required then, calls it: a LAN ' +
        'address is fine). `enabled` needs `server_url`. `netup_room_number` replaces the whole mapping (at most 2000 ' +
        "rooms of this hotel). `tl_token` is a TV vendor's own token for polling `/tvpms` (16–128 printable " +
        'characters and at least 128 bits of randomness by estimate; null removes it): kept as a digest keyed by this ' +
        "hotel, never answered, and never compared with another hotel's (polls with it name the hotel). Without a " +
        'vendor token, `POST tl-token` issues one.',
      settings: tv.settings,
    }),
    defineHotelRoute({
      method: 'post',
      path: `${base}/tl-token`,
      idempotency: answersNewSecret,
      summary: "Issue the TV system's poll token",
      description:
        'A new random token (256 bits), answered this once (only its digest is kept); the one before, issued or a ' +
        "vendor's, stops working at once. The TV system polls `/tvpms` with it as `Authorization: Bearer <token>` " +
        '(or `?token=`); it names the hotel by itself.',
      tags,
      access: { kind: 'hotel', roles: WRITERS },
      request: { params: slugParams },
      responses: { 201: { description: 'The new token', schema: issuedTokenSchema } },
      async handler({ hotel, res }) {
        res.status(201).json(await tv.settings.newToken(hotel.id));
      },
    }),
    defineHotelRoute<unknown, PageRequest>({
      method: 'get',
      path: `${base}/log`,
      summary: 'List the pushes to the TV system',
      description: 'Every attempt (ok, error or skipped, and why), newest first; kept 30 days.',
      tags,
      access: { kind: 'hotel', roles: READERS },
      request: { params: slugParams, query: logQuery },
      responses: {
        200: { description: 'Attempts', schema: Joi.array().items(pushLogSchema), headers: PAGE_HEADERS },
      },
      async handler({ hotel, query, res }) {
        sendPage(res, await tv.log(hotel.id, query));
      },
    }),
    defineHotelRoute<{ room_id?: string }>({
      method: 'post',
      path: `${base}/test-checkin`,
      summary: 'Send a test check-in to the TV system',
      description:
        'Checks "Тест Тестов" into `room_id` (a mapped room; default the first mapped one) the way the settings say, ' +
        'even while the integration is off, logs the attempt and answers what happened. 409 `workstation_offline` ' +
        'when the desk of `agent` mode is offline.',
      tags,
      access: { kind: 'hotel', roles: WRITERS },
      request: { params: slugParams, body: testCheckinBody },
      responses: {
        200: { description: 'What the TV system answered', schema: testResultSchema },
        409: { description: 'The desk is offline' },
      },
      async handler({ hotel, body, res }) {
        res.json(await tv.testCheckin(hotel.id, body.room_id));
      },
    }),
    ...(['get', 'post', 'put', 'patch', 'delete'] as const).map(pollRoute),
    defineRoute<unknown, { hotel?: string }>({
      method: 'get',
      path: '/tvpms/_log',
      summary: "Read the TV system's recent polls",
      description:
        'The last polls of `/tvpms` answered by this API process (in memory, at most 200 per hotel), newest first. ' +
        "Staff (hotel_admin, manager, receptionist) see their own hotel's; super_admin names one with `?hotel=<slug>`.",
      tags,
      access: { kind: 'authenticated' },
      request: { query: pollLogQuery },
      responses: {
        200: { description: 'Polls', schema: Joi.array().items(pollLogEntrySchema) },
        403: { description: 'Not a member of a hotel with one of those roles' },
      },
      async handler({ auth, query, res }) {
        if (!auth) throw new ForbiddenError();
        let hotelId: string | null = auth.hotelId;
        if (auth.role === 'super_admin') {
          if (!query.hotel) throw new ValidationError(tvMessages.hotelRequired);
          const hotel = await tv.hotelBySlug(query.hotel);
          if (!hotel) throw new NotFoundError(tvMessages.hotelNotFound);
          hotelId = hotel.id;
        } else if (!READERS.includes(auth.role) || !hotelId) {
          throw new ForbiddenError();
        }
        res.json(tv.pollLog(hotelId));
      },
    }),
  ];
}
