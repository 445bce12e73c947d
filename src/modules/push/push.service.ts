import { createECDH } from 'node:crypto';
import type { PushConfig } from './push.env';
import type { Db } from '../../platform/db/knex';
import { ServiceUnavailableError, ValidationError } from '../../platform/errors';
import { assertPublicDestination } from '../../platform/outbound';
import { PUSH_MAX_TARGETS } from '../../../workflows/contracts/push';
import type { NotificationsService } from '../notifications';
import { createPushClient, type PushClient } from './push.client';
import { pushMessages } from './push.messages';
import { pushPayload } from './push.payload';
import { subscriptionsRepository } from './push.repository';
import type { SendResult, SubscribeInput, SubscriptionView } from './push.types';

/** A user's devices kept at most: subscribing one more forgets the one least recently subscribed. */
export const MAX_SUBSCRIPTIONS_PER_USER = 20;

export interface PushDependencies {
  notifications: Pick<NotificationsService, 'recipientIds' | 'pushContent' | 'deliverAlso'>;
}

function decodedKey(value: string, bytes: number, message: string): Buffer {
  const key = Buffer.from(value.replace(/=+$/, ''), 'base64url');
  if (key.length !== bytes) throw new ValidationError(message);
  return key;
}

/** The browser's keys must be usable: a P-256 point (checked by a key agreement) and a 16-byte secret. */
function checkKeys(keys: SubscribeInput['keys']): { p256dh: string; auth: string } {
  const p256dh = decodedKey(keys.p256dh, 65, pushMessages.badP256dh);
  try {
    const ecdh = createECDH('prime256v1');
    ecdh.generateKeys();
    ecdh.computeSecret(p256dh);
  } catch {
    throw new ValidationError(pushMessages.badP256dh);
  }
  const auth = decodedKey(keys.auth, 16, pushMessages.badAuth);
  return { p256dh: p256dh.toString('base64url'), auth: auth.toString('base64url') };
}

export function createPushService(
  db: Db,
  config: Pick<PushConfig, 'push' | 'allowPrivateOutbound'>,
  deps: PushDependencies,
  client?: PushClient,
) {
  const { vapid, caFile } = config.push;
  let send = client;
  const guard = (url: string) => assertPublicDestination(url, { allowPrivate: config.allowPrivateOutbound });

  return {
    /** The installation's VAPID public key (the browser's `applicationServerKey`); 503 when push is not set up. */
    vapidKey(): { public_key: string } {
      if (!vapid) throw new ServiceUnavailableError('push_not_configured', pushMessages.notConfigured, 3600);
      return { public_key: vapid.publicKey };
    },

    /** Keeps the browser's subscription for the signed-in user (see the repository's upsert). */
    async subscribe(hotelId: string, userId: string, input: SubscribeInput): Promise<SubscriptionView> {
      const keys = checkKeys(input.keys);
      // Saved only if it is not (now) a private address; one that does not resolve yet is checked at each send.
      await assertPublicDestination(input.endpoint, {
        allowPrivate: config.allowPrivateOutbound,
        allowUnresolved: true,
      });
      return subscriptionsRepository.upsert(
        db,
        { hotel_id: hotelId, user_id: userId, endpoint: input.endpoint, ...keys },
        MAX_SUBSCRIPTIONS_PER_USER,
      );
    },

    /** Forgets one of the user's own subscriptions; anyone else's stays (and `removed` is false). */
    async unsubscribe(hotelId: string, userId: string, endpoint: string): Promise<{ ok: true; removed: boolean }> {
      return { ok: true, removed: await subscriptionsRepository.removeOwn(db, hotelId, userId, endpoint) };
    },

    countOfUser: (hotelId: string, userId: string) => subscriptionsRepository.countOfUser(db, hotelId, userId),

    /** The subscriptions (ids) of the users the notification was delivered to. */
    async targets(hotelId: string, notificationId: string): Promise<string[]> {
      const userIds = await deps.notifications.recipientIds(hotelId, notificationId);
      return subscriptionsRepository.idsOfUsers(db, hotelId, userIds, PUSH_MAX_TARGETS);
    },

    /**
     * One push of the notification to one subscription, if the subscription still belongs to one of its recipients.
     * A 404/410 deletes the subscription. Throws (ValidationError) when the endpoint is refused as a destination.
     */
    async sendOne(hotelId: string, notificationId: string, subscriptionId: string): Promise<SendResult> {
      if (!vapid) return { kind: 'skipped', detail: pushMessages.noVapid };
      const subscription = await subscriptionsRepository.find(db, hotelId, subscriptionId);
      if (!subscription) return { kind: 'skipped', detail: pushMessages.subscriptionGone };
      const content = await deps.notifications.pushContent(hotelId, notificationId, subscription.user_id);
      if (!content) return { kind: 'skipped', detail: pushMessages.notificationGone };
      await guard(subscription.endpoint);
      send ??= createPushClient(vapid, caFile);
      const response = await send(subscription, pushPayload(content));
      if (response.kind === 'gone') await subscriptionsRepository.removeGone(db, subscription);
      return response;
    },
  };
}

export type PushService = ReturnType<typeof createPushService>;
