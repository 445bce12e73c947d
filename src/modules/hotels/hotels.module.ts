import { hotelsFixtures } from './hotels.fixtures';
import { defineModule } from '../../platform/modules';
import { hotelsRoutes } from './hotels.routes';
import { createHotelsService } from './hotels.service';
import { settingsRepository } from './hotels.settings';

export const hotelsModule = defineModule({
  name: 'hotels',
  fixtures: hotelsFixtures,
  uses: [],
  create: ({ db, config }) => createHotelsService(db, config),
  routes: (hotels) => hotelsRoutes(hotels),
  onHotelCreated: (_hotels, trx, hotelId) => settingsRepository.insertDefaults(trx, hotelId),
});
