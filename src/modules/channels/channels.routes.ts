import { defineHotelRoute, type RouteDefinition } from '../../platform/http/route';
import { HOTEL_MANAGEMENT } from '../../platform/http/roles';
import { slugParams } from '../../platform/http/schemas';
import { connectBody, connectionChanges, connectionSchema, syncQueuedSchema } from './channels.schemas';
import type { ChannelsService } from './channels.service';
import type { ConnectionChanges, ConnectionInput } from './channels.types';

const base = '/api/hotels/:slug/channel-connection';
const tags = ['Channel manager'];
/** The owner and managers, as every integration's settings (payments, door locks, webhooks). */
const access = { kind: 'hotel', roles: HOTEL_MANAGEMENT } as const;
const channelRefusals = {
  422: {
    description:
      'The mapping names what the hotel or the channel does not have (`channel_mapping_*`, `errors` names them), ' +
      'the channel refused the key (`channel_unauthorized`) or does not know the property (`channel_property_unknown`)',
  },
  502: { description: 'The channel refused the request otherwise (`channel_refused`)' },
  503: { description: 'The channel did not answer (`channel_unavailable`, with Retry-After)' },
};

/** A staff request the hotel's sync carries out (202 with what was queued; 404 when the hotel is not connected). */
function queuedRequest(
  action: string,
  summary: string,
  description: string,
  request: (hotel: { id: string; slug: string }) => Promise<unknown>,
): RouteDefinition {
  return defineHotelRoute({
    method: 'post',
    path: `${base}/${action}`,
    summary,
    description,
    tags,
    access,
    request: { params: slugParams },
    responses: {
      202: { description: 'Queued', schema: syncQueuedSchema },
      404: { description: 'Not connected' },
    },
    async handler({ hotel, res }) {
      res.status(202).json(await request(hotel));
    },
  });
}

export function channelsRoutes(channels: ChannelsService): RouteDefinition[] {
  return [
    defineHotelRoute<ConnectionInput>({
      method: 'post',
      path: base,
      summary: 'Connect the hotel to a channel manager',
      description:
        'Checks the key and the property by listing the property’s room types and rate plans at the channel, and ' +
        'the mapping against them and against the hotel’s categories and tariffs; then keeps the key encrypted and ' +
        'pushes the next 365 days of availability, prices and restrictions. From then on every change to what the ' +
        'hotel sells reaches the channel within seconds. One connection per hotel (409 when there is one), one ' +
        'hotel per property (409 `channel_property_taken` when another hotel holds it). `last_error` shows what ' +
        'the channel refuses (values refused under its 200, until a push of them succeeds; a refused request, ' +
        'also told to the owner and managers as `channel_sync_failed`).',
      tags,
      access,
      request: { params: slugParams, body: connectBody },
      responses: {
        201: { description: 'Connected (the key shown by its hint only)', schema: connectionSchema },
        409: { description: 'The hotel is connected already, or another hotel holds the property' },
        ...channelRefusals,
      },
      async handler({ hotel, body, res }) {
        res.status(201).json(await channels.connect(hotel, body));
      },
    }),
    defineHotelRoute({
      method: 'get',
      path: base,
      summary: 'The hotel’s channel-manager connection',
      description: 'The key is never answered: `api_key_hint` shows its last characters.',
      tags,
      access,
      request: { params: slugParams },
      responses: {
        200: { description: 'The connection', schema: connectionSchema },
        404: { description: 'Not connected' },
      },
      async handler({ hotel, res }) {
        res.json(await channels.get(hotel.id));
      },
    }),
    defineHotelRoute<ConnectionChanges>({
      method: 'patch',
      path: base,
      summary: 'Change the key, the property or the mapping',
      description: 'Checked again as a whole against the channel, then the 365 days are pushed again.',
      tags,
      access,
      request: { params: slugParams, body: connectionChanges },
      responses: {
        200: { description: 'The connection', schema: connectionSchema },
        404: { description: 'Not connected' },
        409: { description: '`channel_property_taken`: another hotel holds the property' },
        ...channelRefusals,
      },
      async handler({ hotel, body, res }) {
        res.json(await channels.update(hotel, body));
      },
    }),
    queuedRequest(
      'sync',
      'Push the next 365 days to the channel again',
      'Queued: the hotel’s sync pushes every value of the window (not only what changed) within the channel’s ' +
        'limits. `last_synced_at` of the connection tells when it went through.',
      (hotel) => channels.requestSync(hotel),
    ),
    queuedRequest(
      'reconcile',
      'Check what the channel holds against what was sent to it',
      'Queued: the hotel’s sync reads back the availability and restrictions the channel holds over the next 365 ' +
        'days and compares them with what it was sent (a change made at the channel, e.g. in its extranet, or a push ' +
        'it lost); the days that differ are sent again from our current values, and the owner and managers are ' +
        'told (`channel_reconciliation_mismatch`). The same check runs every night at the hotel’s midnight. ' +
        '`last_reconciliation` of the connection tells when it ran and what differed.',
      (hotel) => channels.requestReconciliation(hotel),
    ),
    defineHotelRoute({
      method: 'delete',
      path: base,
      summary: 'Disconnect the channel manager',
      description: 'Nothing more is pushed; what the channel holds stays there (close the sale there).',
      tags,
      access,
      request: { params: slugParams },
      responses: { 204: { description: 'Disconnected' }, 404: { description: 'Not connected' } },
      async handler({ hotel, res }) {
        await channels.disconnect(hotel);
        res.status(204).end();
      },
    }),
  ];
}
