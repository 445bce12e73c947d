import { defineModule } from '../../platform/modules';
import { createLoyaltyService } from './loyalty.service';

/** Loyalty: the hotel's programme, its tiers and every guest's ledger of points. */
export const loyaltyModule = defineModule({
  name: 'loyalty',
  uses: [],
  create: ({ db }) => createLoyaltyService(db),
});
