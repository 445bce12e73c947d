import type { ActivityOptions } from '@temporalio/workflow';

/**
 * The TV push, for the booking workflow: after a check-in or a check-out it has the hotel's TV system told (greet the
 * guest by name, or forget them). Ids only go in and a word comes out: the guest's name is read inside the activity,
 * so it never enters a workflow history. The tv module implements it; the workflow and the module import this file.
 */
export interface TvPushInput {
  hotelId: string;
  bookingId: string;
  event: 'check_in' | 'check_out';
  /** The room told of it (a guest's move: the room left, then the new one); absent: the booking's room. */
  roomId?: string;
  /** The move the push is part of: its desk command is keyed by it, told apart from the stay's own pushes. */
  moveId?: string;
}

/** A refusal of the TV system (4xx), as a non-retryable failure of this type: repeating it gives the same answer. */
export const TV_PUSH_REFUSED = 'TvPushRefused';

export interface TvActivities {
  /**
   * `skipped` when there is nothing to send (the integration is off, the room is not mapped, no server, the stay is
   * no longer in house), `ok` when the TV system accepted it; each attempt is logged. Fails retryable when the TV
   * system or the desk did not answer (or answered 5xx), non-retryable `TV_PUSH_REFUSED` on a 4xx.
   */
  pushStayToTv(input: TvPushInput): Promise<'ok' | 'skipped'>;
}

/**
 * How the workflow calls it: an attempt lasts at most 30 s, then 5 s, 10 s, 20 s ... up to 5 minutes between attempts,
 * 12 attempts in all (about 25 minutes): a TV server rebooting is waited for, one gone for the day is given up (the
 * log shows it) and never blocks the workflow's other steps for longer.
 */
export const TV_PUSH_OPTIONS: ActivityOptions = {
  startToCloseTimeout: '30 seconds',
  retry: {
    initialInterval: '5 seconds',
    backoffCoefficient: 2,
    maximumInterval: '5 minutes',
    maximumAttempts: 12,
    nonRetryableErrorTypes: [TV_PUSH_REFUSED],
  },
};
