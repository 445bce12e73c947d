import type { Knex } from 'knex';
import { databaseError, PG_ERRORS } from '../../platform/db/base-model';
import { idempotent } from '../../platform/db/idempotency';
import type { PageRequest } from '../../platform/db/keyset';
import type { Db, DbOrTrx } from '../../platform/db/knex';
import { transactionWithRetry } from '../../platform/db/retry';
import { BusinessRuleError, ConflictError, NotFoundError, ValidationError } from '../../platform/errors';
import { assertVersion, type ExpectedVersion } from '../../platform/http/concurrency';
import type { HotelsService } from '../hotels';
import type { RentalChargeFollowers } from './rentals.charges';
import { announceRentalBooking } from './rentals.events';
import { rentalMessages } from './rentals.messages';
import { rentalBookingsRepository, rentalObjectsRepository } from './rentals.repository';
import { bodyError, heldSpan, hotelTimeZone, planBooking } from './rentals.schedule';
import type {
  RentalActor,
  RentalBooking,
  RentalBookingChanges,
  RentalBookingFilter,
  RentalBookingInput,
  RentalBookingSource,
  RentalSchedule,
  Span,
} from './rentals.types';

/**
 * The object is held by another booking: raised inside the transaction (which the exclusion violation has aborted),
 * named with the clashing booking once it is rolled back.
 */
class ObjectTaken extends Error {
  constructor(
    readonly hotelId: string,
    readonly objectId: string,
    readonly held: Span,
    readonly exceptId?: string,
  ) {
    super('rental object taken');
  }
}

/**
 * The schedule after a change: the fields given over the stored ones. A change of kind keeps nothing of the old span:
 * the new kind's fields must all be given.
 */
function rescheduled(booking: RentalBooking, change: Partial<RentalSchedule>): RentalSchedule {
  const kind = change.kind ?? booking.kind;
  const given = Object.fromEntries(Object.entries(change).filter(([, value]) => value !== undefined));
  const stored =
    kind !== booking.kind
      ? {}
      : kind === 'hourly'
        ? { start_at: booking.start_at, end_at: booking.end_at }
        : { date_from: booking.date_from!, date_to: booking.date_to! };
  return { rental_object_id: booking.rental_object_id, ...stored, ...given, kind };
}

export function createRentalBookings(db: Db, hotels: Pick<HotelsService, 'find'>, charges: RentalChargeFollowers) {
  const timeZoneOf = (conn: DbOrTrx, hotelId: string) => hotelTimeZone(hotels, conn, hotelId);

  /** The booking's place in time and price, for a schedule of an active object of the hotel. */
  async function plan(conn: DbOrTrx, hotelId: string, schedule: RentalSchedule, source: RentalBookingSource) {
    const object = await rentalObjectsRepository.find(conn, hotelId, schedule.rental_object_id);
    if (!object) throw bodyError('rental_object_id', rentalMessages.objectNotFound);
    if (!object.is_active) throw new BusinessRuleError(rentalMessages.draft);
    const planned = await planBooking(conn, await timeZoneOf(conn, hotelId), object, schedule);
    // The public widget books what is still ahead; the desk may record what already happened.
    if (source === 'online' && planned.start_at < new Date()) throw new BusinessRuleError(rentalMessages.inThePast);
    return { rental_object_id: object.id, ...planned };
  }

  /** A write that holds the object: an overlap with another booking becomes ObjectTaken. */
  async function claim<T>(
    row: Pick<RentalBooking, 'hotel_id' | 'rental_object_id' | 'start_at' | 'blocked_until'>,
    exceptId: string | undefined,
    write: () => Promise<T>,
  ) {
    try {
      return await write();
    } catch (error) {
      if (databaseError(error).code !== PG_ERRORS.exclusionViolation) throw error;
      throw new ObjectTaken(row.hotel_id, row.rental_object_id, heldSpan(row), exceptId);
    }
  }

  /** The database's refusals in the domain's words: a clash named (read once rolled back), a foreign booking, a bound. */
  async function refusalsTranslated<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (error instanceof ObjectTaken) {
        const [clash] = await rentalBookingsRepository.holders(
          db,
          error.hotelId,
          error.objectId,
          error.held,
          error.exceptId,
        );
        throw new ConflictError(clash ? rentalMessages.clash(clash) : rentalMessages.taken, 'rental_taken');
      }
      const { code, constraint } = databaseError(error);
      if (code === PG_ERRORS.exclusionViolation) throw new ConflictError(rentalMessages.taken, 'rental_taken');
      if (code === PG_ERRORS.foreignKeyViolation && constraint === 'rental_bookings_booking_fk')
        throw bodyError('booking_id', rentalMessages.roomBookingNotFound);
      if (code === PG_ERRORS.foreignKeyViolation && constraint === 'rental_bookings_object_fk')
        throw bodyError('rental_object_id', rentalMessages.objectNotFound);
      if (code === PG_ERRORS.checkViolation) throw new ValidationError(rentalMessages.outOfBounds);
      throw error;
    }
  }

  async function create(trx: Knex.Transaction, hotelId: string, input: RentalBookingInput, actor: RentalActor) {
    const source = input.source ?? 'front_desk';
    const row = {
      ...(await plan(trx, hotelId, input, source)),
      hotel_id: hotelId,
      status: 'confirmed' as const,
      source,
      guest_name: input.guest_name,
      guest_phone: input.guest_phone,
      guest_email: input.guest_email ?? null,
      comment: input.comment ?? '',
      booking_id: input.booking_id ?? null,
      created_by: actor.userId,
    };
    const created = await claim(row, undefined, () => rentalBookingsRepository.insert(trx, hotelId, row));
    await announceRentalBooking.created(trx, created);
    await charges.told(trx, created, await timeZoneOf(trx, hotelId), actor.userId);
    return created;
  }

  async function update(
    hotelId: string,
    id: string,
    changes: RentalBookingChanges,
    expected?: ExpectedVersion,
    by: string | null = null,
  ) {
    return refusalsTranslated(() =>
      transactionWithRetry(db, async (trx) => {
        const booking = await rentalBookingsRepository.lock(trx, hotelId, id);
        if (!booking) throw new NotFoundError(rentalMessages.bookingNotFound);
        assertVersion(expected, booking.updated_at);
        if (booking.status === 'cancelled') throw new BusinessRuleError(rentalMessages.cancelled);
        const { rental_object_id, kind, start_at, end_at, date_from, date_to, ...details } = changes;
        const schedule = { rental_object_id, kind, start_at, end_at, date_from, date_to };
        const row: Partial<RentalBooking> = { ...details };
        if (Object.values(schedule).some((value) => value !== undefined))
          Object.assign(
            row,
            await plan(trx, hotelId, rescheduled(booking, schedule), changes.source ?? booking.source),
          );
        if (changes.status === 'cancelled') row.cancelled_at = new Date();
        const merged = { ...booking, ...row };
        const updated = await claim(merged, id, () => rentalBookingsRepository.update(trx, hotelId, id, row));
        await announceRentalBooking.updated(trx, updated!, changes);
        // Only a change of what it comes to, or of the stay it is charged to, is told: an unrelated edit (a comment) of
        // a booking made before rentals were charged to rooms does not charge it now.
        const charged = (['price', 'booking_id', 'status'] as const).some(
          (field) => updated![field] !== booking[field],
        );
        if (charged) await charges.told(trx, updated!, await timeZoneOf(trx, hotelId), by);
        return updated!;
      }),
    );
  }

  return {
    /**
     * Books an active object of the hotel, priced from its rates. Idempotent with `idempotencyKey`: the same key and
     * input answer the first result again; the same key with another input is refused (422). `within` runs in the
     * booking's transaction (not on a replay): what must be written with it or not at all.
     */
    async create(
      hotelId: string,
      input: RentalBookingInput,
      actor: RentalActor,
      idempotencyKey?: string,
      within?: (trx: Knex.Transaction, booking: { id: string }) => Promise<void>,
    ) {
      return refusalsTranslated(() =>
        transactionWithRetry(db, (trx) =>
          idempotent(trx, { hotelId, scope: 'rentals.bookings.create', key: idempotencyKey, body: input }, async () => {
            const body = await create(trx, hotelId, input, actor);
            await within?.(trx, body);
            return { status: 201, body };
          }),
        ),
      );
    },

    async get(hotelId: string, id: string) {
      const booking = await rentalBookingsRepository.find(db, hotelId, id);
      if (!booking) throw new NotFoundError(rentalMessages.bookingNotFound);
      return booking;
    },

    async list(hotelId: string, { limit, cursor, ...filter }: RentalBookingFilter & PageRequest) {
      if (filter.to < filter.from) throw new ValidationError(rentalMessages.windowBackwards);
      const timeZone = await timeZoneOf(db, hotelId);
      return rentalBookingsRepository.list(db, hotelId, { ...filter, timeZone }, { limit, cursor });
    },

    /** Changes a booking or cancels it (`status: 'cancelled'`, final); a new schedule is checked and priced anew. */
    update,
  };
}
