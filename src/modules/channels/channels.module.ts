import { CHANNELS_REFUSED } from '../../../workflows/contracts/channels';
import { defineModule } from '../../platform/modules';
import { channelsActivities } from './channels.activities';
import { channelsEnv } from './channels.env';
import { channelsFixtures } from './channels.fixtures';
import { channelsRoutes } from './channels.routes';
import { createChannelsService, type ChannelsDependencies } from './channels.service';

/**
 * A hotel's channel manager (Channex, behind the `ChannelManager` seam): the connection and its mapping, and the ARI
 * sync, one workflow per connected hotel pushing every change to what the hotel sells (docs/decisions/channels.md).
 */
export const channelsModule = defineModule({
  name: 'channels',
  uses: ['hotels', 'rooms', 'bookings', 'restrictions', 'pricing', 'notifications'],
  config: channelsEnv,
  fixtures: channelsFixtures,
  create: ({ db, config }, deps: ChannelsDependencies) => createChannelsService(db, config, deps),
  routes: (channels) => channelsRoutes(channels),
  activities: (channels) => channelsActivities(channels),
  refusals: { type: CHANNELS_REFUSED },
});
