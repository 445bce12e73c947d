import type { ReviewSettingsRow, ReviewStatus } from './reviews.types';

/** How long a review link stays good after it is sent: long enough for a guest back from holiday, no longer. */
export const INVITATION_TTL_DAYS = 60;

/** The longest comment and reply. */
export const MAX_TEXT = 2000;

/** The widest `from`..`to` of the reviews list and the averages (two years, month by month). */
export const MAX_SPAN_DAYS = 731;

const HOUR_MS = 3_600_000;

/** The fields of a booking the invitation rules read. */
export interface InvitedStay {
  status: string;
  source: string;
  guest_email: string | null;
  checked_out_at: Date | null;
}

export const normalizeEmail = (email: string) => email.trim().toLowerCase();

/**
 * Whether the guest of this stay is asked for a review at all: a checked-out stay with an address to write to, in a
 * hotel that invites, from a guest who has not opted out. OTA guests are left to the OTA, which asks for its own
 * review and whose addresses are its relays.
 */
export function invites(
  stay: InvitedStay,
  settings: Pick<ReviewSettingsRow, 'invitations_enabled'>,
  optedOut: boolean,
): stay is InvitedStay & { guest_email: string } {
  return (
    settings.invitations_enabled &&
    stay.status === 'checked_out' &&
    stay.source !== 'ota' &&
    Boolean(stay.guest_email?.trim()) &&
    !optedOut
  );
}

/** What is left of the hotel's delay counted from the check-out (never negative); `overrideMs` replaces the delay. */
export function remainingDelayMs(
  checkedOutAt: Date | null,
  delayHours: number,
  now: Date,
  overrideMs: number | undefined,
): number {
  const delay = overrideMs ?? delayHours * HOUR_MS;
  const since = checkedOutAt ? now.getTime() - checkedOutAt.getTime() : 0;
  return Math.max(0, delay - Math.max(0, since));
}

/** A review comes in published when the hotel publishes without moderation, otherwise waiting for it. */
export const arrivalStatus = (settings: Pick<ReviewSettingsRow, 'auto_publish'>): ReviewStatus =>
  settings.auto_publish ? 'published' : 'pending';

/** The days of the stay on the hotel's calendar: a night stay's dates, an hourly stay's days of start and end. */
export function stayDays(
  stay: { check_in: string | null; check_out: string | null; start_at: Date; end_at: Date },
  timeZone: string,
): { stay_from: string; stay_to: string } {
  if (stay.check_in && stay.check_out) return { stay_from: stay.check_in, stay_to: stay.check_out };
  const day = new Intl.DateTimeFormat('en-CA', { timeZone });
  return { stay_from: day.format(stay.start_at), stay_to: day.format(stay.end_at) };
}
