import { ApplicationFailure, Context } from '@temporalio/activity';
import type { WebhookActivities } from '../../../workflows/contracts/webhooks';
import type { WebhooksService } from './webhooks.service';

/** The delivery workflow's activities: a failed attempt fails retryable with the receiver's status or error. */
export function webhooksActivities(webhooks: WebhooksService): WebhookActivities {
  return {
    nextWebhookEvents: ({ hotelId, subscriptionId }) => webhooks.delivery.next(hotelId, subscriptionId),

    async deliverWebhookEvent({ hotelId, subscriptionId, seq }) {
      const result = await webhooks.delivery.send(hotelId, subscriptionId, seq, Context.current().info.attempt);
      if (result.outcome === 'failed') throw ApplicationFailure.retryable(result.error, 'WebhookFailed');
      return result.outcome;
    },

    pauseWebhookSubscription: ({ hotelId, subscriptionId, seq, reason }) =>
      webhooks.pauseAfterHorizon(hotelId, subscriptionId, seq, reason),
  };
}
