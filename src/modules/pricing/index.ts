export { createPricingService, type PricingService } from './pricing.service';
export { createQuoteService, type QuoteService } from './pricing.quote';
export { pricingRoutes } from './pricing.routes';
