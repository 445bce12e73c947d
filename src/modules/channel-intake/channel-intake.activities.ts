import type { ChannelIntakeActivities } from '../../../workflows/contracts/channel-intake';
import type { ChannelIntakeService } from './channel-intake.service';

/** The intake workflow's activities: a round of the hotel's feed, and the schedule's wake of every connected hotel. */
export function channelIntakeActivities(intake: ChannelIntakeService): ChannelIntakeActivities {
  return {
    pullChannelRevisions: ({ hotelId, revisionIds }) => intake.pull(hotelId, revisionIds),
    wakeChannelIntakes: () => intake.wakeAll(),
  };
}
