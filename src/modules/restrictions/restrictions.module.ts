import { defineModule } from '../../platform/modules';
import { restrictionsChanged } from './restrictions.events';
import { restrictionsFixtures } from './restrictions.fixtures';
import { restrictionsRoutes } from './restrictions.routes';
import { createRestrictionsService } from './restrictions.service';

export const restrictionsModule = defineModule({
  name: 'restrictions',
  fixtures: restrictionsFixtures,
  uses: [],
  events: [restrictionsChanged],
  create: ({ db }) => createRestrictionsService(db),
  routes: (restrictions) => restrictionsRoutes(restrictions),
});
