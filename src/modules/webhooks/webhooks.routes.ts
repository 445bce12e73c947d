import { defineHotelRoute, type RouteDefinition } from '../../platform/http/route';
import { HOTEL_MANAGEMENT } from '../../platform/http/roles';
import { slugParams } from '../../platform/http/schemas';
import {
  deliveriesQuery,
  deliveriesSchema,
  feedQuery,
  feedSchema,
  replayBody,
  subscriptionBody,
  subscriptionChanges,
  subscriptionListSchema,
  subscriptionParams,
  subscriptionSchema,
  subscriptionWithSecretSchema,
} from './webhooks.schemas';
import type { WebhooksService } from './webhooks.service';
import type { SubscriptionInput } from './webhooks.types';

const base = '/api/hotels/:slug/webhooks';
const one = `${base}/:id`;
const tags = ['Webhooks'];
const access = { kind: 'hotel', roles: HOTEL_MANAGEMENT } as const;
const shownOnce = {
  none: 'answers a new signing secret shown once, which a kept answer would store in clear',
};
type Id = { id: string };

export function webhooksRoutes(webhooks: WebhooksService): RouteDefinition[] {
  const action = (name: 'pause' | 'resume', summary: string) =>
    defineHotelRoute<unknown, unknown, Id>({
      method: 'post',
      path: `${one}/${name}`,
      summary,
      tags,
      access,
      request: { params: subscriptionParams },
      responses: { 200: { description: 'The subscription', schema: subscriptionSchema } },
      async handler({ hotel, params, res }) {
        res.json(await webhooks.setPaused(hotel, params.id, name === 'pause'));
      },
    });

  return [
    defineHotelRoute({
      method: 'get',
      path: base,
      summary: 'The hotel’s webhook subscriptions',
      tags,
      access,
      request: { params: slugParams },
      responses: { 200: { description: 'Subscriptions, oldest first', schema: subscriptionListSchema } },
      async handler({ hotel, res }) {
        res.json({ items: await webhooks.list(hotel.id) });
      },
    }),
    defineHotelRoute<SubscriptionInput>({
      method: 'post',
      path: base,
      idempotency: shownOnce,
      summary: 'Subscribe a URL to the hotel’s events',
      description:
        'Events from now on are POSTed to `endpoint` one at a time in `seq` order, signed as Standard Webhooks ' +
        '(`webhook-id`, `webhook-timestamp`, `webhook-signature`) with the secret answered this once. A failed ' +
        'event is retried with backoff for up to 3 days, then the subscription is paused and the admins told.',
      tags,
      access,
      request: { params: slugParams, body: subscriptionBody },
      responses: { 201: { description: 'The subscription and its secret', schema: subscriptionWithSecretSchema } },
      async handler({ hotel, body, res }) {
        res.status(201).json(await webhooks.create(hotel, body));
      },
    }),
    defineHotelRoute<unknown, unknown, Id>({
      method: 'get',
      path: one,
      summary: 'One webhook subscription',
      tags,
      access,
      request: { params: subscriptionParams },
      responses: { 200: { description: 'The subscription', schema: subscriptionSchema } },
      async handler({ hotel, params, res }) {
        res.json(await webhooks.get(hotel.id, params.id));
      },
    }),
    defineHotelRoute<Partial<SubscriptionInput>, unknown, Id>({
      method: 'patch',
      path: one,
      summary: 'Change a subscription’s URL or event types',
      tags,
      access,
      request: { params: subscriptionParams, body: subscriptionChanges },
      responses: { 200: { description: 'The subscription', schema: subscriptionSchema } },
      async handler({ hotel, params, body, res }) {
        res.json(await webhooks.update(hotel.id, params.id, body));
      },
    }),
    defineHotelRoute<unknown, unknown, Id>({
      method: 'delete',
      path: one,
      summary: 'Delete a subscription (its deliveries stop)',
      tags,
      access,
      request: { params: subscriptionParams },
      responses: { 204: { description: 'Deleted' } },
      async handler({ hotel, params, res }) {
        await webhooks.remove(hotel.id, params.id);
        res.status(204).end();
      },
    }),
    defineHotelRoute<unknown, unknown, Id>({
      method: 'post',
      path: `${one}/rotate-secret`,
      idempotency: shownOnce,
      summary: 'Issue a new signing secret',
      description:
        'Answered this once. The previous secret keeps signing beside it for 24 hours: `webhook-signature` then ' +
        'carries two `v1,` entries, space-separated, so a receiver can switch keys without losing a delivery.',
      tags,
      access,
      request: { params: subscriptionParams },
      responses: { 201: { description: 'The subscription and its new secret', schema: subscriptionWithSecretSchema } },
      async handler({ hotel, params, res }) {
        res.status(201).json(await webhooks.rotate(hotel.id, params.id));
      },
    }),
    action('pause', 'Pause a subscription'),
    action('resume', 'Resume a subscription (delivery goes on from its cursor)'),
    defineHotelRoute<{ from_seq?: number; from_time?: Date }, unknown, Id>({
      method: 'post',
      path: `${one}/replay`,
      summary: 'Deliver again from a seq or a time',
      description:
        'The subscription’s cursor moves back (never forward: a later seq or time leaves it as it is); events are ' +
        'delivered again in order (same `webhook-id` as before). Up to 30 days back: a `from_time` further back or ' +
        'a `from_seq` no longer kept is refused with 422 `replay_too_old`.',
      tags,
      access,
      request: { params: subscriptionParams, body: replayBody },
      responses: {
        200: { description: 'The subscription', schema: subscriptionSchema },
        422: { description: '`replay_too_old`: further back than the events kept (30 days)' },
      },
      async handler({ hotel, params, body, res }) {
        res.json(await webhooks.replay(hotel, params.id, body));
      },
    }),
    defineHotelRoute<unknown, { limit: number; before?: number }, Id>({
      method: 'get',
      path: `${one}/deliveries`,
      summary: 'A subscription’s delivery attempts, newest first',
      tags,
      access,
      request: { params: subscriptionParams, query: deliveriesQuery },
      responses: { 200: { description: 'Attempts', schema: deliveriesSchema } },
      async handler({ hotel, params, query, res }) {
        res.json(await webhooks.deliveries(hotel.id, params.id, query.limit, query.before));
      },
    }),
    defineHotelRoute<unknown, { after: number; limit: number }>({
      method: 'get',
      path: '/api/hotels/:slug/events',
      summary: 'The hotel’s events after a seq (pull feed)',
      description:
        'The same events and payloads as webhook deliveries, in `seq` order, kept 30 days: a receiver that was ' +
        'down, or new, catches up from its last `seq` (`next_after`). It starts at the oldest kept event at the ' +
        'earliest: `started_after` says where, `horizon` the last seq no longer kept (an `after` below it missed ' +
        'the events purged in between).',
      tags,
      access,
      request: { params: slugParams, query: feedQuery },
      responses: {
        200: { description: 'A page of events', schema: feedSchema },
      },
      async handler({ hotel, query, res }) {
        res.json(await webhooks.feed(hotel.id, query.after, query.limit));
      },
    }),
  ];
}
