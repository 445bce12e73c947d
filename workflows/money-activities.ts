import type { ActivityOptions } from '@temporalio/workflow';

/**
 * How the money workflows call their activities: a provider call may take seconds; retries go on (backing off to
 * 5 minutes) for as long as it takes, since every call is keyed by our own ids and giving up could lose money. Only
 * a refusal retrying cannot change fails a step for good (the activity boundary); money taken but refused by the
 * booking is told to staff (billing.online.ts).
 */
export const MONEY_ACTIVITY_OPTIONS: ActivityOptions = {
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '2 seconds', backoffCoefficient: 2, maximumInterval: '5 minutes' },
};
