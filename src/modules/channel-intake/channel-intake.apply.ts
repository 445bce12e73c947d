import type { Knex } from 'knex';
import { transactionWithRetry } from '../../platform/db/retry';
import type { Db } from '../../platform/db/knex';
import { AppError, NotFoundError } from '../../platform/errors';
import type { Booking, BookingsService } from '../bookings';
import type { NotificationsService } from '../notifications';
import type { RoomsService } from '../rooms';
import { placementOf, type Placement } from './channel-intake.booking';
import { revisionsRepository as revisions } from './channel-intake.repository';
import type {
  ChannelRevision,
  IntakeChannels,
  IntakeMapping,
  RevisionOutcome,
  UnplacedReason,
} from './channel-intake.types';

export interface ApplyDependencies {
  db: Db;
  bookings: Pick<BookingsService, 'create' | 'lifecycle' | 'get'>;
  rooms: Pick<RoomsService, 'roomsOfCategory'>;
  notifications: Pick<NotificationsService, 'notify'>;
  channels: Pick<IntakeChannels, 'pushAgain'>;
}

export interface Hotel {
  id: string;
  slug: string;
}

/** A revision that lost its place while being applied: recorded as what it is, nothing of it written. */
class Outrun extends Error {
  constructor(readonly outcome: 'duplicate' | 'superseded') {
    super(outcome);
  }
}

/** At the same instant, a booking's new revision comes before its modification, and a cancellation after both. */
const KIND_ORDER = { new: 0, modified: 1, cancelled: 2 } as const;

/** Whether `revision` comes after the recorded one in the channel's order (its time there, its kind, then its id). */
function isNewer(
  revision: ChannelRevision,
  recorded: { channel_at: Date; kind: ChannelRevision['kind']; revision_id: string },
): boolean {
  const at = revision.insertedAt.getTime() - recorded.channel_at.getTime();
  if (at !== 0) return at > 0;
  const kind = KIND_ORDER[revision.kind] - KIND_ORDER[recorded.kind];
  return kind > 0 || (kind === 0 && revision.id > recorded.revision_id);
}

/** The answer a refusal of the bookings service means for the revision (a refusal of ours goes on up). */
function unplacedReasonOf(error: unknown): UnplacedReason | undefined {
  if (!(error instanceof AppError) || error.status >= 500) return undefined;
  return error.code === 'no_free_room' || error.code === 'room_taken' ? 'no_free_room' : 'refused';
}

/**
 * Applies one revision read from the channel, in one transaction with its record: a new booking, its change, its
 * cancellation; or, when it cannot be placed, its record as unplaced with the staff's urgent notice. Once per
 * revision id; in the channel's order per booking (an older revision than one counted is recorded as superseded).
 */
export function createApply({ db, bookings, rooms, notifications, channels }: ApplyDependencies) {
  const actorOf = (hotel: Hotel) => ({ userId: null, hotelSlug: hotel.slug, mayOverride: true });

  /** In the booking's transaction: the revision recorded as applied, unless another got there first. */
  function recorder(hotelId: string, revision: ChannelRevision) {
    return async (trx: Knex.Transaction, booking: Pick<Booking, 'id'> | null) => {
      await revisions.lockBooking(trx, hotelId, revision.bookingId);
      const latest = await revisions.latest(trx, hotelId, revision.bookingId);
      if (latest && latest.revision_id !== revision.id && !isNewer(revision, latest)) throw new Outrun('superseded');
      if (!(await revisions.insert(trx, hotelId, revision, { outcome: 'applied', bookingId: booking?.id })))
        throw new Outrun('duplicate');
      await revisions.supersedeUnplaced(trx, hotelId, revision.bookingId, revision.id);
    };
  }

  async function unplaced(hotel: Hotel, revision: ChannelRevision, reason: UnplacedReason, detail: string | null) {
    return transactionWithRetry(db, async (trx) => {
      await revisions.lockBooking(trx, hotel.id, revision.bookingId);
      if (!(await revisions.insert(trx, hotel.id, revision, { outcome: 'unplaced', reason, detail })))
        return 'duplicate';
      await revisions.supersedeUnplaced(trx, hotel.id, revision.bookingId, revision.id);
      await notifications.notify(trx, hotel.id, {
        type: 'channel_booking_unplaced',
        title: `Бронь ${revision.otaName} ${revision.otaReservationCode} не размещена`,
        body: `Бронь с канала не удалось разместить (${reason}): разместите её или отклоните в списке неразмещённых.`,
        data: { revision_id: revision.id, reason },
        dedupeKey: `channel-unplaced:${revision.id}`,
      });
      // What the channel sold is not what we hold: push the availability again.
      await channels.pushAgain(trx, hotel);
      return 'unplaced' as const;
    });
  }

  async function record(hotelId: string, revision: ChannelRevision, outcome: RevisionOutcome, bookingId?: string) {
    return transactionWithRetry(db, async (trx) => {
      await revisions.lockBooking(trx, hotelId, revision.bookingId);
      return (await revisions.insert(trx, hotelId, revision, { outcome, bookingId })) ? outcome : 'duplicate';
    });
  }

  /** Our booking changed to the revision's stay; another room of the new category when its room type changed. */
  async function change(
    hotel: Hotel,
    booking: Pick<Booking, 'id' | 'category_id'>,
    placement: Placement & { ok: true },
    within: Within,
  ) {
    const { category_id: _category, unattended_strategy: _strategy, status: _status, ...changes } = placement.input;
    const { categoryId } = placement;
    const update = (extra: { room_id?: string }) =>
      bookings.lifecycle.change(hotel.id, booking.id, { ...changes, ...extra }, actorOf(hotel), {
        within: (trx, updated) => within(trx, updated),
      });
    if (categoryId === booking.category_id) return update({});
    for (const room of await rooms.roomsOfCategory(hotel.id, categoryId!)) {
      try {
        return await update({ room_id: room.id });
      } catch (error) {
        if (unplacedReasonOf(error) !== 'no_free_room') throw error;
      }
    }
    throw new AppError(409, 'no_free_room', 'no room of the category is free');
  }

  /** Our booking of the channel's booking, if it has one still. */
  async function currentBooking(hotelId: string, channelBookingId: string) {
    const bookingId = await revisions.bookingOf(db, hotelId, channelBookingId);
    if (!bookingId) return undefined;
    try {
      return (await bookings.get(hotelId, bookingId)) as Pick<Booking, 'id' | 'status' | 'category_id'>;
    } catch (error) {
      if (error instanceof NotFoundError) return undefined;
      throw error;
    }
  }

  type Within = (trx: Knex.Transaction, booking: Pick<Booking, 'id'> | null) => Promise<void>;

  /** The revision's stay written: our booking made, or changed, or cancelled. */
  async function write(hotel: Hotel, revision: ChannelRevision, placement: Placement, within: Within) {
    const current = await currentBooking(hotel.id, revision.bookingId);
    const live = current && current.status !== 'cancelled' && current.status !== 'checked_out';
    if (revision.kind === 'cancelled') {
      if (!live) return transactionWithRetry(db, (trx) => within(trx, current ?? null));
      const cancel = { status: 'cancelled' as const, cancel_reason: `Отменена в ${revision.otaName}` };
      return bookings.lifecycle.change(hotel.id, current.id, cancel, actorOf(hotel), { within });
    }
    if (!placement.ok) throw new AppError(409, placement.reason, placement.reason);
    if (live) return change(hotel, current, placement, within);
    return bookings.create(hotel.id, placement.input, actorOf(hotel), undefined, within);
  }

  return async function apply(
    hotel: Hotel,
    revision: ChannelRevision,
    mapping: IntakeMapping,
  ): Promise<RevisionOutcome | 'duplicate'> {
    if (await revisions.byRevisionId(db, hotel.id, revision.id)) return 'duplicate';
    const latest = await revisions.latest(db, hotel.id, revision.bookingId);
    if (latest && !isNewer(revision, latest)) return record(hotel.id, revision, 'superseded');
    const placement = placementOf(revision, mapping);
    try {
      await write(hotel, revision, placement, recorder(hotel.id, revision));
      return 'applied';
    } catch (error) {
      if (error instanceof Outrun)
        return error.outcome === 'duplicate' ? 'duplicate' : record(hotel.id, revision, 'superseded');
      const refused = revision.kind !== 'cancelled' && !placement.ok && placement.reason;
      const reason = refused || unplacedReasonOf(error);
      if (!reason) throw error;
      return unplaced(hotel, revision, reason, error instanceof Error ? error.message : null);
    }
  };
}
