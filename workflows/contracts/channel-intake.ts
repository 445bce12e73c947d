import type { ActivityOptions } from '@temporalio/workflow';

/**
 * A connected hotel's booking intake (`channel-intake:<hotelId>`): started through the outbox when its booking webhook
 * is registered, woken by the webhook's calls and by the every-minute schedule (`channelIntakeSweep`), which also
 * revives a run that ended.
 * Ids only go in and out: a revision is read from the channel, applied and acknowledged inside the activity and never
 * enters a workflow history.
 */
export interface ChannelIntakeInput {
  hotelId: string;
}

/** A webhook's "fetch": the revisions it names are read (from the channel, by id) before the feed. */
export interface ChannelIntakeFetch {
  revisionIds: string[];
}

/** What one round of intake came to. */
export interface IntakeRound {
  /** The hotel has no channel connection (any more): the workflow ends, the hotel leaves the sweep. */
  connected: boolean;
  /** Revisions read from the feed and acknowledged in this round, by what became of them. */
  applied: number;
  duplicates: number;
  superseded: number;
  unplaced: number;
  /** Revisions the channel answered that intake cannot read: left unacknowledged, the staff told; the round goes on. */
  unreadable?: number;
}

export interface ChannelIntakeActivities {
  /**
   * One round: the revisions named by webhooks, then the channel's feed of unacknowledged ones, each read from the
   * channel, applied in one transaction
   * with its record (or recorded as a duplicate, superseded or unplaced) and acknowledged after the commit. Idempotent:
   * a retried round applies nothing twice (the record is unique per revision id) and acknowledges again.
   */
  pullChannelRevisions(input: ChannelIntakeInput & ChannelIntakeFetch): Promise<IntakeRound>;
  /** The schedule's sweep: every connected hotel's intake woken (started, or revived); the count. */
  wakeChannelIntakes(): Promise<number>;
}

/** A round heartbeats this often (its heartbeat timeout is 10 s). */
export const CHANNEL_INTAKE_BEAT_MS = 3_000;
/**
 * An idle intake reads the feed again after this long without a wake (the poll of the feed): a revision whose webhook
 * was lost (our API down, the call failed) is found by it, so it is well under the minute a revision may wait for its
 * acknowledgement (`BENCH=intake`).
 */
export const CHANNEL_INTAKE_POLL = '30 seconds';
/** The poll of runs started before `CHANNEL_INTAKE_POLL_PATCH` (their histories replay with it). */
export const CHANNEL_INTAKE_POLL_BEFORE = '1 minute';
export const CHANNEL_INTAKE_POLL_PATCH = 'intake-poll-30s';
/** Revision ids a round takes from the webhooks' signals (the rest wait for the next round; the feed has them too). */
export const CHANNEL_INTAKE_NAMED_PER_ROUND = 50;
/** Rounds before the workflow continues as new (its history stays short). */
export const CHANNEL_INTAKE_ROUNDS_PER_RUN = 100;

/**
 * A round lasts at most 2 minutes and heartbeats every few seconds: a round of a worker that died is tried again after
 * 10 s without a beat, not after its 2 minutes.
 */
export const CHANNEL_INTAKE_OPTIONS: ActivityOptions = {
  startToCloseTimeout: '2 minutes',
  heartbeatTimeout: '10 seconds',
  // Bounded: a round failing this often ends the run; the minute sweep starts the hotel's intake again.
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute', maximumAttempts: 10 },
};

export type ChannelIntakeWorkflow = (input: ChannelIntakeInput) => Promise<void>;

export const channelIntakeWorkflowIds = {
  intake: (hotelId: string) => `channel-intake:${hotelId}`,
};
export const CHANNEL_INTAKE_FETCH_SIGNAL = 'fetch';
/** A refusal of the module's activities (the activity boundary's type for them). */
export const CHANNEL_INTAKE_REFUSED = 'ChannelIntakeRefused';
