import { defineQuery } from '@temporalio/workflow';

/**
 * What a durable workflow still means to do for a booking, and when (a running timer): asked by the booking's
 * timeline. A query handler adds no command to a history, so recorded histories replay unchanged.
 */
export interface UpcomingStep {
  /** ISO time the timer fires. */
  at: string;
  step: 'review_invitation' | 'room_move' | 'payment_expires' | 'deposit_payment_expires' | 'hold_settles';
}

export const upcomingQuery = defineQuery<UpcomingStep[]>('upcoming');

/** One step at `at` (epoch ms), or none when there is no such timer. */
export const upcomingAt = (step: UpcomingStep['step'], at: number | undefined | null): UpcomingStep[] =>
  at === undefined || at === null ? [] : [{ step, at: new Date(at).toISOString() }];
