import { defineSignal } from '@temporalio/workflow';

/** The booking workflows' contract, imported by the bookings module (which implements the activities) and them. */

export type BookingLifecycleStatus = 'inquiry' | 'confirmed' | 'checked_in' | 'checked_out' | 'cancelled';

/**
 * What of a status must reach systems outside the service, decided in the transaction that commits the status (by the
 * bookings module and the modules that follow stays), so the workflow runs an activity only when there is something
 * to send: the guest's e-mail of this kind, the TV system's greeting or farewell, the stay's loyalty points, the
 * review invitation at this time (epoch ms: a backlog before the workflow hears of it does not push it later). Flags
 * and a time only: what is sent is read by the activities.
 */
export interface BookingOutsideEffects {
  guestEmail?: GuestEmailKind;
  tv?: 'check_in' | 'check_out';
  loyalty?: boolean;
  reviewInvitationAt?: number;
}

export interface BookingWorkflowInput {
  hotelId: string;
  bookingId: string;
  status: BookingLifecycleStatus;
  /** What the booking's creation must send (`bookingLife`; the first version, `booking`, decided it by activities). */
  effects?: BookingOutsideEffects;
}

/** Why a booking changed status: by staff, by one of the background jobs, or by its online payment (or its absence). */
export interface BookingStatusChange {
  status: BookingLifecycleStatus;
  reason: 'manual' | 'no_show' | 'auto_checkout' | 'online_payment' | 'payment_timeout';
  /**
   * What the change must send (read by `bookingLife`; a `booking` workflow decides it by activities). Absent from a
   * signal of a process of the first version (during a rolling deploy): `bookingLife` then lets the activities decide.
   */
  effects?: BookingOutsideEffects;
}

/**
 * The e-mails the guest of an online booking gets: the request received (a booking made as an inquiry), the booking
 * confirmed (also the only one when it is made confirmed at once), and the booking cancelled, whatever the reason.
 */
export type GuestEmailKind = 'received' | 'confirmed' | 'cancelled';

/** The guest's e-mail a status calls for: a booking made confirmed at once gets the confirmation alone. */
export const GUEST_EMAIL_FOR: Partial<Record<BookingLifecycleStatus, GuestEmailKind>> = {
  inquiry: 'received',
  confirmed: 'confirmed',
  cancelled: 'cancelled',
};

/**
 * What became of a guest e-mail. `not_for_this_booking`: not an online booking, or no address to write to.
 * `in_doubt`: an earlier attempt took it on and vanished (a crashed worker) without saying whether the mail server
 * accepted it; it is not sent again, since a guest must never get an e-mail twice.
 */
export type GuestEmailOutcome = 'sent' | 'already_sent' | 'not_for_this_booking' | 'in_doubt';

export type BookingAnnouncement = { event: 'created' } | ({ event: 'status' } & BookingStatusChange);

export const bookingWorkflowIds = {
  booking: (bookingId: string) => `booking:${bookingId}`,
};

export const bookingStatusSignal = defineSignal<[BookingStatusChange]>('statusChanged');

/**
 * What a guest's move to another room, tonight, must send outside (decided at its commit): the TV system told of the
 * check-out of the room left and the check-in of the new one, each only if the TV system knows that room.
 */
export interface BookingMoveEffects {
  tv?: { checkOutRoomId?: string; checkInRoomId?: string };
  /** The move, named at its commit: its TV commands are keyed by it (activity ids start again in a new run). */
  moveId?: string;
}

export const bookingMovedSignal = defineSignal<[BookingMoveEffects]>('moved');

/**
 * The next room change a stay's segments plan for its guest (decided at a move's commit): from the night `from` the
 * guest is to be in `roomId`, carried out at `at` (epoch ms: the new room's segment's start, the hotel's check-in hour
 * of that day in its time zone). Null: no move planned any more (undone, or the last one carried out).
 */
export interface PlannedMove {
  from: string;
  roomId: string;
  at: number;
}

/** Every move's commit tells the booking's workflow the stay's next planned move, replacing the one before. */
export const movePlannedSignal = defineSignal<[{ next: PlannedMove | null }]>('movePlanned');

/** A booking a background job found due (no-show or overdue stay). */
export interface DueBookingRef {
  hotelId: string;
  hotelSlug: string;
  bookingId: string;
}

export interface BookingActivities {
  /** The notifications of a creation or status change; returns how many were made (each at most once). */
  announceBooking(hotelId: string, bookingId: string, announcement: BookingAnnouncement): Promise<number>;
  /** Sends the guest's e-mail of this kind unless it was sent (or taken on) before; throws while the relay fails. */
  sendGuestBookingEmail(hotelId: string, bookingId: string, kind: GuestEmailKind): Promise<GuestEmailOutcome>;
  findNoShows(): Promise<DueBookingRef[]>;
  cancelNoShow(due: DueBookingRef): Promise<string>;
  findOverdueStays(): Promise<DueBookingRef[]>;
  autoCheckOut(due: DueBookingRef): Promise<string>;
  /**
   * Carries out a planned move whose time has come, once (a guest in house not yet in `roomId` whose stay still plans
   * it: what a move from tonight does); returns the stay's next planned move.
   */
  carryOutPlannedMove(hotelId: string, bookingId: string, plan: PlannedMove): Promise<PlannedMove | null>;
}

export type BookingWorkflow = (input: BookingWorkflowInput) => Promise<string>;
