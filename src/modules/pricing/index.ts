export type { PricingService } from './pricing.service';
export type { QuoteService } from './pricing.quote';
export type { Tariff } from './pricing.types';
export type { HeldUnits } from './pricing.offered';
