import type { ActivityOptions } from '@temporalio/workflow';

/**
 * One subscription's deliveries (`webhooks:<subscriptionId>`): started (or revived) through the outbox by the commit
 * of an event the subscription wants, by its creation, resumption and a replay; it delivers the events after the
 * subscription's cursor one at a time, in sequence order. Ids only go in and out: payloads are read and sent inside
 * the activity and never enter a workflow history.
 */
export interface WebhookDeliveryInput {
  hotelId: string;
  subscriptionId: string;
}

/** What the workflow reads at the start of a run: whether to go on, and how long one event may be retried. */
export interface WebhookState {
  /** `active`; `paused` or `gone` end the workflow (a resumption starts it again). */
  status: 'active' | 'paused' | 'gone';
  /** How long one event is retried before the subscription is paused (WEBHOOK_RETRY_HORIZON_SECONDS). */
  retryHorizonSeconds: number;
}

/** What one round of sending came to. */
export interface WebhookRound {
  status: 'active' | 'paused' | 'gone';
  /** Events delivered (2xx) in this round, in seq order. */
  delivered: number;
  /** Nothing wanted is left after the cursor (or the round stopped at a failure after some deliveries). */
  caughtUp: boolean;
}

export interface WebhookActivities {
  webhookState(input: WebhookDeliveryInput): Promise<WebhookState>;
  /**
   * One round: the next wanted events after the cursor sent one at a time in seq order (each attempt logged with its
   * status code, latency and error; the cursor moved on each 2xx), for up to WEBHOOK_ROUND_MS. Fails retryable when
   * the round's first event fails (so the retry horizon counts from that event's first attempt); a failure after
   * some deliveries ends the round without failing it. Caught up, the cursor moves over the unwanted events scanned.
   */
  deliverWebhookEvents(input: WebhookDeliveryInput): Promise<WebhookRound>;
  /** Pauses the subscription after its retry horizon and tells the hotel's admins (once per pause). */
  pauseWebhookSubscription(input: WebhookDeliveryInput & { reason: string }): Promise<void>;
}

/** Events read per round. */
export const WEBHOOK_BATCH = 100;
/** A round sends no new event after this long (one more attempt lasts at most the request timeout, 10 s). */
export const WEBHOOK_ROUND_MS = 5_000;
/** A round heartbeats before each event and at least this often (its heartbeat timeout is 10 s). */
export const WEBHOOK_BEAT_MS = 3_000;
/** A caught-up workflow looks again after this long even without a wake (a lost wake costs at most this). */
export const WEBHOOK_IDLE_POLL = '1 minute';
/** Rounds before the workflow continues as new (its history stays short). */
export const WEBHOOK_ROUNDS_PER_RUN = 200;
/** History events (of the server's 50,000 limit, 10,000 warned) before the workflow continues as new. */
export const WEBHOOK_HISTORY_LIMIT = 5_000;

export const WEBHOOK_READ_OPTIONS: ActivityOptions = {
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' },
};

/**
 * A round: an attempt lasts at most 30 s (WEBHOOK_ROUND_MS of deliveries and one last request of 10 s) and heartbeats
 * (10 s without one and it is retried; it stops POSTing when timed out or cancelled), then 1 s,
 * 2 s, 4 s ... up to 10 minutes between attempts, until the horizon (3 days by default) has passed.
 */
export function webhookSendOptions(retryHorizonSeconds: number): ActivityOptions {
  return {
    startToCloseTimeout: '30 seconds',
    heartbeatTimeout: '10 seconds',
    scheduleToCloseTimeout: `${retryHorizonSeconds} seconds`,
    retry: {
      initialInterval: '1 second',
      backoffCoefficient: 2,
      maximumInterval: `${Math.max(1, Math.min(600, Math.floor(retryHorizonSeconds / 4)))} seconds`,
    },
  };
}

export type WebhookDeliveryWorkflow = (input: WebhookDeliveryInput) => Promise<void>;

export const webhookWorkflowIds = {
  delivery: (subscriptionId: string) => `webhooks:${subscriptionId}`,
};
export const WEBHOOK_WAKE_SIGNAL = 'wake';
/** A refusal of the module's activities (the activity boundary's type for them). */
export const WEBHOOKS_REFUSED = 'WebhooksRefused';

/**
 * The delivery attempt waits on the hotel's receiver (retried until the horizon while it does not answer 2xx), as the
 * agents' activities wait on a desk: a workflow retrying it has nothing left to do until its next attempt.
 */
export const WEBHOOK_OUTSIDE_WAIT_ACTIVITIES: readonly string[] = ['deliverWebhookEvents'];
