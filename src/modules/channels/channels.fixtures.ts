import type { ModuleFixtures } from '../../platform/fixtures';

/** No record of its own with an id in a path: the connection is the hotel's one (`/channel-connection`). */
export const channelsFixtures: ModuleFixtures = {
  records: {},
};
