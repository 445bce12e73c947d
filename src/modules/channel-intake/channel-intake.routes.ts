import { defineHotelRoute, defineRoute, type RouteDefinition } from '../../platform/http/route';
import { HOTEL_MANAGEMENT, type Role } from '../../platform/http/roles';
import { okResponse, slugParams } from '../../platform/http/schemas';
import {
  placeBody,
  placedSchema,
  revisionListSchema,
  revisionParams,
  revisionSchema,
  webhookSchema,
  unplacedQuery,
  webhookBody,
  webhookHeaders,
} from './channel-intake.schemas';
import {
  WEBHOOK_PATH,
  WEBHOOK_TOKEN_HEADER,
  webhookRefusal,
  type ChannelIntakeService,
} from './channel-intake.service';

const base = '/api/hotels/:slug/channel-intake';
const tags = ['Channel intake'];
/** The desk places OTA bookings as it places its own; management too. */
const DESK: readonly Role[] = ['hotel_admin', 'manager', 'receptionist'];

type Id = { id: string };
type WebhookCall = { payload?: { revision_id?: string } };

export function channelIntakeRoutes(intake: ChannelIntakeService): RouteDefinition[] {
  return [
    defineRoute<WebhookCall>({
      method: 'post',
      path: WEBHOOK_PATH,
      summary: 'Channex booking webhook',
      description:
        'Set this address as the Channex webhook of the hotel’s property (event `booking`), with the custom header ' +
        `\`${WEBHOOK_TOKEN_HEADER}\` carrying the hotel’s intake token. A call is never believed: it only wakes the ` +
        'hotel’s intake, which reads the revision named (by its id) and the feed of unacknowledged revisions from ' +
        'Channex, so duplicate, out-of-order ' +
        'and forged calls change nothing twice or at all. 401 without a known token (nothing done).',
      tags,
      access: { kind: 'public' },
      audit: { none: 'wakes the hotel’s intake; what it applies is recorded by the intake’s job' },
      oneAnswer: { refusal: webhookRefusal, inputs: [`headers.${WEBHOOK_TOKEN_HEADER}`] },
      // Per hotel (its token), across replicas: Channex calls every hotel's webhook from the same addresses.
      rateLimit: {
        scope: 'channel-intake.webhook',
        keyHeader: WEBHOOK_TOKEN_HEADER,
        perAddress: { quota: 600, windowSeconds: 60 },
      },
      request: { body: webhookBody, headers: webhookHeaders },
      responses: {
        200: { description: 'Received', schema: okResponse },
        401: { description: 'No or an unknown intake token (`channel_webhook_unauthorized`)' },
      },
      async handler({ headers, body, res }) {
        await intake.notified(headers[WEBHOOK_TOKEN_HEADER], body.payload?.revision_id);
        res.json({ ok: true });
      },
    }),
    defineHotelRoute({
      method: 'put',
      path: `${base}/webhook`,
      summary: 'Connect the channel’s booking webhook',
      description:
        'Registers a Channex webhook (event `booking`) calling this service’s webhook route with a new intake token ' +
        'in a custom header (the previous webhook removed; the token is kept only as its hash), and starts the ' +
        'hotel’s intake at once (optional: a connected hotel’s intake reads the feed every 30 s without it). 409 ' +
        '`channel_not_connected` without a channel connection; 502 `channel_refused` when Channex refuses; 503 ' +
        '`channel_unavailable` when it does not answer.',
      tags,
      access: { kind: 'hotel', roles: HOTEL_MANAGEMENT },
      request: { params: slugParams },
      responses: {
        200: { description: 'The webhook registered (a second call replaces the first)', schema: webhookSchema },
        409: { description: 'The hotel has no channel connection (`channel_not_connected`)' },
        502: { description: 'Channex refused the registration (`channel_refused`)' },
        503: { description: 'Channex did not answer (`channel_unavailable`)' },
      },
      async handler({ hotel, res }) {
        res.json(await intake.connectWebhook(hotel));
      },
    }),
    defineHotelRoute<unknown, { limit: number; after?: Date }>({
      method: 'get',
      path: `${base}/unplaced`,
      summary: 'OTA bookings that could not be placed',
      description:
        'Revisions the channel sold that found no room (or whose room type is not mapped), oldest first: each ' +
        'waits for the staff to place it in a room or dismiss it. A newer revision of the same booking replaces it.',
      tags,
      access: { kind: 'hotel', roles: DESK },
      request: { params: slugParams, query: unplacedQuery },
      responses: { 200: { description: 'Unplaced revisions', schema: revisionListSchema } },
      async handler({ hotel, query, res }) {
        res.json({ items: await intake.unplaced(hotel.id, query.limit, query.after) });
      },
    }),
    defineHotelRoute<{ room_id?: string }, unknown, Id>({
      method: 'post',
      path: `${base}/unplaced/:id/place`,
      summary: 'Place an unplaced OTA booking',
      description:
        'Makes the booking the revision asks for, in the room named or any free room of its mapped category ' +
        '(409 `no_free_room` when there is none; 409 `revision_settled` when it was placed, dismissed or replaced). ' +
        'A modification of a live booking changes that booking; a cancellation is refused (409 ' +
        '`revision_cancellation`: dismiss it), as is one of a booking checked out (409 `booking_checked_out`).',
      tags,
      access: { kind: 'hotel', roles: DESK },
      request: { params: revisionParams, body: placeBody },
      responses: {
        200: { description: 'The revision, placed, and its booking', schema: placedSchema },
        409: { description: 'No free room, its room type not mapped, or no longer unplaced' },
      },
      async handler({ hotel, params, body, res }) {
        res.json(await intake.place(hotel.id, params.id, body.room_id));
      },
    }),
    defineHotelRoute<unknown, unknown, Id>({
      method: 'post',
      path: `${base}/unplaced/:id/dismiss`,
      summary: 'Dismiss an unplaced OTA booking',
      description: 'Settled outside (with the guest or the OTA): it leaves the list, and its dates are pushed again.',
      tags,
      access: { kind: 'hotel', roles: DESK },
      request: { params: revisionParams },
      responses: {
        200: { description: 'The revision, dismissed', schema: revisionSchema },
        409: { description: 'No longer unplaced (`revision_settled`)' },
      },
      async handler({ hotel, params, res }) {
        res.json(await intake.dismiss(hotel.id, params.id));
      },
    }),
    defineHotelRoute<unknown, unknown, Id>({
      method: 'get',
      path: '/api/hotels/:slug/bookings/:id/channel-revisions',
      summary: 'The channel’s revisions of a booking',
      description: 'What the OTA sent of the booking: its code, who collects the payment, the price of each night.',
      tags,
      access: { kind: 'hotel', roles: DESK },
      request: { params: revisionParams },
      responses: { 200: { description: 'Revisions, in the channel’s order', schema: revisionListSchema } },
      async handler({ hotel, params, res }) {
        res.json({ items: await intake.ofBooking(hotel.id, params.id) });
      },
    }),
  ];
}
