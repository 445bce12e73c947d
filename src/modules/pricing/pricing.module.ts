import { pricingFixtures } from './pricing.fixtures';
import { defineModule } from '../../platform/modules';
import { createQuoteService, type QuoteDependencies } from './pricing.quote';
import { pricingRoutes } from './pricing.routes';
import { createPricingService } from './pricing.service';

export const pricingModule = defineModule({
  name: 'pricing',
  fixtures: pricingFixtures,
  uses: ['hotels', 'rooms'],
  create: ({ db }, deps: QuoteDependencies) => ({ ...createPricingService(db), quotes: createQuoteService(db, deps) }),
  routes: (pricing) => pricingRoutes(pricing, pricing.quotes),
});
