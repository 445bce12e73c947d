export type { CardsService } from './cards.service';
export type { CardIssuance } from './cards.types';
