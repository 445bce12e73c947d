import type { Knex } from 'knex';
import { BusinessRuleError, NotFoundError } from '../../platform/errors';
import { assertVersion, type ExpectedVersion } from '../../platform/http/concurrency';
import type { BookingStatusChange } from '../../../workflows/contracts/bookings';
import type { HousekeepingService } from '../housekeeping';
import type { PaymentsService } from '../payments';
import { formatMoney } from '../../platform/money';
import { createRoomWrites } from './bookings.clashes';
import type { BookingEffects } from './bookings.effects';
import type { InventoryHolds } from './bookings.holds';
import { balanceOf, bookingMessages, presentBooking, presentSegments } from './bookings.present';
import type { BookingsRepository, DueBooking } from './bookings.repository';
import { movedFields, refusedMove } from './bookings.rules';
import type { Booking, BookingChanges, BookingStatus } from './bookings.types';

export interface Actor {
  userId: string | null;
  hotelSlug: string;
  /** May sell a stay against the hotel's restrictions (management); absent: may not. */
  mayOverride?: boolean;
}

/** Why a change is made when a job makes it, and the version of the booking a client's change is for. */
export interface UpdateOptions {
  reason?: BookingStatusChange['reason'];
  expected?: ExpectedVersion;
  /** Runs in the change's transaction once it is written: what must commit with it or not at all (channel intake). */
  within?: (trx: Knex.Transaction, booking: Booking) => Promise<void>;
}

type Reason = BookingStatusChange['reason'];

/** What a change was, for its consequences: why, by whom, and the fields it was given. */
interface Consequence {
  reason: Reason | undefined;
  actor: Actor;
  changes: BookingChanges;
}

/** The data access a booking's life needs: the booking under its lock, its write, and the sweeps' due lists. */
export type LifecycleRepository = Pick<BookingsRepository, 'db' | 'transaction' | 'due' | 'segments'> & {
  bookings: Pick<BookingsRepository['bookings'], 'find' | 'insert' | 'update' | 'clashes'>;
};

export interface LifecycleDependencies {
  repository: LifecycleRepository;
  effects: Pick<BookingEffects, 'announce' | 'notifyStaff' | 'startAndAnnounce' | 'signalStatus'>;
  /** The stay's planned room moves told to its workflow (a split stay created, a guest checked in). */
  tellPlan(trx: Knex.Transaction, booking: Booking, hotelSlug: string): Promise<void>;
  housekeeping: Pick<HousekeepingService, 'createTurnoverTask'>;
  payments: Pick<PaymentsService, 'settingsOf'>;
  /** The fields a change of the booking's own data writes (its stay checked and priced again). */
  edited(trx: Knex.Transaction, booking: Booking, changes: BookingChanges, actor: Actor): Promise<Partial<Booking>>;
  /** A stay whose room or span changed must not take a unit a block holds. */
  holds: Pick<InventoryHolds, 'guard'>;
}

/**
 * A booking's life: every status move (confirm, check in, check out, cancel, the no-show and the auto check-out of
 * the sweeps, the expiry of an unpaid online booking) and every change of a booking goes through `change`, which
 * takes the booking's lock, applies the status machine (`bookings.rules.ts`) and, in the same transaction, its
 * consequences: the turnover clean of a check-out, the workflow's signal with what it must send outside (outbox), the
 * staff's in-app notifications and their screens (realtime).
 */
export function createBookingLifecycle(dependencies: LifecycleDependencies) {
  const { repository, effects, housekeeping, payments, edited, holds, tellPlan } = dependencies;
  const rooms = createRoomWrites(repository);

  /** A room a guest left (checked out, or moved out of tonight): dirty, with its turnover clean, in that transaction. */
  const turnover = (trx: Knex.Transaction, hotelId: string, roomId: string, bookingId: string) =>
    housekeeping.createTurnoverTask(trx, hotelId, roomId, bookingId);

  async function locked(trx: Knex.Transaction, hotelId: string, id: string, expected?: ExpectedVersion) {
    const booking = await repository.bookings.find(trx, hotelId, id, { forUpdate: true });
    if (!booking) throw new NotFoundError(bookingMessages.notFound);
    assertVersion(expected, booking.updated_at);
    return booking;
  }

  function assertMove(booking: Booking, to: BookingStatus): void {
    const refused = refusedMove(booking.status, to);
    if (refused === 'illegal') throw new BusinessRuleError(bookingMessages.move(booking.status, to));
    if (refused === 'final') throw new BusinessRuleError(bookingMessages.finalBooking);
  }

  /** A check-in honours the hotel's `require_payment_checkin`: `hard` refuses a balance due, `soft` warns of it. */
  async function checkInWarnings(trx: Knex.Transaction, booking: Booking): Promise<string[]> {
    const level = (await payments.settingsOf(booking.hotel_id, trx)).require_payment_checkin;
    const balance = balanceOf(booking);
    if (balance > 0n && level === 'hard')
      throw new BusinessRuleError(bookingMessages.unpaid(formatMoney(balance)), [], 'payment_required');
    return balance > 0n && level === 'soft' ? [bookingMessages.unpaidWarning(formatMoney(balance))] : [];
  }

  async function assertUnmoved(trx: Knex.Transaction, booking: Booking) {
    const segments = await repository.segments.of(trx, booking.hotel_id, [booking.id]);
    if (segments.length > 1) throw new BusinessRuleError(bookingMessages.movedRoomChange, [], 'moved_stay');
  }

  /** What the move writes to the booking itself, and the warnings its answer carries. */
  async function moveOf(trx: Knex.Transaction, booking: Booking, to: BookingStatus, cancelReason?: string) {
    if (to === booking.status) return { fields: {}, warnings: [] };
    const warnings = to === 'checked_in' ? await checkInWarnings(trx, booking) : [];
    return { fields: movedFields(booking, to, new Date(), cancelReason), warnings };
  }

  /** What follows in the same transaction: a check-out's turnover clean, the signal, notifications, the screens. */
  async function consequences(trx: Knex.Transaction, from: BookingStatus, updated: Booking, change: Consequence) {
    const { hotel_id: hotelId, status } = updated;
    if (status !== from && status === 'checked_out') await turnover(trx, hotelId, updated.room_id, updated.id);
    if (status !== from) {
      const move = { status, reason: change.reason ?? 'manual' } as const;
      await effects.signalStatus(trx, updated, move, change.actor.hotelSlug);
      // A plan passed before the guest arrived was dropped: the check-in tells it again (tonight's due at once).
      if (status === 'checked_in') await tellPlan(trx, updated, change.actor.hotelSlug);
      await effects.notifyStaff(trx, updated, { event: 'status', ...move });
    }
    await effects.announce(trx, updated, 'booking_updated', change.changes);
  }

  /** Changes a booking (its data, its status, or both) under its lock, in the caller's transaction with its consequences. */
  async function changeIn(
    trx: Knex.Transaction,
    hotelId: string,
    id: string,
    changes: BookingChanges,
    actor: Actor,
    { reason, expected, within }: UpdateOptions = {},
  ) {
    const booking = await locked(trx, hotelId, id, expected);
    const to = changes.status ?? booking.status;
    assertMove(booking, to);
    // A moved stay's rooms change by moves: its dates move its first and last segments (the trigger of migration 94).
    if (changes.room_id && changes.room_id !== booking.room_id) await assertUnmoved(trx, booking);
    const fields = await edited(trx, booking, changes, actor);
    const move = await moveOf(trx, booking, to, changes.cancel_reason ?? reason);
    const updated = await rooms.updateIn(trx, booking, { ...fields, ...move.fields });
    if ('room_id' in fields || 'start_at' in fields || 'end_at' in fields) await holds.guard(trx, updated, true);
    await consequences(trx, booking.status, updated, { reason, actor, changes });
    await within?.(trx, updated);
    const segments = await repository.segments.of(trx, hotelId, [id]);
    return { ...presentBooking(updated, move.warnings), rooms: presentSegments(segments) };
  }

  /** Changes a booking (its data, its status, or both), under its lock, in one transaction with its consequences. */
  async function change(hotelId: string, id: string, changes: BookingChanges, actor: Actor, options?: UpdateOptions) {
    return rooms.namingClashes(() =>
      repository.transaction((trx) => changeIn(trx, hotelId, id, changes, actor, options)),
    );
  }

  const system = (hotelSlug: string): Actor => ({ userId: null, hotelSlug });

  const isDue = async (due: DueBooking, reason: 'no_show' | 'auto_checkout') => {
    const found =
      reason === 'no_show'
        ? await repository.due.noShows(repository.db, due)
        : await repository.due.overdueStays(repository.db, due);
    return found.length > 0;
  };

  /**
   * A sweep's move of a booking it found due, if the booking is due still (else `skipped`). Staff may move it between
   * the look and the lock: a move refused then is a booking no longer due, skipped rather than failing the sweep.
   */
  async function sweep(due: DueBooking, reason: 'no_show' | 'auto_checkout'): Promise<'done' | 'skipped'> {
    if (!(await isDue(due, reason))) return 'skipped';
    const status = reason === 'no_show' ? 'cancelled' : 'checked_out';
    try {
      await change(due.hotelId, due.bookingId, { status }, system(due.hotelSlug), { reason });
    } catch (error) {
      if (await isDue(due, reason)) throw error;
      return 'skipped';
    }
    return 'done';
  }

  return {
    /**
     * A booking just written, in its transaction: staff are notified, its workflow starts and their screens show it
     * (one statement), and the workflow is told a split stay's planned move (`split`: only such a stay has one).
     */
    async begin(trx: Knex.Transaction, booking: Booking, hotelSlug: string, split = false) {
      await effects.notifyStaff(trx, booking, { event: 'created' });
      await effects.startAndAnnounce(trx, booking, hotelSlug);
      if (split) await tellPlan(trx, booking, hotelSlug);
    },
    change,
    changeIn,
    turnover,
    /** An inquiry confirmed by something other than staff (its online payment arrived). */
    confirm: (hotelId: string, id: string, hotelSlug: string, reason: Reason) =>
      change(hotelId, id, { status: 'confirmed' }, system(hotelSlug), { reason }),
    /** A booking cancelled by something other than staff (an unpaid online booking whose time is up). */
    cancel: (hotelId: string, id: string, hotelSlug: string, reason: Reason, cancelReason: string) =>
      change(hotelId, id, { status: 'cancelled', cancel_reason: cancelReason }, system(hotelSlug), { reason }),
    sweeps: {
      /** Across hotels, or of one hotel (its night audit). */
      noShows: (hotelId?: string) => repository.due.noShows(repository.db, hotelId ? { hotelId } : undefined),
      cancelNoShow: (due: DueBooking) => sweep(due, 'no_show'),
      overdueStays: () => repository.due.overdueStays(repository.db),
      autoCheckOut: (due: DueBooking) => sweep(due, 'auto_checkout'),
    },
  };
}
