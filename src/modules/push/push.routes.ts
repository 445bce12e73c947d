import { defineHotelRoute, type RouteDefinition } from '../../platform/http/route';
import { ALL_STAFF } from '../../platform/http/roles';
import { slugParams } from '../../platform/http/schemas';
import { subscribeBody, subscriptionSchema, unsubscribeBody, unsubscribeSchema, vapidKeySchema } from './push.schemas';
import type { PushService } from './push.service';
import type { SubscribeInput } from './push.types';

const base = '/api/hotels/:slug/push';
const tags = ['Push'];

export function pushRoutes(push: PushService): RouteDefinition[] {
  const unsubscribe = (method: 'post' | 'delete') =>
    defineHotelRoute<{ endpoint: string }>({
      method,
      path: `${base}/unsubscribe`,
      summary: 'Forget one of your devices’ push subscriptions',
      description:
        'By its `endpoint`, yours only: another user’s subscription with that endpoint stays (`removed` false). ' +
        'POST and DELETE do the same.',
      tags,
      access: { kind: 'hotel', roles: ALL_STAFF },
      request: { params: slugParams, body: unsubscribeBody },
      responses: { 200: { description: 'Done', schema: unsubscribeSchema } },
      async handler({ hotel, auth, body, res }) {
        res.json(await push.unsubscribe(hotel.id, auth.sub, body.endpoint));
      },
    });

  return [
    defineHotelRoute({
      method: 'get',
      path: `${base}/vapid-key`,
      summary: 'The VAPID public key for Web Push',
      description:
        'Pass it as `applicationServerKey` to `pushManager.subscribe()`. 503 when the server has no VAPID keys.',
      tags,
      access: { kind: 'hotel', roles: ALL_STAFF },
      request: { params: slugParams },
      responses: {
        200: { description: 'The key', schema: vapidKeySchema },
        503: { description: 'Push is not configured' },
      },
      async handler({ res }) {
        res.json(push.vapidKey());
      },
    }),
    defineHotelRoute<SubscribeInput>({
      method: 'post',
      path: `${base}/subscribe`,
      summary: 'Subscribe this device to push notifications',
      description:
        'The body is the browser’s `PushSubscription.toJSON()`: `{ endpoint, keys: { p256dh, auth } }` (`https` ' +
        'endpoint, at most 1024 characters). The same endpoint again updates its subscription (and moves it to you ' +
        'when another user had it on this browser). Each user keeps at most 20 devices: one more forgets the one ' +
        'subscribed longest ago. Pushes follow the notification settings of your role, like in-app notifications.',
      tags,
      access: { kind: 'hotel', roles: ALL_STAFF },
      request: { params: slugParams, body: subscribeBody },
      responses: { 200: { description: 'The subscription', schema: subscriptionSchema } },
      async handler({ hotel, auth, body, res }) {
        res.json(await push.subscribe(hotel.id, auth.sub, body));
      },
    }),
    unsubscribe('post'),
    unsubscribe('delete'),
  ];
}
