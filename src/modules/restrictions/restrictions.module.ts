import { defineModule } from '../../platform/modules';
import { restrictionsFixtures } from './restrictions.fixtures';
import { restrictionsRoutes } from './restrictions.routes';
import { createRestrictionsService } from './restrictions.service';

export const restrictionsModule = defineModule({
  name: 'restrictions',
  fixtures: restrictionsFixtures,
  uses: [],
  create: ({ db }) => createRestrictionsService(db),
  routes: (restrictions) => restrictionsRoutes(restrictions),
});
