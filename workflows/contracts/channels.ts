import type { ActivityOptions } from '@temporalio/workflow';

/**
 * A connected hotel's ARI sync (`channels:<hotelId>`): started (or revived) through the outbox by the commit of any
 * change to what the hotel sells or its price (its inventory version), by a connection and by a requested full sync.
 * Ids and flags only go in and out: values are read and pushed inside the activity.
 */
export interface ChannelSyncInput {
  hotelId: string;
  /** A change taken before continuing as new, still to push. */
  pending?: ChannelChange | null;
  /** When the last push ended (epoch ms): the channel's interval holds across runs. */
  lastPush?: number;
  /** The hotel's next midnight as the last push saw it (epoch ms). */
  nextDayAt?: number;
  /** A full push failed: the next one is full. */
  fullOwed?: boolean;
}

/**
 * A change: `full` pushes every value of the window again (on connection, on request); otherwise the window is read
 * and what differs from what the channel was last sent is pushed.
 */
export interface ChannelChange {
  full: boolean;
  /**
   * First compare what the channel holds with what it was sent, and send again what differs (nightly, at the
   * hotel's midnight, and on request); staff are told of a difference. Absent: no.
   */
  reconcile?: boolean;
}

export interface ChannelPushResult {
  /**
   * `gone`: the hotel disconnected (the workflow ends unless a change came meanwhile); `refused`: the channel refused
   * the push for good (recorded on the connection, staff told), later changes are pushed as usual.
   */
  status: 'connected' | 'gone' | 'refused';
  /** Calls made: at most one per kind (availability, restrictions). */
  calls: number;
  /** The hotel's inventory moved while the push ran: a change it may not hold, pushed again (absent: no). */
  stale?: boolean;
  /** The hotel's next midnight (epoch ms): the window moves then, a new last day to send (absent: unknown). */
  nextDayAt?: number;
}

export interface ChannelActivities {
  /**
   * Reads the hotel's availability, prices and restrictions over the next 365 days and pushes what changed (all of
   * it when `full`) in date ranges: one availability call and one restrictions call at most. With `reconcile` (not with
   * `full`), first reads back what the channel holds (in date chunks) and treats the days it holds otherwise than it
   * was sent as not held; a read that fails is recorded and the push goes on. Fails retryable on a 429 or no answer, not retryable when the channel refuses the key or the property.
   */
  pushChannelAri(input: { hotelId: string; full: boolean; reconcile?: boolean }): Promise<ChannelPushResult>;
}

/** Changes arriving within this quiet time go into one push. */
export const CHANNEL_DEBOUNCE_MS = 1_000;
/** A steady stream of changes (never quiet) is pushed this long after its first change at the latest. */
export const CHANNEL_MAX_DELAY_MS = 3_000;
/** Channex allows about 10 calls a minute per kind and property: one push per this long. */
export const CHANNEL_PUSH_INTERVAL_MS = 6_000;
/** How often a push tells Temporal it is alive. */
export const CHANNEL_HEARTBEAT_MS = 5_000;
/** Pushes before the workflow continues as new. */
export const CHANNEL_PUSHES_PER_RUN = 100;
export const CHANNEL_HISTORY_LIMIT = 5_000;

/** A push: a 429 or a 5xx is retried 6 s, 12 s, 24 s... up to a minute apart (never faster than the channel's limit). */
export const CHANNEL_PUSH_OPTIONS: ActivityOptions = {
  startToCloseTimeout: '2 minutes',
  // The push heartbeats every CHANNEL_HEARTBEAT_MS and stops at its next step once cancelled (docs/decisions/channels.md).
  heartbeatTimeout: '20 seconds',
  retry: {
    initialInterval: '6 seconds',
    backoffCoefficient: 2,
    maximumInterval: '1 minute',
    nonRetryableErrorTypes: ['ChannelRefused'],
  },
};

export type ChannelSyncWorkflow = (input: ChannelSyncInput) => Promise<void>;

export const channelWorkflowIds = {
  sync: (hotelId: string) => `channels:${hotelId}`,
};
/** The signal carrying a change (the migration's trigger sends it too: `ariChanged`, `{ full: false }`). */
export const CHANNEL_CHANGED_SIGNAL = 'ariChanged';
/** A refusal of the module's activities (the activity boundary's type for them). */
export const CHANNELS_REFUSED = 'ChannelRefused';
