import { ApplicationFailure, Context } from '@temporalio/activity';
import { WEBHOOK_BEAT_MS, type WebhookActivities } from '../../../workflows/contracts/webhooks';
import type { WebhooksService } from './webhooks.service';

/**
 * The delivery workflow's activities: a round whose first event failed fails retryable with the receiver's answer; a
 * round heartbeats (a dead worker's round is retried after 10 s, not 30) and stops when cancelled or timed out.
 */
export function webhooksActivities(webhooks: WebhooksService): WebhookActivities {
  return {
    webhookState: ({ hotelId, subscriptionId }) => webhooks.delivery.state(hotelId, subscriptionId),

    async deliverWebhookEvents({ hotelId, subscriptionId }) {
      const context = Context.current();
      // A round also beats every few seconds: one attempt may wait up to 10 s on the receiver.
      const beating = setInterval(() => context.heartbeat(), WEBHOOK_BEAT_MS);
      const result = await webhooks.delivery
        .round(hotelId, subscriptionId, { heartbeat: () => context.heartbeat(), cancelled: context.cancellationSignal })
        .finally(() => clearInterval(beating));
      if ('failed' in result) throw ApplicationFailure.retryable(result.failed, 'WebhookFailed');
      return result;
    },

    pauseWebhookSubscription: ({ hotelId, subscriptionId, reason }) =>
      webhooks.pauseAfterHorizon(hotelId, subscriptionId, reason),
  };
}
