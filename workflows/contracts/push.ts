import type { ActivityOptions } from '@temporalio/workflow';

/**
 * Web Push for a notification (`pushDelivery:<notificationId>`): the push module's channel starts it through the outbox
 * when a notification's recipients have subscriptions, and implements the activities. Ids only go in and words come out:
 * the title and body are read inside the activity, so they never enter a workflow history.
 */
export interface PushDeliveryInput {
  hotelId: string;
  notificationId: string;
  /** The subscriptions to push, read at the notification's commit (a delivery started before that reads them). */
  subscriptionIds?: string[];
}

/** What one subscription's send came to: delivered, or gone (404/410: the subscription was deleted). */
export type PushOutcome = 'sent' | 'gone' | 'skipped';

/** A refusal that repeating will not change (a 4xx other than 404/410/429, an address refused): not retried. */
export const PUSH_REFUSED = 'PushRefused';
/** 429 from the push service: retried after its `Retry-After` (the failure's `nextRetryDelay`). */
export const PUSH_RATE_LIMITED = 'PushRateLimited';

/** At most this many subscriptions are pushed per notification (20 devices each for 100 staff). */
export const PUSH_MAX_TARGETS = 2000;
/** Sends in flight at once within one delivery. */
export const PUSH_PARALLEL_SENDS = 20;

export interface PushActivities {
  /** The subscriptions to push (ids): those of the users the notification was delivered to, PUSH_MAX_TARGETS at most. */
  pushTargets(input: PushDeliveryInput): Promise<string[]>;
  /**
   * One push to one subscription. `skipped` when the subscription or the notification is gone meanwhile. Fails
   * retryable on 5xx or no answer, with `nextRetryDelay` on 429 (`PUSH_RATE_LIMITED`), non-retryable `PUSH_REFUSED`
   * on other 4xx.
   */
  sendPush(input: PushDeliveryInput & { subscriptionId: string }): Promise<PushOutcome>;
}

export const PUSH_TARGETS_OPTIONS: ActivityOptions = {
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute', maximumAttempts: 10 },
};

/**
 * One send: an attempt lasts at most 10 s (two reads and one request of at most 5 s, `PUSH_TIMEOUT_MS`), so one that
 * hangs, or that Temporal handed to a worker that never ran it, is given up soon and tried again after 1 s; then 2 s,
 * 4 s ... up to 10 minutes between attempts, 15 attempts (about an hour): a push service down for a while is waited
 * for; a notification is stale after that anyway.
 */
export const PUSH_SEND_OPTIONS: ActivityOptions = {
  startToCloseTimeout: '10 seconds',
  retry: {
    initialInterval: '1 second',
    backoffCoefficient: 2,
    maximumInterval: '10 minutes',
    maximumAttempts: 15,
    nonRetryableErrorTypes: [PUSH_REFUSED],
  },
};

export interface PushDeliveryResult {
  sent: number;
  gone: number;
  failed: number;
}

export type PushDeliveryWorkflow = (input: PushDeliveryInput) => Promise<PushDeliveryResult>;

export const pushWorkflowIds = {
  pushDelivery: (notificationId: string) => `pushDelivery:${notificationId}`,
};
