import { minibarFixtures } from './minibar.fixtures';
import { defineModule } from '../../platform/modules';
import { minibarRoutes } from './minibar.routes';
import { createMinibarService } from './minibar.service';

export const minibarModule = defineModule({
  name: 'minibar',
  fixtures: minibarFixtures,
  uses: [],
  create: ({ db }) => createMinibarService(db),
  routes: (minibar) => minibarRoutes(minibar),
});
