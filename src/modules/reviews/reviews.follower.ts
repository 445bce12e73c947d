import type { StayFollower } from '../bookings';
import type { ReviewsSettings } from './reviews.env';
import { optOutsRepository, settingsRepository } from './reviews.repository';
import { invites, normalizeEmail, remainingDelayMs } from './reviews.rules';

/**
 * Reviews follow stays: a check-out whose guest is to be invited (invitations on, an address, not an OTA guest, not
 * opted out) has its invitation sent at the hotel's delay after it; the sending checks all of it again. The override
 * of the delay (`REVIEW_INVITATION_DELAY_MS`) is read where the check-out is committed: the API and the worker.
 */
export function reviewsStayFollower(config: Pick<ReviewsSettings, 'reviewInvitationDelayMs'>): StayFollower {
  return {
    statuses: ['checked_out'],
    async effectsOf(trx, booking) {
      const settings = await settingsRepository.find(trx, booking.hotel_id);
      if (!settings?.invitations_enabled || !booking.guest_email) return {};
      const optedOut = await optOutsRepository.has(trx, booking.hotel_id, normalizeEmail(booking.guest_email));
      if (!invites(booking, settings, optedOut)) return {};
      const delayMs = remainingDelayMs(
        booking.checked_out_at,
        settings.invitation_delay_hours,
        new Date(),
        config.reviewInvitationDelayMs,
      );
      return { reviewInvitationAt: Date.now() + delayMs };
    },
  };
}
