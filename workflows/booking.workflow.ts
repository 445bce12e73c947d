import { condition, patched, setHandler, sleep } from '@temporalio/workflow';
import {
  accrueStayPoints,
  announceBooking,
  FINAL,
  guestEmail,
  loggedFailure,
  plannedMoves,
  pushStayToTv,
  reviewInvitationDelay,
  reviewInvitationNow,
  serially,
  TV_EVENT_FOR,
} from './booking-steps';
import {
  GUEST_EMAIL_FOR,
  bookingMovedSignal,
  bookingStatusSignal,
  movePlannedSignal,
  type BookingOutsideEffects,
  type BookingStatusChange,
  type BookingWorkflowInput,
} from './contracts/bookings';
import { upcomingAt, upcomingQuery } from './contracts/upcoming';

/**
 * One per booking (`booking:<id>`), from creation to its final status. The in-app notifications and the staff screens
 * are written by the commits themselves; each commit also decides what of it must reach the outside
 * (`BookingOutsideEffects`, in the input and in every status signal), and this workflow sends exactly that, with
 * retries: the guest's e-mails and the TV system's greeting one after the other (each kind on its own, so a system
 * that is down holds up neither the statuses nor the other kind), and after a check-out the loyalty points and the
 * review invitation at its time (a durable timer). A guest moved to another room tonight (`moved`) has the TV system
 * told of the check-out of the old room and the check-in of the new; a move planned for a later night is carried out
 * at its time (`movePlanned`: the guest moved then as from tonight, once). A booking with nothing to send runs no
 * activity.
 */
export async function bookingLife(input: BookingWorkflowInput): Promise<string> {
  const { hotelId, bookingId } = input;
  const changes: BookingStatusChange[] = [];
  let status: string = input.status;
  setHandler(bookingStatusSignal, (change) => {
    changes.push(change);
  });
  const emails = serially('Guest e-mail');
  const tv = serially('TV push');
  // A guest moved tonight: the TV system forgets them in the room left and greets them in the new one, in that order.
  // A worker older than room moves had no handler and sent nothing: its histories replay without these pushes.
  setHandler(bookingMovedSignal, ({ tv: rooms, moveId }) => {
    if (!patched('room-moves')) return;
    const push = (event: 'check_in' | 'check_out', roomId: string | undefined) => {
      if (roomId) tv.add(() => pushStayToTv({ hotelId, bookingId, event, roomId, moveId }), { event, roomId });
    };
    push('check_out', rooms?.checkOutRoomId);
    push('check_in', rooms?.checkInRoomId);
  });
  // A move planned for a later night, carried out on its day. Workers older than planned moves had no handler.
  const plans = plannedMoves(hotelId, bookingId, () => FINAL.has(status));
  setHandler(movePlannedSignal, ({ next }) => {
    if (patched('planned-moves')) plans.replan(next);
  });
  const afterStay: Promise<void>[] = [];
  // The review invitation's timer while it runs, for the booking's timeline (a query: replay-safe).
  let invitationAt: number | null = null;
  setHandler(upcomingQuery, () => [...plans.upcoming(), ...upcomingAt('review_invitation', invitationAt)]);

  const reviewInvitation = async (at: () => Promise<number | null>) => {
    const time = await at();
    if (time === null) return;
    invitationAt = time;
    if (time > Date.now()) await sleep(time - Date.now());
    invitationAt = null;
    await reviewInvitationNow(hotelId, bookingId);
  };
  const afterwards = (what: string, step: () => Promise<unknown>) =>
    afterStay.push(loggedFailure(what, bookingId, step));

  function send({ guestEmail: kind, tv: event, loyalty, reviewInvitationAt }: BookingOutsideEffects) {
    if (kind) emails.add(() => guestEmail(hotelId, bookingId, kind), { kind });
    if (event) tv.add(() => pushStayToTv({ hotelId, bookingId, event }), { event });
    if (loyalty) afterwards('Loyalty accrual', () => accrueStayPoints(hotelId, bookingId));
    if (reviewInvitationAt !== undefined)
      afterwards('Review invitation', () => reviewInvitation(async () => reviewInvitationAt));
  }

  /**
   * A change signalled by a process of the first version (a rolling deploy) decided nothing: it is announced and its
   * steps are asked of the activities, which find out whether there is anything to send, as the first version does.
   */
  async function undecided(change: BookingStatusChange) {
    await announceBooking(hotelId, bookingId, { event: 'status', status: change.status, reason: change.reason });
    send({ guestEmail: GUEST_EMAIL_FOR[change.status], tv: TV_EVENT_FOR[change.status] });
    if (change.status !== 'checked_out') return;
    afterwards('Loyalty accrual', () => accrueStayPoints(hotelId, bookingId));
    afterwards('Review invitation', () =>
      reviewInvitation(async () => {
        const delayMs = await reviewInvitationDelay(hotelId, bookingId);
        return delayMs === null ? null : Date.now() + delayMs;
      }),
    );
  }

  const follow = (change: BookingStatusChange) => (change.effects ? send(change.effects) : undecided(change));

  send(input.effects ?? {});
  // Started by a final status's signal-with-start (a booking without a workflow until then): the signal that started
  // it is all it will hear, and what it asks is sent (once: a signal delivered again later is not read).
  if (FINAL.has(status)) for (const change of changes.splice(0)) await follow(change);
  while (!FINAL.has(status)) {
    await condition(() => changes.length > 0);
    const change = changes.shift()!;
    status = change.status;
    await follow(change);
  }
  await Promise.all([emails.settled(), tv.settled(), plans.settled(), ...afterStay]);
  return status;
}
