import type { Knex } from 'knex';
import { sha256Hex } from '../../platform/crypto';
import type { Db } from '../../platform/db/knex';
import { mapPage, type PageRequest } from '../../platform/db/keyset';
import { ConflictError, NotFoundError, ValidationError } from '../../platform/errors';
import type { ExpectedVersion } from '../../platform/http/concurrency';
import type { BookingsService } from '../bookings';
import type { HotelsService } from '../hotels';
import type { NotificationsService } from '../notifications';
import { reviewCreated, reviewUpdated } from './reviews.events';
import { linkNotFound, ReviewLinkExpired, reviewMessages } from './reviews.messages';
import { invitationsRepository, optOutsRepository, reviewsRepository, settingsRepository } from './reviews.repository';
import { arrivalStatus, normalizeEmail } from './reviews.rules';
import {
  REVIEW_ASPECTS,
  type Averages,
  type ReviewFilter,
  type OptOutRow,
  type ReviewInput,
  type ReviewRow,
  type ReviewSettingsChanges,
  type ReviewStatus,
  type SummaryQuery,
} from './reviews.types';

export interface ReviewsDependencies {
  hotels: Pick<HotelsService, 'find' | 'settingsOf'>;
  bookings: Pick<BookingsService, 'get' | 'followStays'>;
  notifications: Pick<NotificationsService, 'notify'>;
}

/** A review as staff see it. */
export function presentReview({ hotel_id: _hotel, invitation_id: _invitation, ...review }: ReviewRow) {
  return review;
}

/** An opt-out as staff see it: the hotel is the route's own. */
function presentOptOut({ hotel_id: _hotel, ...optOut }: OptOutRow) {
  return optOut;
}

function averagesOf(row: Averages): Averages {
  return {
    overall: row.overall,
    cleanliness: row.cleanliness,
    staff: row.staff,
    comfort: row.comfort,
    value: row.value,
  };
}

function assertOrdered(from: string | undefined, to: string | undefined) {
  if (from && to && to < from)
    throw new ValidationError(reviewMessages.spanReversed, [
      { path: 'query.to', message: reviewMessages.spanReversed },
    ]);
}

export function createReviewsService(db: Db, deps: ReviewsDependencies) {
  const timeZoneOf = async (hotelId: string) => (await deps.hotels.find(hotelId))!.timezone;

  async function reviewOf(hotelId: string, id: string): Promise<ReviewRow> {
    const review = await reviewsRepository.find(db, hotelId, id);
    if (!review) throw new NotFoundError(reviewMessages.notFound);
    return review;
  }

  /** A staff change of a review, announced to the hotel's screens in its transaction. */
  function change(hotelId: string, id: string, changes: Partial<ReviewRow>) {
    return db.transaction(async (trx) => {
      const review = await reviewsRepository.update(trx, hotelId, id, changes);
      if (!review) throw new NotFoundError(reviewMessages.notFound);
      await reviewUpdated.publish(trx, hotelId, {
        review_id: review.id,
        status: review.status,
        has_reply: review.reply !== null,
      });
      return presentReview(review);
    });
  }

  /**
   * The invitation a link's token opens: 404 for a token nobody was sent (or a hotel closed since), 410 once expired.
   * A used one is answered (the page thanks the guest); submitting refuses it. A link opened proves its e-mail
   * reached the guest, even before the worker has recorded it (or if its mailer's answer was lost): it is marked sent,
   * so the claim is never given back and the e-mail never sent again.
   */
  async function invitationOf(token: string) {
    const invitation = await invitationsRepository.byTokenDigest(db, sha256Hex(token));
    const hotel = invitation && (await deps.hotels.find(invitation.hotel_id));
    if (!invitation || !hotel?.is_active) throw linkNotFound();
    if (!invitation.sent_at) await invitationsRepository.markSent(db, invitation.hotel_id, invitation.booking_id);
    return { invitation, hotel };
  }

  return {
    /** The booking's review invitation (when sent, used) and review, if any (its timeline). */
    async ofBooking(hotelId: string, bookingId: string) {
      const invitation = await invitationsRepository.timesOf(db, hotelId, bookingId);
      const review = await reviewsRepository.ofBooking(db, hotelId, bookingId);
      return { invitation, review: review && presentReview(review) };
    },

    settings: {
      get: (hotelId: string) => settingsRepository.get(db, hotelId),

      update: (hotelId: string, changes: ReviewSettingsChanges, expected?: ExpectedVersion) =>
        db.transaction(async (trx) => {
          await settingsRepository.update(trx, hotelId, changes, expected);
          return settingsRepository.get(trx, hotelId);
        }),

      onHotelCreated: (trx: Knex.Transaction, hotelId: string) => settingsRepository.insertDefaults(trx, hotelId),
    },

    async list(hotelId: string, { limit, cursor, ...filter }: ReviewFilter & PageRequest) {
      assertOrdered(filter.from, filter.to);
      const page = await reviewsRepository.page(db, hotelId, await timeZoneOf(hotelId), filter, { limit, cursor });
      return mapPage(page, presentReview);
    },

    get: async (hotelId: string, id: string) => presentReview(await reviewOf(hotelId, id)),

    /** The hotel's answer, shown under the review; given again, it replaces the one before. */
    reply: (hotelId: string, id: string, text: string, userId: string) =>
      change(hotelId, id, { reply: text, replied_at: new Date(), replied_by: userId }),

    removeReply: (hotelId: string, id: string) =>
      change(hotelId, id, { reply: null, replied_at: null, replied_by: null }),

    /** Published or hidden; the first publication's time is kept when a review is hidden and shown again. */
    async setStatus(hotelId: string, id: string, status: Exclude<ReviewStatus, 'pending'>) {
      const review = await reviewOf(hotelId, id);
      return change(hotelId, id, {
        status,
        ...(status === 'published' && !review.published_at && { published_at: new Date() }),
      });
    },

    /** The averages (hidden reviews left out) of the reviews that came in from `from` to `to`, and month by month. */
    async summary(hotelId: string, { from, to }: SummaryQuery) {
      assertOrdered(from, to);
      const { total, months } = await reviewsRepository.summary(db, hotelId, await timeZoneOf(hotelId), from, to);
      return {
        from,
        to,
        count: total.count,
        averages: averagesOf(total),
        months: months.map((month) => ({ month: month.month, count: month.count, averages: averagesOf(month) })),
      };
    },

    optOuts: {
      list: async (hotelId: string, { limit, cursor, email }: PageRequest & { email?: string }) =>
        mapPage(
          await optOutsRepository.page(db, hotelId, email && normalizeEmail(email), { limit, cursor }),
          presentOptOut,
        ),

      async add(hotelId: string, email: string, userId: string) {
        const { optOut, created } = await optOutsRepository.add(db, {
          hotel_id: hotelId,
          email: normalizeEmail(email),
          source: 'staff',
          created_by: userId,
        });
        return { optOut: presentOptOut(optOut), created };
      },

      async remove(hotelId: string, id: string) {
        if (!(await optOutsRepository.remove(db, hotelId, id))) throw new NotFoundError(reviewMessages.optOutNotFound);
      },
    },

    /** What the review page shows: the hotel, the stay, the guest's first name; nothing else of them. */
    async readLink(token: string) {
      const { invitation, hotel } = await invitationOf(token);
      if (invitation.expired) throw new ReviewLinkExpired();
      return {
        hotel_name: hotel.name,
        guest_first_name: invitation.guest_first_name,
        stay_from: invitation.stay_from,
        stay_to: invitation.stay_to,
        expires_at: invitation.expires_at,
        submitted: invitation.used_at !== null,
        aspects: [...REVIEW_ASPECTS],
      };
    },

    /**
     * The guest's one review of the stay: the link's use is taken in the review's transaction, so of two submissions
     * at once one waits for the other and is refused. Staff hear of it by the notification and the realtime event.
     */
    async submit(token: string, input: ReviewInput) {
      const { invitation } = await invitationOf(token);
      if (invitation.expired) throw new ReviewLinkExpired();
      if (invitation.used_at) throw new ConflictError(reviewMessages.linkUsed, 'review_link_used');
      const hotelId = invitation.hotel_id;
      return db.transaction(async (trx) => {
        if (!(await invitationsRepository.use(trx, hotelId, invitation.id))) {
          throw new ConflictError(reviewMessages.linkUsed, 'review_link_used');
        }
        const settings = await settingsRepository.get(trx, hotelId);
        const status = arrivalStatus(settings);
        const comment = input.comment?.trim() ?? '';
        const review = await reviewsRepository.insert(trx, {
          hotel_id: hotelId,
          booking_id: invitation.booking_id,
          invitation_id: invitation.id,
          overall: input.overall,
          cleanliness: input.cleanliness ?? null,
          staff: input.staff ?? null,
          comfort: input.comfort ?? null,
          value: input.value ?? null,
          comment,
          guest_first_name: invitation.guest_first_name,
          stay_from: invitation.stay_from,
          stay_to: invitation.stay_to,
          status,
          published_at: status === 'published' ? new Date() : null,
        });
        await deps.notifications.notify(trx, hotelId, {
          type: 'review_created',
          title: reviewMessages.newReviewTitle,
          body: reviewMessages.newReviewBody(review.guest_first_name, review.overall, comment),
          data: { review_id: review.id, booking_id: review.booking_id, overall: review.overall },
          dedupeKey: `review_created:${review.id}`,
        });
        await reviewCreated.publish(trx, hotelId, {
          review_id: review.id,
          booking_id: review.booking_id,
          overall: review.overall,
          status: review.status,
          created_at: review.created_at,
        });
        return { status: review.status, created_at: review.created_at };
      });
    },

    /** The link's opt-out: the address hears nothing more of reviews from this hotel (a used or expired link too). */
    async optOutByLink(token: string) {
      const { invitation } = await invitationOf(token);
      await optOutsRepository.add(db, {
        hotel_id: invitation.hotel_id,
        email: invitation.email,
        source: 'guest',
        created_by: null,
      });
      return { opted_out: true as const };
    },
  };
}

export type ReviewsService = ReturnType<typeof createReviewsService>;
