import { ActivityFailure, log } from '@temporalio/workflow';
import type { BookingLifecycleStatus } from './contracts/bookings';
import type { TvPushInput } from './contracts/tv';

// What both versions of the booking workflow share: how their steps outside run, and the options of their calls.

/** The guest's e-mail: retried while the relay is down; a day later the news is stale, and the booking goes on. */
export const GUEST_EMAIL_OPTIONS = {
  startToCloseTimeout: '20 seconds',
  scheduleToCloseTimeout: '1 day',
  retry: { initialInterval: '2 seconds', backoffCoefficient: 2, maximumInterval: '10 minutes' },
} as const;

/** The first version's announcement of a status: short, so an attempt lost with a crashed worker is soon retried. */
export const ANNOUNCE_OPTIONS = {
  startToCloseTimeout: '20 seconds',
  retry: { initialInterval: '2 seconds', backoffCoefficient: 2, maximumInterval: '10 minutes' },
} as const;

/** After the stay: retried while the database or the relay is down, given up after a day (the log shows it). */
export const AFTER_STAY_OPTIONS = GUEST_EMAIL_OPTIONS;

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

/** The statuses the first version pushes to the TV system (it lets the activity find whether there is one). */
export const TV_EVENT_FOR: Partial<Record<BookingLifecycleStatus, TvPushInput['event']>> = {
  checked_in: 'check_in',
  checked_out: 'check_out',
};
