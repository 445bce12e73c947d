import {
  ActivityFailure,
  condition,
  continueAsNew,
  defineSignal,
  patched,
  proxyActivities,
  setHandler,
  workflowInfo,
} from '@temporalio/workflow';
import {
  WEBHOOK_HISTORY_LIMIT,
  WEBHOOK_IDLE_POLL,
  WEBHOOK_READ_OPTIONS,
  WEBHOOK_ROUNDS_PER_RUN,
  WEBHOOK_WAKE_SIGNAL,
  webhookSendOptions,
  type WebhookActivities,
  type WebhookDeliveryInput,
  type WebhookState,
} from './contracts/webhooks';

const reader =
  proxyActivities<Pick<WebhookActivities, 'webhookState' | 'pauseWebhookSubscription'>>(WEBHOOK_READ_OPTIONS);
export const webhookWake = defineSignal(WEBHOOK_WAKE_SIGNAL);

/**
 * A subscription's deliveries (`webhooks:<subscriptionId>`), in seq order: rounds of sending, each retried with
 * backoff while its first event fails, until the retry horizon; then the subscription is paused (its admins told)
 * and the workflow ends. Caught up, it waits for a wake (the commit of a wanted event) or WEBHOOK_IDLE_POLL; it
 * continues as new every WEBHOOK_ROUNDS_PER_RUN rounds, or sooner when the server suggests it or the history passes
 * WEBHOOK_HISTORY_LIMIT events. It ends when the subscription is paused or deleted, unless woken meanwhile (a quick
 * resumption signals this run rather than starting a new one): then it reads the state again and, resumed, runs a
 * round at once.
 */
export async function webhookDelivery(input: WebhookDeliveryInput): Promise<void> {
  let woken = false;
  setHandler(webhookWake, () => {
    woken = true;
  });
  /**
   * Whether to go on after reading `status`: a wake since the read (a resumption that reached this run as it was
   * ending, rather than starting a new one) reads the state again.
   */
  async function goOn(status: WebhookState['status']): Promise<boolean> {
    if (status === 'active') return true;
    if (!woken || !patched('webhook-recheck-on-wake')) return false;
    woken = false;
    const resumed = await goOn((await reader.webhookState(input)).status);
    // The wakes this recheck answered may stand for events committed after the round's read (their own wakes were
    // coalesced into them): a round follows at once rather than after the idle poll.
    if (resumed && patched('webhook-round-after-recheck')) woken = true;
    return resumed;
  }
  const state = await reader.webhookState(input);
  if (!(await goOn(state.status))) return;
  const sender = proxyActivities<Pick<WebhookActivities, 'deliverWebhookEvents'>>(
    webhookSendOptions(state.retryHorizonSeconds),
  );
  for (let round = 0; round < WEBHOOK_ROUNDS_PER_RUN && !historyFull(); round += 1) {
    woken = false;
    let result;
    try {
      result = await sender.deliverWebhookEvents(input);
    } catch (error) {
      if (!(error instanceof ActivityFailure)) throw error;
      await reader.pauseWebhookSubscription({ ...input, reason: error.cause?.message ?? error.message });
      return;
    }
    if (!(await goOn(result.status))) return;
    if (result.caughtUp) await condition(() => woken, WEBHOOK_IDLE_POLL);
  }
  await continueAsNew<typeof webhookDelivery>(input);
}

/** The server suggests continuing as new, or the history grew long (waits and retries add to it between rounds). */
function historyFull(): boolean {
  const info = workflowInfo();
  return info.continueAsNewSuggested || info.historyLength > WEBHOOK_HISTORY_LIMIT;
}
