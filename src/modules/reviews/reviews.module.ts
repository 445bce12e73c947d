import { reviewsFixtures } from './reviews.fixtures';
import { defineModule } from '../../platform/modules';
import { REVIEW_EVENTS } from './reviews.events';
import { reviewsActivities } from './reviews.activities';
import { reviewsStayFollower } from './reviews.follower';
import { reviewsRoutes } from './reviews.routes';
import { createReviewsService, type ReviewsDependencies } from './reviews.service';
import { reviewsEnv } from './reviews.env';
import { ERASED, erasedBy, overwritten, scrubbed } from '../../platform/personal-data';
import { reviewsRepository } from './reviews.repository';

/** Reviews: the guest's rating of a stay after check-out, and the staff's answers to it. */
export const reviewsModule = defineModule({
  name: 'reviews',
  fixtures: reviewsFixtures,
  uses: ['hotels', 'bookings', 'notifications'],
  config: reviewsEnv,
  personalData: [
    overwritten('review_invitations', 'review_invitations', 'booking', () => ({
      email: ERASED,
      guest_first_name: ERASED,
    })),
    overwritten('reviews', 'reviews', 'booking', () => ({ guest_first_name: ERASED })),
    erasedBy('review_opt_outs', 'review_opt_outs', reviewsRepository.eraseOptOuts),
    scrubbed('reviews', 'booking', [{ name: 'comment' }]),
  ],
  create: ({ db, config }, deps: ReviewsDependencies) => {
    deps.bookings.followStays(reviewsStayFollower(config));
    return createReviewsService(db, deps);
  },
  routes: (reviews) => reviewsRoutes(reviews),
  events: REVIEW_EVENTS,
  onHotelCreated: (reviews, trx, hotelId) => reviews.settings.onHotelCreated(trx, hotelId),
  activities: reviewsActivities,
});
