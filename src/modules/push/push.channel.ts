import { enqueueOutbox, startWorkflowMessage } from '../../platform/db/outbox';
import type { NotificationChannel } from '../notifications';
import { PUSH_MAX_TARGETS, pushWorkflowIds, type PushDeliveryWorkflow } from '../../../workflows/contracts/push';
import { subscriptionsRepository } from './push.repository';

/**
 * Web Push as a channel of the notifications: in the transaction that makes a notification, the subscriptions of its
 * recipients are read, and only a notification with some starts its `pushDelivery:<notificationId>` workflow (after
 * commit, through the outbox), told those subscriptions (ids only); one whose recipients have none costs nothing.
 */
export const pushChannel: NotificationChannel = {
  async delivered(trx, hotelId, deliveries, hotelSlug) {
    const userIds = [...new Set(deliveries.flatMap((delivery) => delivery.recipientIds))];
    // Each delivery pushes PUSH_MAX_TARGETS subscriptions at most, so no more than that many per delivery are read.
    const owned = await subscriptionsRepository.ofUsers(trx, hotelId, userIds, PUSH_MAX_TARGETS * deliveries.length);
    const byUser = new Map<string, string[]>();
    for (const { user_id: userId, id } of owned) byUser.set(userId, [...(byUser.get(userId) ?? []), id]);
    for (const { notificationId, recipientIds } of deliveries) {
      const subscriptionIds = recipientIds.flatMap((userId) => byUser.get(userId) ?? []).slice(0, PUSH_MAX_TARGETS);
      if (subscriptionIds.length === 0) continue;
      const slug = await hotelSlug();
      await enqueueOutbox(
        trx,
        startWorkflowMessage<PushDeliveryWorkflow>(
          'pushDelivery',
          pushWorkflowIds.pushDelivery(notificationId),
          [{ hotelId, notificationId, subscriptionIds }],
          { HotelSlug: slug },
          { ...(slug && { hotel: slug }), notification: notificationId },
        ),
      );
    }
  },
};
