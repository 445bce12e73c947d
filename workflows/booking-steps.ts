import { ActivityFailure, condition, log, proxyActivities } from '@temporalio/workflow';
import type { BookingActivities, BookingLifecycleStatus, GuestEmailKind, PlannedMove } from './contracts/bookings';
import type { LoyaltyActivities } from './contracts/loyalty';
import type { ReviewActivities } from './contracts/reviews';
import { TV_PUSH_OPTIONS, type TvActivities, type TvPushInput } from './contracts/tv';
import { upcomingAt } from './contracts/upcoming';

// What both versions of the booking workflow share: their activities, and how their steps outside run.

/** The guest's e-mail: retried while the relay is down; a day later the news is stale, and the booking goes on. */
const GUEST_EMAIL_OPTIONS = {
  startToCloseTimeout: '20 seconds',
  scheduleToCloseTimeout: '1 day',
  retry: { initialInterval: '2 seconds', backoffCoefficient: 2, maximumInterval: '10 minutes' },
} as const;

/** The first version's announcement of a status: short, so an attempt lost with a crashed worker is soon retried. */
const ANNOUNCE_OPTIONS = {
  startToCloseTimeout: '20 seconds',
  retry: { initialInterval: '2 seconds', backoffCoefficient: 2, maximumInterval: '10 minutes' },
} as const;

/** After the stay: retried while the database or the relay is down, given up after a day (the log shows it). */
const AFTER_STAY_OPTIONS = GUEST_EMAIL_OPTIONS;

export const { sendGuestBookingEmail } = proxyActivities<BookingActivities>(GUEST_EMAIL_OPTIONS);
/**
 * A planned move: retried while the database is down, given up (logged) after six hours, so a move that keeps
 * failing neither happens a day late nor keeps the booking's workflow open after its check-out.
 */
const PLANNED_MOVE_OPTIONS = {
  startToCloseTimeout: '20 seconds',
  scheduleToCloseTimeout: '6 hours',
  retry: { initialInterval: '2 seconds', backoffCoefficient: 2, maximumInterval: '10 minutes' },
} as const;

export const { announceBooking } = proxyActivities<BookingActivities>(ANNOUNCE_OPTIONS);
export const { carryOutPlannedMove } = proxyActivities<BookingActivities>(PLANNED_MOVE_OPTIONS);
export const { pushStayToTv } = proxyActivities<TvActivities>(TV_PUSH_OPTIONS);
export const { accrueStayPoints } = proxyActivities<LoyaltyActivities>(AFTER_STAY_OPTIONS);
export const { reviewInvitationDelay, sendReviewInvitation } = proxyActivities<ReviewActivities>(AFTER_STAY_OPTIONS);

export const FINAL = new Set(['checked_out', 'cancelled']);

/** The guest's e-mail of this kind; one in doubt (an attempt lost mid-send) is logged, never sent again. */
export async function guestEmail(hotelId: string, bookingId: string, kind: GuestEmailKind): Promise<void> {
  const outcome = await sendGuestBookingEmail(hotelId, bookingId, kind);
  if (outcome === 'in_doubt') log.warn('Guest e-mail in doubt, not sent again', { bookingId, kind });
}

/** The review invitation now; one in doubt is logged, never sent again. */
export async function reviewInvitationNow(hotelId: string, bookingId: string): Promise<void> {
  const outcome = await sendReviewInvitation(hotelId, bookingId);
  if (outcome === 'in_doubt') log.warn('Review invitation in doubt, not sent again', { bookingId });
}

const causeOf = (failure: unknown) => (failure instanceof ActivityFailure ? failure.cause?.message : String(failure));

/**
 * Steps of one kind, one after the other beside the status loop, so an outside system that is down delays neither
 * the next status nor the other kinds of steps; one given up is logged and the next goes on.
 */
export function serially(what: string) {
  let queue = Promise.resolve();
  return {
    add(step: () => Promise<unknown>, context: Record<string, unknown>) {
      queue = queue.then(step).then(
        () => undefined,
        (failure: unknown) => log.warn(`${what} given up`, { ...context, cause: causeOf(failure) }),
      );
    },
    /** Every step added so far has been done or given up. */
    settled: () => queue,
  };
}

/** A step that failed for good is logged; the others go on and the booking's workflow ends normally. */
export async function loggedFailure(what: string, bookingId: string, step: () => Promise<unknown>): Promise<void> {
  try {
    await step();
  } catch (failure) {
    log.warn(`${what} given up`, { bookingId, cause: causeOf(failure) });
  }
}

/**
 * A stay's planned moves, each carried out at its time (a durable timer) by the activity, which does it once and only
 * if the stay still plans it; a new plan (a move changed or undone) replaces the one waited for, and the wait ends
 * with the booking (`ended`).
 */
export function plannedMoves(hotelId: string, bookingId: string, ended: () => boolean) {
  let plan: PlannedMove | null = null;
  let version = 0;
  let following: Promise<void> | undefined;
  async function follow() {
    while (plan && !ended()) {
      const seen = version;
      const due: PlannedMove = plan;
      const wait = due.at - Date.now();
      if (wait > 0 && (await condition(() => version !== seen || ended(), wait))) continue;
      const next = await carryOutPlannedMove(hotelId, bookingId, due);
      if (version === seen) plan = next;
    }
  }
  return {
    replan(next: PlannedMove | null) {
      plan = next;
      version += 1;
      following ??= loggedFailure('Planned move', bookingId, follow).then(() => {
        following = undefined;
      });
    },
    /** Nothing waited for or carried out any more. */
    settled: () => following ?? Promise.resolve(),
    /** The move waited for, for the booking's timeline (a query). */
    upcoming: () => upcomingAt('room_move', following && plan?.at),
  };
}

/** The statuses the first version pushes to the TV system (it lets the activity find whether there is one). */
export const TV_EVENT_FOR: Partial<Record<BookingLifecycleStatus, TvPushInput['event']>> = {
  checked_in: 'check_in',
  checked_out: 'check_out',
};
