import { defineModule } from '../../platform/modules';
import { foliosFixtures } from './folios.fixtures';
import { folioSettingsRepository } from './folios.repository';
import { foliosRoutes } from './folios.routes';
import { createFoliosService, type FoliosDependencies } from './folios.service';
import { scrubbed } from '../../platform/personal-data';

/**
 * The hotel's books: built after bookings, whose ledger (charges, payments) and stays (check-in, check-out) it
 * follows to post its lines in their transactions (docs/decisions/folios.md).
 */
export const foliosModule = defineModule({
  name: 'folios',
  fixtures: foliosFixtures,
  uses: ['hotels', 'payments', 'touristTax', 'bookings', 'minibar', 'rentals'],
  personalData: [
    scrubbed('folios', 'booking', [{ name: 'payer_name' }]),
    scrubbed('folio_lines', 'folio', [{ name: 'description' }]),
  ],
  create: ({ db }, deps: FoliosDependencies) => createFoliosService(db, deps),
  routes: (folios) => foliosRoutes(folios),
  onHotelCreated: (_folios, trx, hotelId) => folioSettingsRepository.insertDefaults(trx, hotelId),
});
