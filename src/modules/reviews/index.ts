export type { ReviewsService } from './reviews.service';
