import { ApplicationFailure, Context } from '@temporalio/activity';
import type { WebhookActivities } from '../../../workflows/contracts/webhooks';
import type { WebhooksService } from './webhooks.service';

/** The delivery workflow's activities: a round whose first event failed fails retryable with the receiver's answer. */
export function webhooksActivities(webhooks: WebhooksService): WebhookActivities {
  return {
    webhookState: ({ hotelId, subscriptionId }) => webhooks.delivery.state(hotelId, subscriptionId),

    async deliverWebhookEvents({ hotelId, subscriptionId }) {
      const result = await webhooks.delivery.round(hotelId, subscriptionId, Context.current().info.attempt);
      if ('failed' in result) throw ApplicationFailure.retryable(result.failed, 'WebhookFailed');
      return result;
    },

    pauseWebhookSubscription: ({ hotelId, subscriptionId, reason }) =>
      webhooks.pauseAfterHorizon(hotelId, subscriptionId, reason),
  };
}
