import { defineModule } from '../../platform/modules';
import { blocksFixtures } from './blocks.fixtures';
import { blocksRoutes } from './blocks.routes';
import { createBlocksService, type BlocksDependencies } from './blocks.service';

export const blocksModule = defineModule({
  name: 'blocks',
  fixtures: blocksFixtures,
  uses: ['bookings'],
  create: ({ db }, deps: BlocksDependencies) => createBlocksService(db, deps),
  routes: (blocks) => blocksRoutes(blocks),
});
