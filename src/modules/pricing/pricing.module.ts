import { defineModule } from '../../platform/modules';
import { createQuoteService } from './pricing.quote';
import { pricingRoutes } from './pricing.routes';
import { createPricingService } from './pricing.service';

export const pricingModule = defineModule({
  name: 'pricing',
  uses: [],
  create: ({ db }) => ({ ...createPricingService(db), quotes: createQuoteService(db) }),
  routes: (pricing) => pricingRoutes(pricing, pricing.quotes),
});
