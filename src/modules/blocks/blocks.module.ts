import { defineModule } from '../../platform/modules';
import { blocksActivities } from './blocks.activities';
import { blocksEnv } from './blocks.env';
import { blocksFixtures } from './blocks.fixtures';
import { blocksStayFollower } from './blocks.follower';
import { inventoryHolds } from './blocks.holds';
import { blocksRoutes } from './blocks.routes';
import { createBlocksService, type BlocksDependencies } from './blocks.service';

/** Group blocks: units held out of every sale, their pickup, release and report. */
export const blocksModule = defineModule({
  name: 'blocks',
  fixtures: blocksFixtures,
  uses: ['bookings', 'notifications'],
  config: blocksEnv,
  create: ({ db, config }, deps: BlocksDependencies) => {
    deps.bookings.holdInventory(inventoryHolds);
    deps.bookings.followStays(blocksStayFollower);
    return createBlocksService(db, deps, config);
  },
  routes: (blocks) => blocksRoutes(blocks),
  activities: blocksActivities,
});
