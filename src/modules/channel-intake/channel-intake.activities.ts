import { Context } from '@temporalio/activity';
import { CHANNEL_INTAKE_BEAT_MS, type ChannelIntakeActivities } from '../../../workflows/contracts/channel-intake';
import type { ChannelIntakeService } from './channel-intake.service';

/**
 * The intake workflow's activities: a round of the hotel's feed (heartbeating, so a round of a dead worker is retried
 * within seconds), and the schedule's wake of every connected hotel.
 */
export function channelIntakeActivities(intake: ChannelIntakeService): ChannelIntakeActivities {
  return {
    async pullChannelRevisions({ hotelId, revisionIds }) {
      const context = Context.current();
      const beating = setInterval(() => context.heartbeat(), CHANNEL_INTAKE_BEAT_MS);
      return intake.pull(hotelId, revisionIds).finally(() => clearInterval(beating));
    },
    wakeChannelIntakes: () => intake.wakeAll(),
  };
}
