import { pricingFixtures } from './pricing.fixtures';
import { defineModule } from '../../platform/modules';
import { createOfferedQuotes, type OfferedQuoteDependencies } from './pricing.offered';
import { createQuoteService, type QuoteDependencies } from './pricing.quote';
import { pricingRoutes } from './pricing.routes';
import { createPricingService } from './pricing.service';

export const pricingModule = defineModule({
  name: 'pricing',
  fixtures: pricingFixtures,
  uses: ['hotels', 'rooms', 'restrictions', 'touristTax'],
  create: ({ db }, deps: QuoteDependencies & OfferedQuoteDependencies) => {
    const quotes = createQuoteService(db, deps);
    return { ...createPricingService(db), quotes, ...createOfferedQuotes(db, quotes, deps) };
  },
  routes: (pricing) => pricingRoutes(pricing, pricing.offeredQuote),
});
