import { reviewsFixtures } from './reviews.fixtures';
import { defineModule } from '../../platform/modules';
import { sendingOnce } from '../../platform/temporal/mail-failures';
import type { ReviewActivities } from '../../../workflows/contracts/reviews';
import { REVIEW_EVENTS } from './reviews.events';
import { createInvitationJobs } from './reviews.invitations';
import { reviewsRoutes } from './reviews.routes';
import { createReviewsService, type ReviewsDependencies } from './reviews.service';
import { reviewsEnv } from './reviews.env';

/** Reviews: the guest's rating of a stay after check-out, and the staff's answers to it. */
export const reviewsModule = defineModule({
  name: 'reviews',
  fixtures: reviewsFixtures,
  uses: ['hotels', 'bookings', 'notifications'],
  config: reviewsEnv,
  create: ({ db }, deps: ReviewsDependencies) => createReviewsService(db, deps),
  routes: (reviews) => reviewsRoutes(reviews),
  events: REVIEW_EVENTS,
  onHotelCreated: (reviews, trx, hotelId) => reviews.settings.onHotelCreated(trx, hotelId),
  activities(_reviews, { db, config, mailer }, deps): ReviewActivities {
    const jobs = createInvitationJobs(db, config, mailer, deps);
    return {
      reviewInvitationDelay: (hotelId, bookingId) => jobs.delay(hotelId, bookingId),
      sendReviewInvitation: (hotelId, bookingId) => sendingOnce(() => jobs.send(hotelId, bookingId)),
    };
  },
});
