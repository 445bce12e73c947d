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
  proxyActivities<Pick<WebhookActivities, 'webhookState' | 'pauseWebhookSubscription'>>(WEBHOOK_READ_OPTIONS);
export const webhookWake = defineSignal(WEBHOOK_WAKE_SIGNAL);

/**
 * A subscription's deliveries (`webhooks:<subscriptionId>`), in seq order: rounds of sending, each retried with
 * backoff while its first event fails, until the retry horizon; then the subscription is paused (its admins told)
 * and the workflow ends. Caught up, it waits for a wake (the commit of a wanted event) or WEBHOOK_IDLE_POLL; it
 * continues as new every WEBHOOK_ROUNDS_PER_RUN rounds. It ends when the subscription is paused or deleted.
 */
export async function webhookDelivery(input: WebhookDeliveryInput): Promise<void> {
  let woken = false;
  setHandler(webhookWake, () => {
    woken = true;
  });
  const state = await reader.webhookState(input);
  if (state.status !== 'active') return;
  const sender = proxyActivities<Pick<WebhookActivities, 'deliverWebhookEvents'>>(
    webhookSendOptions(state.retryHorizonSeconds),
  );
  for (let round = 0; round < WEBHOOK_ROUNDS_PER_RUN; round += 1) {
    woken = false;
    let result;
    try {
      result = await sender.deliverWebhookEvents(input);
    } catch (error) {
      if (!(error instanceof ActivityFailure)) throw error;
      await reader.pauseWebhookSubscription({ ...input, reason: error.cause?.message ?? error.message });
      return;
    }
    if (result.status !== 'active') return;
    if (result.caughtUp) await condition(() => woken, WEBHOOK_IDLE_POLL);
  }
  await continueAsNew<typeof webhookDelivery>(input);
}
