import type { ChannelActivities } from '../../../workflows/contracts/channels';
import type { ChannelsService } from './channels.service';

/** The sync's activity: one push (a refusal of the channel fails for good; no answer or a 429 is retried). */
export function channelsActivities(channels: ChannelsService): ChannelActivities {
  return {
    pushChannelAri: ({ hotelId, full }) => channels.push(hotelId, full),
  };
}
