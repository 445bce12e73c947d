import { defineModule } from '../../platform/modules';
import { minibarRoutes } from './minibar.routes';
import { createMinibarService } from './minibar.service';

export const minibarModule = defineModule({
  name: 'minibar',
  uses: [],
  create: ({ db }) => createMinibarService(db),
  routes: (minibar) => minibarRoutes(minibar),
});
