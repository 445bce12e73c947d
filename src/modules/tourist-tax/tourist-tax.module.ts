import { defineModule } from '../../platform/modules';
import { touristTaxFixtures } from './tourist-tax.fixtures';
import { touristTaxRoutes } from './tourist-tax.routes';
import { settingsRepository } from './tourist-tax.repository';
import { createTouristTaxService, type TouristTaxDependencies } from './tourist-tax.service';
import { overwritten, scrubbed } from '../../platform/personal-data';

export const touristTaxModule = defineModule({
  name: 'touristTax',
  fixtures: touristTaxFixtures,
  uses: ['hotels', 'payments'],
  personalData: [
    overwritten('tourist_tax_exemptions', 'tourist_tax_exemptions', 'booking', (_trx, target) => ({
      document_number_encrypted: target.erasedDocument.envelope,
      document_key_id: target.erasedDocument.keyId,
    })),
    scrubbed('tourist_tax_exemptions', 'booking', [{ name: 'description' }]),
  ],
  create: ({ db, config }, deps: TouristTaxDependencies) => createTouristTaxService(db, config, deps),
  routes: (tax) => touristTaxRoutes(tax),
  onHotelCreated: (_tax, trx, hotelId) => settingsRepository.insertDefaults(trx, hotelId),
});
