import { defineModule } from '../../platform/modules';
import { createReviewsService } from './reviews.service';

/** Reviews: the guest's rating of a stay after check-out, and the staff's answers to it. */
export const reviewsModule = defineModule({
  name: 'reviews',
  uses: [],
  create: ({ db }) => createReviewsService(db),
});
