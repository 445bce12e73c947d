import { defineModule } from '../../platform/modules';
import { rentalsRepository } from './rentals.repository';

/** Rental objects (tennis court, sauna, conference hall...): today the three drafts every new hotel starts with. */
export const rentalsModule = defineModule({
  name: 'rentals',
  uses: [],
  create: () => ({}),
  onHotelCreated: (_rentals, trx, hotelId) => rentalsRepository.insertTemplates(trx, hotelId),
});
