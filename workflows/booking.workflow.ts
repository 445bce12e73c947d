import { condition, log, proxyActivities, setHandler, sleep } from '@temporalio/workflow';
import { AFTER_STAY_OPTIONS, GUEST_EMAIL_OPTIONS, loggedFailure, serially } from './booking-steps';
import {
  bookingStatusSignal,
  type BookingActivities,
  type BookingOutsideEffects,
  type BookingStatusChange,
  type BookingWorkflowInput,
  type GuestEmailKind,
} from './contracts/bookings';
import type { LoyaltyActivities } from './contracts/loyalty';
import type { ReviewActivities } from './contracts/reviews';
import { TV_PUSH_OPTIONS, type TvActivities } from './contracts/tv';

const { sendGuestBookingEmail } = proxyActivities<BookingActivities>(GUEST_EMAIL_OPTIONS);
const { pushStayToTv } = proxyActivities<TvActivities>(TV_PUSH_OPTIONS);
const { accrueStayPoints } = proxyActivities<LoyaltyActivities>(AFTER_STAY_OPTIONS);
const { sendReviewInvitation } = proxyActivities<ReviewActivities>(AFTER_STAY_OPTIONS);

const FINAL = new Set(['checked_out', 'cancelled']);

/**
 * One per booking (`booking:<id>`), from creation to its final status. The in-app notifications and the staff screens
 * are written by the commits themselves; each commit also decides what of it must reach the outside
 * (`BookingOutsideEffects`, in the input and in every status signal), and this workflow sends exactly that, with
 * retries: the guest's e-mails and the TV system's greeting one after the other (each kind on its own, so a system
 * that is down holds up neither the statuses nor the other kind), and after a check-out the loyalty points and the
 * review invitation after the hotel's delay (a durable timer). A booking with nothing to send runs no activity.
 */
export async function bookingLife(input: BookingWorkflowInput): Promise<string> {
  const { hotelId, bookingId } = input;
  const changes: BookingStatusChange[] = [];
  setHandler(bookingStatusSignal, (change) => {
    changes.push(change);
  });
  const emails = serially('Guest e-mail');
  const tv = serially('TV push');
  const afterStay: Promise<void>[] = [];

  const guestEmail = async (kind: GuestEmailKind) => {
    const outcome = await sendGuestBookingEmail(hotelId, bookingId, kind);
    if (outcome === 'in_doubt') log.warn('Guest e-mail in doubt, not sent again', { bookingId, kind });
  };
  const reviewInvitation = async (delayMs: number) => {
    if (delayMs > 0) await sleep(delayMs);
    const outcome = await sendReviewInvitation(hotelId, bookingId);
    if (outcome === 'in_doubt') log.warn('Review invitation in doubt, not sent again', { bookingId });
  };

  function send({ guestEmail: kind, tv: event, loyalty, reviewInvitationDelayMs }: BookingOutsideEffects = {}) {
    if (kind) emails.add(() => guestEmail(kind), { kind });
    if (event) tv.add(() => pushStayToTv({ hotelId, bookingId, event }), { event });
    if (loyalty)
      afterStay.push(loggedFailure('Loyalty accrual', bookingId, () => accrueStayPoints(hotelId, bookingId)));
    if (reviewInvitationDelayMs !== undefined)
      afterStay.push(loggedFailure('Review invitation', bookingId, () => reviewInvitation(reviewInvitationDelayMs)));
  }

  let status: string = input.status;
  send(input.effects);
  while (!FINAL.has(status)) {
    await condition(() => changes.length > 0);
    const change = changes.shift()!;
    status = change.status;
    send(change.effects);
  }
  await Promise.all([emails.settled(), tv.settled(), ...afterStay]);
  return status;
}
