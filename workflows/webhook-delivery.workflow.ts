import {
  ActivityFailure,
  condition,
  continueAsNew,
  defineSignal,
  proxyActivities,
  setHandler,
} from '@temporalio/workflow';
import {
  WEBHOOK_IDLE_POLL,
  WEBHOOK_READ_OPTIONS,
  WEBHOOK_ROUNDS_PER_RUN,
  WEBHOOK_WAKE_SIGNAL,
  webhookSendOptions,
  type WebhookActivities,
  type WebhookDeliveryInput,
} from './contracts/webhooks';

const reader =
  proxyActivities<Pick<WebhookActivities, 'nextWebhookEvents' | 'pauseWebhookSubscription'>>(WEBHOOK_READ_OPTIONS);
export const webhookWake = defineSignal(WEBHOOK_WAKE_SIGNAL);

/**
 * A subscription's deliveries (`webhooks:<subscriptionId>`), one event at a time in sequence order: each retried
 * with backoff until the retry horizon, then the subscription is paused (its admins told) and the workflow ends.
 * Caught up, it waits for a wake (the commit of a wanted event) or WEBHOOK_IDLE_POLL; it continues as new every
 * WEBHOOK_ROUNDS_PER_RUN rounds. It ends when the subscription is paused or deleted.
 */
export async function webhookDelivery(input: WebhookDeliveryInput): Promise<void> {
  let woken = false;
  setHandler(webhookWake, () => {
    woken = true;
  });
  for (let round = 0; round < WEBHOOK_ROUNDS_PER_RUN; round += 1) {
    woken = false;
    const batch = await reader.nextWebhookEvents(input);
    if (batch.status !== 'active') return;
    if (batch.seqs.length === 0) {
      await condition(() => woken, WEBHOOK_IDLE_POLL);
      continue;
    }
    const sender = proxyActivities<Pick<WebhookActivities, 'deliverWebhookEvent'>>(
      webhookSendOptions(batch.retryHorizonSeconds),
    );
    for (const seq of batch.seqs) {
      try {
        if ((await sender.deliverWebhookEvent({ ...input, seq })) === 'stale') break;
      } catch (error) {
        if (!(error instanceof ActivityFailure)) throw error;
        const reason = error.cause?.message ?? error.message;
        await reader.pauseWebhookSubscription({ ...input, seq, reason });
        return;
      }
    }
  }
  await continueAsNew<typeof webhookDelivery>(input);
}
