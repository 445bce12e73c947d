import { bookingPaymentWorkflowId } from '../../../workflows/contracts/booking-payments';
import { bookingWorkflowIds } from '../../../workflows/contracts/bookings';
import { depositWorkflowId } from '../../../workflows/contracts/deposits';
import { upcomingQuery, type UpcomingStep } from '../../../workflows/contracts/upcoming';
import { WorkflowsUnavailable, type WorkflowQueries } from '../../platform/temporal/workflow-queries';
import type { SourceRequest, UpcomingEntry } from './timeline.types';

/** How long the timeline waits for the workflows' answers before it answers without them. */
export const UPCOMING_TIMEOUT_MS = 1000;
/** The most deposits and online payments whose workflows are asked (the open ones among the latest). */
const ASKED = 20;

const SAID: Record<UpcomingStep['step'], { summary: string; workflow: string }> = {
  review_invitation: { summary: 'The review invitation is sent to the guest', workflow: 'bookingLife' },
  room_move: { summary: 'The guest is moved to the room planned for the next nights', workflow: 'bookingLife' },
  payment_expires: { summary: 'The online payment expires unless paid', workflow: 'bookingPayment' },
  deposit_payment_expires: { summary: 'The deposit expires unless paid', workflow: 'deposit' },
  hold_settles: { summary: 'The deposit hold is settled before it lapses at the provider', workflow: 'deposit' },
};

export type Upcoming =
  | { available: true; entries: UpcomingEntry[]; unanswered?: string[]; reason?: string }
  | { available: false; reason: string; entries: [] };

/** The booking's durable workflows still running: its own, its open deposits', its pending online payments'. */
async function workflowsOf({ bookingId, shared }: SourceRequest) {
  // Read once for the money sources too: deposits newest first, online payments oldest first.
  const deposits = (await shared.deposits()).deposits.slice(0, ASKED);
  const payments = (await shared.onlinePayments()).slice(-ASKED);
  return [
    bookingWorkflowIds.booking(bookingId),
    ...deposits.filter((deposit) => deposit.closed_at === null).map((deposit) => depositWorkflowId(deposit.id)),
    ...payments
      .filter((payment) => payment.status === 'pending')
      .map((payment) => bookingPaymentWorkflowId(payment.id)),
  ];
}

/**
 * What is still to come, from the workflows' own timers (their `upcoming` query), all asked at once within
 * UPCOMING_TIMEOUT_MS: the answers that arrived are shown and the workflows that did not answer named
 * (`unanswered`); a Temporal slow or down for all of them leaves the part out, saying so.
 */
export async function upcomingOf(workflows: Pick<WorkflowQueries, 'ask'>, request: SourceRequest): Promise<Upcoming> {
  const ids = await workflowsOf(request);
  const answers = await Promise.allSettled(ids.map((id) => workflows.ask(id, upcomingQuery, UPCOMING_TIMEOUT_MS)));
  const failure = answers.find((answer) => answer.status === 'rejected');
  if (failure && !(failure.reason instanceof WorkflowsUnavailable)) throw failure.reason;
  const unanswered = ids.filter((_, i) => answers[i].status === 'rejected');
  if (unanswered.length === ids.length)
    return {
      available: false,
      reason: 'The workflows did not answer in time: what is still to come is left out',
      entries: [],
    };
  const entries = answers
    .flatMap((answer) => (answer.status === 'fulfilled' ? (answer.value ?? []) : []))
    .map(({ at, step }) => ({
      at,
      kind: step,
      summary: SAID[step].summary,
      actor: { type: 'system' as const, name: SAID[step].workflow },
    }))
    .sort((a, b) => a.at.localeCompare(b.at));
  if (unanswered.length === 0) return { available: true, entries };
  // The answers that arrived are shown; the workflows that did not answer in time are named.
  const reason = 'Some workflows did not answer in time: what they still mean to do is left out';
  return { available: true, entries, unanswered, reason };
}
