export type { LoyaltyService } from './loyalty.service';
