import { guestsFixtures } from './guests.fixtures';
import { defineModule } from '../../platform/modules';
import { guestsRoutes } from './guests.routes';
import { createGuestsService } from './guests.service';
import { guestsPersonalData } from './guests.personal-data';

export const guestsModule = defineModule({
  name: 'guests',
  fixtures: guestsFixtures,
  uses: [],
  personalData: guestsPersonalData,
  create: ({ db, config }) => createGuestsService(db, config),
  routes: (guests) => guestsRoutes(guests),
});
