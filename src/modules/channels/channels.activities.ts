import { Context } from '@temporalio/activity';
import { CHANNEL_HEARTBEAT_MS, type ChannelActivities } from '../../../workflows/contracts/channels';
import type { ChannelsService } from './channels.service';

/**
 * The sync's activity: one push (a refusal of the channel is recorded and ends it; no answer or a 429 is retried). It
 * reconciles first when asked (`channels.reconcile.ts`). It heartbeats while it runs: an attempt whose worker stalls is retried after the heartbeat timeout, and an attempt
 * that outlives its time (cancelled) stops before its next call or write, so it never runs beside its retry.
 */
export function channelsActivities(channels: ChannelsService): ChannelActivities {
  return {
    async pushChannelAri({ hotelId, full, reconcile }) {
      const context = Context.current();
      const beat = setInterval(() => context.heartbeat(), CHANNEL_HEARTBEAT_MS);
      // A reconciliation is named by its activity, the same across its attempts: a retry finds it done.
      const { workflowExecution, activityId } = context.info;
      const request = `${workflowExecution?.runId ?? 'none'}:${activityId}`;
      try {
        return await channels.push(
          hotelId,
          { full, ...(reconcile && { reconcile: { request } }) },
          context.cancellationSignal,
        );
      } finally {
        clearInterval(beat);
      }
    },
  };
}
