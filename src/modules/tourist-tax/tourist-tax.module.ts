import { defineModule } from '../../platform/modules';
import { touristTaxFixtures } from './tourist-tax.fixtures';
import { touristTaxRoutes } from './tourist-tax.routes';
import { settingsRepository } from './tourist-tax.repository';
import { createTouristTaxService, type TouristTaxDependencies } from './tourist-tax.service';

export const touristTaxModule = defineModule({
  name: 'touristTax',
  fixtures: touristTaxFixtures,
  uses: ['hotels', 'payments'],
  create: ({ db, config }, deps: TouristTaxDependencies) => createTouristTaxService(db, config, deps),
  routes: (tax) => touristTaxRoutes(tax),
  onHotelCreated: (_tax, trx, hotelId) => settingsRepository.insertDefaults(trx, hotelId),
});
