import type { ReviewsConfig } from './reviews.env';
import { keyedTokens, sha256Hex } from '../../platform/crypto';
import type { Db } from '../../platform/db/knex';
import { NotFoundError } from '../../platform/errors';
import type { Mailer } from '../../platform/mail';
import type { WorkerContext } from '../../platform/modules';
import type { ReviewsSettings } from './reviews.env';
import { sendingClaimed } from '../../platform/temporal/mail-failures';
import type { ReviewActivities, ReviewInvitationOutcome } from '../../../workflows/contracts/reviews';
import { invitationEmail } from './reviews.emails';
import { invitationsRepository, optOutsRepository, settingsRepository } from './reviews.repository';
import { INVITATION_TTL_DAYS, invites, normalizeEmail, remainingDelayMs, stayDays } from './reviews.rules';
import type { ReviewsDependencies, ReviewsService } from './reviews.service';

const DAY_MS = 86_400_000;

/** What the booking workflow does after a check-out; every step is safe to run twice. */
function createInvitationJobs(
  db: Db,
  config: Pick<ReviewsConfig, 'appUrl' | 'reviewInvitationDelayMs' | 'jwtSecret'>,
  mailer: Mailer,
  deps: Pick<ReviewsDependencies, 'hotels' | 'bookings'>,
) {
  /** A stay's one link: a send retried after a reply the mail server never gave sends the same working link. */
  const links = keyedTokens(config.jwtSecret, 'reviews', 'invitation link');

  /**
   * The stay, its hotel and the hotel's settings, when its guest is to be invited (checked again right before
   * sending). A closed hotel invites nobody, as with reviews off: its links would answer 404.
   */
  async function invited(hotelId: string, bookingId: string) {
    const booking = await deps.bookings.get(hotelId, bookingId).catch((error: unknown) => {
      if (error instanceof NotFoundError) return undefined;
      throw error;
    });
    const hotel = booking && (await deps.hotels.find(hotelId));
    if (!booking || !hotel?.is_active) return undefined;
    const settings = await settingsRepository.get(db, hotelId);
    const optedOut = booking.guest_email
      ? await optOutsRepository.has(db, hotelId, normalizeEmail(booking.guest_email))
      : false;
    return invites(booking, settings, optedOut) ? { booking, hotel, settings } : undefined;
  }

  return {
    async delay(hotelId: string, bookingId: string, now = new Date()): Promise<number | null> {
      const stay = await invited(hotelId, bookingId);
      if (!stay) return null;
      return remainingDelayMs(
        stay.booking.checked_out_at,
        stay.settings.invitation_delay_hours,
        now,
        config.reviewInvitationDelayMs,
      );
    },

    /**
     * Sent at most once, like the booking's guest e-mails: the row (with the link's digest) is claimed and committed
     * before the e-mail goes; a failed send gives the claim back (a retry sends the same link), a claim found unsent is
     * another attempt's (retry later) or, after IN_DOUBT_AFTER, a vanished one's (`in_doubt`, never sent again).
     */
    async send(hotelId: string, bookingId: string): Promise<ReviewInvitationOutcome | 'busy'> {
      const stay = await invited(hotelId, bookingId);
      if (!stay) return 'not_invited';
      const { booking, hotel } = stay;
      const hotelSettings = await deps.hotels.settingsOf(hotelId);
      const token = links.of(hotelId, bookingId);
      const days = stayDays(booking, hotel.timezone);
      const expiresAt = new Date(Date.now() + INVITATION_TTL_DAYS * DAY_MS);
      const claimed = await invitationsRepository.claim(db, {
        hotel_id: hotelId,
        booking_id: bookingId,
        token_sha256: sha256Hex(token),
        email: normalizeEmail(booking.guest_email),
        guest_first_name: booking.guest_first_name,
        ...days,
        expires_at: expiresAt,
      });
      if (!claimed) {
        const standing = await invitationsRepository.standing(db, hotelId, bookingId);
        if (standing?.sent) return 'already_sent';
        if (standing?.in_doubt) return 'in_doubt';
        return 'busy';
      }
      const message = invitationEmail({
        to: booking.guest_email.trim(),
        hotelName: hotel.name,
        firstName: booking.guest_first_name,
        stay: days,
        reviewUrl: `${config.appUrl}/review?token=${token}`,
        optOutUrl: `${config.appUrl}/review/opt-out?token=${token}`,
        expiresAt,
        timeZone: hotel.timezone,
        language: hotelSettings.guest_language,
      });
      try {
        await mailer.send(message);
      } catch (error) {
        await invitationsRepository.release(db, hotelId, bookingId);
        throw error;
      }
      await invitationsRepository.markSent(db, hotelId, bookingId);
      return 'sent';
    },
  };
}

/** The booking workflow's review invitation: how long to wait after check-out, then the e-mail (at most once). */
export function reviewsActivities(
  _reviews: ReviewsService,
  { db, config, mailer }: WorkerContext<ReviewsSettings>,
  deps: ReviewsDependencies,
): ReviewActivities {
  const jobs = createInvitationJobs(db, config, mailer, deps);
  return {
    reviewInvitationDelay: (hotelId, bookingId) => jobs.delay(hotelId, bookingId),
    sendReviewInvitation: (hotelId, bookingId) =>
      sendingClaimed(() => jobs.send(hotelId, bookingId), {
        type: 'ReviewBusy',
        message: `the review invitation of booking ${bookingId} is being sent`,
      }),
  };
}
