import type { Knex } from 'knex';
import { transactionWithRetry } from '../../platform/db/retry';
import type { Db } from '../../platform/db/knex';
import { AppError, ConflictError, NotFoundError } from '../../platform/errors';
import type { Booking, BookingInput, BookingsService } from '../bookings';
import type { NotificationsService } from '../notifications';
import type { RoomsService } from '../rooms';
import { channelMicros, type ChannelRevision } from '../channels';
import { roomPlacementOf, type Placement } from './channel-intake.booking';
import { revisionsRepository as revisions } from './channel-intake.repository';
import type {
  IntakeChannels,
  RevisionRecord,
  IntakeMapping,
  RevisionOutcome,
  UnplacedReason,
} from './channel-intake.types';

export interface ApplyDependencies {
  db: Db;
  bookings: Pick<BookingsService, 'create' | 'lifecycle' | 'get' | 'together'>;
  rooms: Pick<RoomsService, 'roomsOfCategory'>;
  notifications: Pick<NotificationsService, 'notify'>;
  channels: Pick<IntakeChannels, 'pushAgain'>;
}

export interface Hotel {
  id: string;
  slug: string;
  /** What the hotel prices in (ISO 4217): a revision in another currency is left for the staff. */
  currency: string;
}

/**
 * A revision that lost its place while being applied (another revision of its booking counted first, or staff placed
 * it meanwhile): recorded as what it is, or applied again, nothing of it written.
 */
class Outrun extends Error {
  constructor(readonly outcome: 'duplicate' | 'superseded' | 'raced') {
    super(outcome);
  }
}

/** A room of the revision that cannot be placed (not in our terms): the whole revision is left for the staff. */
class Unplaceable extends AppError {
  constructor(readonly reason: UnplacedReason) {
    super(409, reason, reason);
  }
}

/** At the same instant, a booking's new revision comes before its modification, and a cancellation after both. */
const KIND_ORDER = { new: 0, modified: 1, cancelled: 2 } as const;

/** Whether `revision` comes after the recorded one in the channel's order (its time there, its kind, then its id). */
function isNewer(
  revision: ChannelRevision,
  recorded: Pick<RevisionRecord, 'channel_at' | 'channel_at_exact' | 'kind' | 'revision_id'>,
): boolean {
  const exact = recorded.channel_at_exact ?? recorded.channel_at.toISOString();
  const at = channelMicros(revision.insertedAt) - channelMicros(exact);
  if (at !== 0n) return at > 0n;
  const kind = KIND_ORDER[revision.kind] - KIND_ORDER[recorded.kind];
  return kind > 0 || (kind === 0 && revision.id > recorded.revision_id);
}

/** Times a revision is applied again when its booking changed under it, before the round fails for a retry. */
const MAX_RACES = 3;

const messages = {
  checkedOut: 'Гость этой брони канала уже выехал: изменение не применено, свяжитесь с OTA',
  currency: 'Бронь канала в другой валюте, чем валюта отеля:',
  cancellation: 'Отмену брони канала нельзя разместить: отклоните её',
  raced: 'Бронь канала изменилась, пока её размещали: обновите список',
  severalRooms: 'У брони канала несколько номеров: измените их брони вручную или отклоните изменение',
};

/** The refusals of ours that leave a revision for the staff, by their code. */
const OWN_REASONS: Record<string, UnplacedReason> = {
  no_free_room: 'no_free_room',
  room_taken: 'no_free_room',
  checked_out: 'checked_out',
  other_currency: 'other_currency',
};

/** The answer a refusal of the bookings service means for the revision (a refusal of ours goes on up). */
function unplacedReasonOf(error: unknown): UnplacedReason | undefined {
  if (!(error instanceof AppError) || error.status >= 500) return undefined;
  return OWN_REASONS[error.code] ?? 'refused';
}

/**
 * Applies one revision read from the channel, in one transaction with its record: a new booking, its change, its
 * cancellation; or, when it cannot be placed, its record as unplaced with the staff's urgent notice. Once per
 * revision id; in the channel's order per booking (an older revision than one counted is recorded as superseded).
 */
export function createApply({ db, bookings, rooms, notifications, channels }: ApplyDependencies) {
  const actorOf = (hotel: Hotel) => ({ userId: null, hotelSlug: hotel.slug, mayOverride: true });

  /**
   * Under the channel booking's lock (the intake's and the staff's placing alike): our booking of it still the one
   * the write was decided on (one per room), else the write is refused (`raced`).
   */
  async function lockUnchanged(trx: Knex.Transaction, hotelId: string, channelBookingId: string, known: string[]) {
    await revisions.lockBooking(trx, hotelId, channelBookingId);
    const now = await revisions.bookingsOf(trx, hotelId, channelBookingId);
    if (now.join() !== known.join()) throw new Outrun('raced');
  }

  /** In the booking's transaction: the revision recorded as applied, unless another got there first. */
  function recorder(hotelId: string, revision: ChannelRevision, known: string[]) {
    return async (trx: Knex.Transaction, booking: Pick<Booking, 'id'> | null, bookingIds?: string[]) => {
      await lockUnchanged(trx, hotelId, revision.bookingId, known);
      const latest = await revisions.latest(trx, hotelId, revision.bookingId);
      if (latest && latest.revision_id !== revision.id && !isNewer(revision, latest)) throw new Outrun('superseded');
      if (!(await revisions.insert(trx, hotelId, revision, { outcome: 'applied', bookingId: booking?.id, bookingIds })))
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
    within: Within | { tried: Tried },
  ) {
    const { categoryId } = placement;
    const update = (extra: { room_id?: string }) => {
      const changes = { ...changesOf(placement.input), ...extra };
      // One room of several, in their one transaction: each try in a savepoint, a room taken named as such.
      if ('tried' in within) return within.tried(hotel.id, booking.id, changes, actorOf(hotel));
      return bookings.lifecycle.change(hotel.id, booking.id, changes, actorOf(hotel), {
        within: (trx, updated) => within(trx, updated),
      });
    };
    if (categoryId === booking.category_id || placement.input.room_id) return update({});
    for (const room of await rooms.roomsOfCategory(hotel.id, categoryId!)) {
      try {
        return await update({ room_id: room.id });
      } catch (error) {
        if (unplacedReasonOf(error) !== 'no_free_room') throw error;
      }
    }
    throw new AppError(409, 'no_free_room', 'no room of the category is free');
  }

  /**
   * What a modification changes of our booking: the stay, the guest and the price the channel holds; never the
   * staff's notes (the channel's part was written when it was made), nor a tariff the channel's rate plan does not map.
   */
  function changesOf(input: BookingInput) {
    const {
      category_id: _category,
      unattended_strategy: _strategy,
      status: _status,
      notes: _notes,
      tariff_id: tariff,
      ...changes
    } = input;
    return tariff ? { ...changes, tariff_id: tariff } : changes;
  }

  /** Our booking, if it has it still. */
  async function bookingOf(hotelId: string, id: string | undefined): Promise<Current> {
    if (!id) return undefined;
    try {
      return (await bookings.get(hotelId, id)) as NonNullable<Current>;
    } catch (error) {
      if (error instanceof NotFoundError) return undefined;
      throw error;
    }
  }

  /** Our bookings of the channel's booking (one per room), and the first of them if it has it still. */
  async function currentBooking(hotelId: string, channelBookingId: string) {
    const known = await revisions.bookingsOf(db, hotelId, channelBookingId);
    return { known, current: await bookingOf(hotelId, known[0]) };
  }

  type Within = (trx: Knex.Transaction, booking: Pick<Booking, 'id'> | null) => Promise<void>;
  type Tried = Parameters<Parameters<BookingsService['together']>[0]>[2];

  type Current = Pick<Booking, 'id' | 'status' | 'category_id'> | undefined;
  const isLive = (current: Current): current is NonNullable<Current> =>
    !!current && current.status !== 'cancelled' && current.status !== 'checked_out';

  /** A stay made or changed: our live booking changed, else a new one (never a second stay of a guest who left). */
  async function makeOrChange(hotel: Hotel, current: Current, placement: Placement & { ok: true }, within: Within) {
    if (current?.status === 'checked_out') throw new AppError(409, 'checked_out', messages.checkedOut);
    if (isLive(current)) return change(hotel, current, placement, within);
    return (await bookings.create(hotel.id, placement.input, actorOf(hotel), undefined, within)).body;
  }

  const cancellation = (revision: ChannelRevision) => ({
    status: 'cancelled' as const,
    cancel_reason: `Отменена в ${revision.otaName}`,
  });

  /** The revision's stay written: our booking made, or changed, or cancelled (one per room when it has several). */
  async function write(hotel: Hotel, revision: ChannelRevision, mapping: IntakeMapping) {
    const { known, current } = await currentBooking(hotel.id, revision.bookingId);
    if (revision.rooms.length > 1 || known.length > 1) return writeRooms(hotel, revision, mapping, known);
    const within = recorder(hotel.id, revision, known);
    if (revision.kind === 'cancelled') {
      if (!isLive(current)) return transactionWithRetry(db, (trx) => within(trx, current ?? null));
      return bookings.lifecycle.change(hotel.id, current.id, cancellation(revision), actorOf(hotel), { within });
    }
    return makeOrChange(hotel, current, placed(hotel, revision, mapping, 0), within);
  }

  /** The stay of the revision's room `index`, or the refusal that leaves the revision for the staff. */
  function placed(hotel: Hotel, revision: ChannelRevision, mapping: IntakeMapping, index: number) {
    if (revision.currency && revision.currency.toUpperCase() !== hotel.currency.toUpperCase())
      throw new AppError(409, 'other_currency', `${messages.currency} ${revision.currency}`);
    const placement = revision.rooms[index]
      ? roomPlacementOf(revision, mapping, index)
      : ({ ok: false, reason: 'refused', from: null, to: null } as const);
    if (!placement.ok) throw new Unplaceable(placement.reason);
    return placement;
  }

  /**
   * A revision of several rooms (or of a reservation that had several) written in one transaction, all or none: the
   * booking of each room (by its place in the revision) made or changed, those of rooms gone cancelled; a
   * cancellation cancels them all.
   */
  async function writeRooms(hotel: Hotel, revision: ChannelRevision, mapping: IntakeMapping, known: string[]) {
    const cancelled = revision.kind === 'cancelled';
    // A modification without rooms (the channel's default) is not taken as every room gone.
    if (!cancelled && revision.rooms.length === 0) throw new Unplaceable('refused');
    const placements = cancelled ? [] : revision.rooms.map((_, index) => placed(hotel, revision, mapping, index));
    const currents = await Promise.all(known.map((id) => bookingOf(hotel.id, id)));
    const actor = actorOf(hotel);
    return bookings.together(async (trx, create, tried) => {
      const ids: string[] = [];
      for (const [index, placement] of placements.entries()) {
        const current = currents[index];
        if (current?.status === 'checked_out') throw new AppError(409, 'checked_out', messages.checkedOut);
        if (isLive(current)) ids.push((await change(hotel, current, placement, { tried })).id);
        else ids.push((await create(hotel.id, placement.input, actor)).id);
      }
      for (const current of currents.slice(placements.length))
        if (isLive(current))
          await bookings.lifecycle.changeIn(trx, hotel.id, current.id, cancellation(revision), actor);
      const kept = cancelled ? known : ids;
      await recorder(hotel.id, revision, known)(trx, kept[0] ? { id: kept[0] } : null, kept);
    });
  }

  /**
   * Staff place an unplaced revision (in one transaction with `settle`, under its channel booking's lock): a
   * modification of a live booking changes it, else its booking is made; a cancellation is refused (dismissed instead).
   */
  async function place(hotel: Hotel, record: RevisionRecord, placement: Placement & { ok: true }, settle: Within) {
    if (record.kind === 'cancelled') throw new ConflictError(messages.cancellation, 'revision_cancellation');
    const { known, current } = await currentBooking(hotel.id, record.channel_booking_id);
    if (known.length > 1) throw new ConflictError(messages.severalRooms, 'several_rooms');
    const within: Within = async (trx, booking) => {
      await lockUnchanged(trx, hotel.id, record.channel_booking_id, known);
      await settle(trx, booking);
    };
    try {
      return await makeOrChange(hotel, current, placement, within);
    } catch (error) {
      if (error instanceof Outrun) throw new ConflictError(messages.raced, 'revision_settled');
      if (error instanceof AppError && error.code === 'checked_out')
        throw new ConflictError(messages.checkedOut, 'booking_checked_out');
      throw error;
    }
  }

  async function apply(
    hotel: Hotel,
    revision: ChannelRevision,
    mapping: IntakeMapping,
    races = 0,
  ): Promise<RevisionOutcome | 'duplicate'> {
    const known = await revisions.byRevisionId(db, hotel.id, revision.id);
    if (known && known.outcome !== 'unreadable') return 'duplicate';
    const latest = await revisions.latest(db, hotel.id, revision.bookingId);
    if (latest && !isNewer(revision, latest)) return record(hotel.id, revision, 'superseded');
    try {
      await write(hotel, revision, mapping);
      return 'applied';
    } catch (error) {
      if (error instanceof Outrun) {
        // Staff placed its booking meanwhile: applied again to the booking now known (a few times at most).
        if (error.outcome === 'raced' && races < MAX_RACES) return apply(hotel, revision, mapping, races + 1);
        if (error.outcome === 'raced')
          throw new Error(`channel booking ${revision.bookingId} kept changing`, { cause: error });
        return error.outcome === 'duplicate' ? 'duplicate' : record(hotel.id, revision, 'superseded');
      }
      const reason = error instanceof Unplaceable ? error.reason : unplacedReasonOf(error);
      if (!reason) throw error;
      return unplaced(hotel, revision, reason, error instanceof Error ? error.message : null);
    }
  }

  return { apply, place };
}
