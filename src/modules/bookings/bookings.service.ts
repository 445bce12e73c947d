import type { Knex } from 'knex';
import { databaseError, PG_ERRORS } from '../../platform/db/base-model';
import { idempotent } from '../../platform/db/idempotency';
import { mapPage, type PageRequest } from '../../platform/db/keyset';
import type { Db, DbOrTrx } from '../../platform/db/knex';
import { transactionWithRetry } from '../../platform/db/retry';
import { BusinessRuleError, ConflictError, NotFoundError, ValidationError } from '../../platform/errors';
import { assertVersion, type ExpectedVersion } from '../../platform/http/concurrency';
import { daysBetween, MAX_STAY_NIGHTS } from '../../platform/http/schemas';
import { phoneSearchDigits } from '../../platform/phone';
import type { BookingStatusChange } from '../../../workflows/contracts/bookings';
import type { GuestsService } from '../guests';
import type { Hotel, HotelsService } from '../hotels';
import type { HousekeepingService } from '../housekeeping';
import type { PaymentsService } from '../payments';
import { fitsMoneyColumn, formatMoney, parseMoney } from '../../platform/money';
import type { PricingService, QuoteService, Tariff } from '../pricing';
import type { Room, RoomCategory, RoomsService } from '../rooms';
import { createAvailability } from './bookings.availability';
import { announceBooking, signalBookingStatus, startBookingWorkflow } from './bookings.effects';
import { createInventory } from './bookings.inventory';
import { createOffers } from './bookings.offers';
import { createBookingCharges } from './bookings.charges';
import { createBookingPayments } from './bookings.payments';
import { balanceOf, bookingMessages, presentBooking } from './bookings.present';
import { bookingsRepository, type Span } from './bookings.repository';
import { canMoveBooking, orderCandidates } from './bookings.rules';
import type { Booking, BookingChanges, BookingFilter, BookingInput, BookingStatus } from './bookings.types';

export { bookingMessages, presentBooking, type PresentedBooking } from './bookings.present';

export interface BookingsDependencies {
  hotels: Pick<HotelsService, 'find' | 'settingsOf'>;
  rooms: Pick<RoomsService, 'findRoom' | 'findCategory'>;
  pricing: Pick<PricingService, 'findTariff'> & { quotes: Pick<QuoteService, 'quote'> };
  guests: Pick<GuestsService, 'find' | 'forBooking'>;
  payments: Pick<PaymentsService, 'settingsOf' | 'ledger'>;
  housekeeping: Pick<HousekeepingService, 'createTurnoverTask'>;
}

/** What the price of a stay depends on. */
interface PricedStay {
  check_in?: string | null;
  check_out?: string | null;
  start_at?: Date;
  end_at?: Date;
  tariff_id?: string | null;
  discount?: string;
  early_checkin?: boolean;
  late_checkout?: boolean;
}

/** The rows a stay is checked against and priced from, each read once. */
interface StayRows {
  hotel: Hotel;
  room: Room;
  category: RoomCategory;
  tariff?: Tariff;
}

export interface Actor {
  userId: string | null;
  hotelSlug: string;
}

/** Why a change is made when a job makes it, and the version of the booking a client's change is for. */
export interface UpdateOptions {
  reason?: BookingStatusChange['reason'];
  expected?: ExpectedVersion;
}

/**
 * The room is held by another booking in the span: raised inside the transaction (which the exclusion violation
 * has aborted), named with the clashing booking once it is rolled back.
 */
class RoomTaken extends Error {
  constructor(
    readonly hotelId: string,
    readonly roomId: string,
    readonly span: Span,
    readonly exceptId?: string,
  ) {
    super('room taken');
  }
}

function exclusionViolation(error: unknown): boolean {
  return databaseError(error).code === PG_ERRORS.exclusionViolation;
}

function bodyError(field: string, message: string): ValidationError {
  return new ValidationError(message, [{ path: `body.${field}`, message }]);
}

export function createBookingsService(db: Db, deps: BookingsDependencies) {
  const { hotels, rooms, pricing, guests } = deps;

  async function hotelOf(conn: DbOrTrx, hotelId: string): Promise<Hotel> {
    const hotel = await hotels.find(hotelId, conn);
    if (!hotel) throw new NotFoundError('Отель не найден');
    return hotel;
  }

  async function spanOf(
    conn: DbOrTrx,
    hotel: Hotel,
    stay: { check_in?: string | null; check_out?: string | null; start_at?: Date; end_at?: Date },
  ): Promise<Span> {
    // The schema bounds both ends given together; a change of one end alone is bounded here, against the stored one.
    if (stay.check_in && stay.check_out) {
      if (stay.check_out <= stay.check_in) throw new ValidationError('Дата выезда должна быть позже даты заезда');
      if (daysBetween(stay.check_in, stay.check_out) > MAX_STAY_NIGHTS)
        throw new ValidationError(bookingMessages.stayTooLong);
      return bookingsRepository.nightlySpan(conn, hotel, stay.check_in, stay.check_out);
    }
    if (!stay.start_at || !stay.end_at || stay.end_at <= stay.start_at) {
      throw new ValidationError('Окончание почасового проживания должно быть позже начала');
    }
    if (daysBetween(stay.start_at, stay.end_at) > MAX_STAY_NIGHTS)
      throw new ValidationError(bookingMessages.stayTooLong);
    return { start: stay.start_at, end: stay.end_at };
  }

  function assertRoomUsable(room: Room, span: Span, guestCount: number): void {
    const underMaintenance =
      room.maintenance_from &&
      room.maintenance_to &&
      room.maintenance_from < span.end &&
      room.maintenance_to > span.start;
    if (room.status === 'closed' || underMaintenance) throw new BusinessRuleError(bookingMessages.roomClosed);
    if (guestCount > room.max_guests) throw new BusinessRuleError(bookingMessages.tooManyGuests(room.max_guests));
  }

  async function roomOf(conn: DbOrTrx, hotelId: string, roomId: string): Promise<Room> {
    const room = await rooms.findRoom(hotelId, roomId, conn);
    if (!room) throw bodyError('room_id', bookingMessages.roomNotFound);
    return room;
  }

  async function categoryOf(conn: DbOrTrx, hotelId: string, categoryId: string): Promise<RoomCategory> {
    const category = await rooms.findCategory(hotelId, categoryId, conn);
    if (!category) throw bodyError('category_id', bookingMessages.categoryNotFound);
    return category;
  }

  /**
   * A tariff of this hotel. Checked here, not only by the quote: with a price set by hand the stay is not quoted,
   * and another hotel's tariff would otherwise reach the database (its foreign key refuses it, as a 500).
   */
  async function tariffOf(conn: DbOrTrx, hotelId: string, tariffId: string | null | undefined) {
    if (!tariffId) return undefined;
    const tariff = await pricing.findTariff(hotelId, tariffId, conn);
    if (!tariff) throw bodyError('tariff_id', bookingMessages.tariffNotFound);
    return tariff;
  }

  function assertKindAllowed(category: RoomCategory, kind: Booking['kind']): void {
    if (kind === 'hourly' && !category.allow_hourly) throw new BusinessRuleError(bookingMessages.hourlyNotAllowed);
  }

  /** The price from the pricing service for exactly this stay, from the rows already read. */
  async function quotedPrice(conn: DbOrTrx, stay: PricedStay, rows: StayRows): Promise<string> {
    const quote = await pricing.quotes.quote(
      rows.hotel.id,
      {
        room_id: rows.room.id,
        check_in: stay.check_in ?? undefined,
        check_out: stay.check_out ?? undefined,
        start_at: stay.check_in ? undefined : stay.start_at,
        end_at: stay.check_in ? undefined : stay.end_at,
        tariff_id: stay.tariff_id ?? undefined,
        discount: stay.discount,
        early_checkin: stay.early_checkin ?? false,
        late_checkout: stay.late_checkout ?? false,
      },
      conn,
      rows,
    );
    if (!fitsMoneyColumn(parseMoney(quote.total)))
      throw new BusinessRuleError(bookingMessages.priceTooHigh, [], 'amount_limit');
    return quote.total;
  }

  /** One room: the stay is written or the room is taken (RoomTaken, after which the transaction is unusable). */
  async function insertInto(trx: Knex.Transaction, hotelId: string, row: Partial<Booking>, span: Span) {
    try {
      return await bookingsRepository.insert(trx, hotelId, row);
    } catch (error) {
      if (exclusionViolation(error)) throw new RoomTaken(hotelId, row.room_id!, span);
      throw error;
    }
  }

  /** One of several rooms: each try in a savepoint, so a room taken meanwhile moves on to the next candidate. */
  async function insertIntoAny(trx: Knex.Transaction, hotelId: string, row: Partial<Booking>, candidates: Room[]) {
    for (const room of candidates) {
      try {
        const created = await trx.transaction((savepoint) =>
          bookingsRepository.insert(savepoint, hotelId, { ...row, room_id: room.id }),
        );
        return { created, room };
      } catch (error) {
        if (!exclusionViolation(error)) throw error;
      }
    }
    throw new ConflictError(bookingMessages.noFreeRoom, 'no_free_room');
  }

  /** The room the stay goes to: the one named, or the free rooms of a category in the hotel's assignment order. */
  async function roomsFor(trx: DbOrTrx, hotel: Hotel, input: BookingInput, span: Span, guestCount: number) {
    if (input.room_id) {
      const room = await roomOf(trx, hotel.id, input.room_id);
      assertRoomUsable(room, span, guestCount);
      return { category: await categoryOf(trx, hotel.id, room.category_id), candidates: [room] };
    }
    const category = await categoryOf(trx, hotel.id, input.category_id!);
    const configured = (await hotels.settingsOf(hotel.id, trx))?.room_assignment_strategy ?? 'manual';
    const strategy = configured === 'manual' ? (input.unattended_strategy ?? configured) : configured;
    if (strategy === 'manual') throw new BusinessRuleError(bookingMessages.manualAssignment);
    const free = await bookingsRepository.candidates(trx, hotel.id, category.id, span, guestCount);
    if (free.length === 0) throw new ConflictError(bookingMessages.noFreeRoom, 'no_free_room');
    return { category, candidates: orderCandidates(strategy, free) as Room[] };
  }

  async function create(hotelId: string, input: BookingInput, actor: Actor, trx: Knex.Transaction) {
    const hotel = await hotelOf(trx, hotelId);
    const span = await spanOf(trx, hotel, input);
    const kind: Booking['kind'] = input.check_in ? 'nightly' : 'hourly';
    const guestCount = input.guests_count ?? 1;
    const { category, candidates } = await roomsFor(trx, hotel, input, span, guestCount);
    assertKindAllowed(category, kind);
    const tariff = await tariffOf(trx, hotelId, input.tariff_id);
    const guest = await guests.forBooking(trx, hotelId, {
      guestId: input.guest_id,
      person: {
        last_name: input.guest_last_name,
        first_name: input.guest_first_name,
        middle_name: input.guest_middle_name ?? null,
        phone: input.guest_phone ?? null,
        email: input.guest_email ?? null,
      },
    });
    if (!guest) throw bodyError('guest_id', bookingMessages.guestNotFound);
    // Rooms of one category share its prices, unless a room has its own rate or fees: price the first, and again
    // only if another room is taken in the end.
    const priceFor = async (room: Room) =>
      input.price ?? (await quotedPrice(trx, input, { hotel, room, category, tariff }));
    const row: Partial<Booking> = {
      category_id: category.id,
      kind,
      check_in: input.check_in ?? null,
      check_out: input.check_out ?? null,
      start_at: span.start,
      end_at: span.end,
      status: input.status ?? 'confirmed',
      source: input.source ?? 'front_desk',
      guest_last_name: input.guest_last_name,
      guest_first_name: input.guest_first_name,
      guest_middle_name: input.guest_middle_name ?? null,
      guest_phone: input.guest_phone ?? null,
      guest_email: input.guest_email ?? null,
      guests_count: guestCount,
      tariff_id: input.tariff_id ?? null,
      discount: input.discount ?? '0',
      price_manual: input.price !== undefined,
      early_checkin: input.early_checkin ?? false,
      late_checkout: input.late_checkout ?? false,
      guest_blacklisted: guest.blacklisted,
      notes: input.notes ?? '',
      created_by: actor.userId,
    };
    let created: Booking;
    if (candidates.length === 1) {
      const [room] = candidates;
      created = await insertInto(trx, hotelId, { ...row, room_id: room.id, price: await priceFor(room) }, span);
    } else {
      const price = await priceFor(candidates[0]);
      const placed = await insertIntoAny(trx, hotelId, { ...row, price }, candidates);
      created = placed.created;
      if (placed.room !== candidates[0] && input.price === undefined) {
        const ownPrice = await priceFor(placed.room);
        if (ownPrice !== price)
          created = await bookingsRepository.update(trx, hotelId, created.id, { price: ownPrice });
      }
    }
    await bookingsRepository.linkGuest(trx, hotelId, created.id, guest.id, true);
    if (input.paid_amount && parseMoney(input.paid_amount) !== 0n) {
      const paid = { amount: input.paid_amount, method: 'other' as const, note: 'Оплата при бронировании' };
      created = (await bookingPayments.record(trx, created, paid, actor.userId)).booking;
    }
    await startBookingWorkflow(trx, created, actor.hotelSlug);
    await announceBooking(trx, created, 'booking_created');
    return presentBooking(created);
  }

  /** Effects of a status move that belong to the same business fact (check-out frees the room and starts the clean). */
  async function statusEffects(trx: DbOrTrx, booking: Booking, to: BookingStatus, reason: string | undefined) {
    const now = new Date();
    const warnings: string[] = [];
    const fields: Partial<Booking> = {};
    if (to === 'checked_in') {
      const level = (await deps.payments.settingsOf(booking.hotel_id, trx)).require_payment_checkin;
      const balance = balanceOf(booking);
      if (balance > 0n && level === 'hard')
        throw new BusinessRuleError(bookingMessages.unpaid(formatMoney(balance)), [], 'payment_required');
      if (balance > 0n && level === 'soft') warnings.push(bookingMessages.unpaidWarning(formatMoney(balance)));
      fields.checked_in_at = now;
    }
    if (to === 'checked_out') {
      fields.checked_out_at = now;
      // Leaving early frees the room for sale from now on.
      if (booking.end_at > now) fields.end_at = now > booking.start_at ? now : booking.end_at;
    }
    if (to === 'cancelled') {
      fields.cancelled_at = now;
      fields.cancel_reason = reason ?? booking.cancel_reason;
    }
    return { fields, warnings };
  }

  const STAY_FIELDS = ['room_id', 'check_in', 'check_out', 'start_at', 'end_at', 'guests_count'] as const;
  const PRICE_FIELDS = [...STAY_FIELDS, 'tariff_id', 'discount', 'early_checkin', 'late_checkout'] as const;

  async function update(
    hotelId: string,
    id: string,
    changes: BookingChanges,
    actor: Actor,
    { reason, expected }: UpdateOptions = {},
  ) {
    return namingClashes(() =>
      transactionWithRetry(db, async (trx) => {
        const booking = await bookingsRepository.find(trx, hotelId, id, { forUpdate: true });
        if (!booking) throw new NotFoundError(bookingMessages.notFound);
        assertVersion(expected, booking.updated_at);
        const to = changes.status ?? booking.status;
        if (!canMoveBooking(booking.status, to)) throw new BusinessRuleError(bookingMessages.move(booking.status, to));
        if (booking.status === 'checked_out' || booking.status === 'cancelled')
          throw new BusinessRuleError(bookingMessages.finalBooking);
        const merged = { ...booking, ...changes };
        const staysChanged = STAY_FIELDS.some((field) => field in changes);
        const reprice = changes.price === undefined && !booking.price_manual && PRICE_FIELDS.some((f) => f in changes);
        const fields: Partial<Booking> = { ...changes };
        const tariff = await tariffOf(trx, hotelId, 'tariff_id' in changes ? changes.tariff_id : undefined);
        if (staysChanged || reprice) {
          const hotel = await hotelOf(trx, hotelId);
          const room = await roomOf(trx, hotelId, merged.room_id);
          const category = await categoryOf(trx, hotelId, room.category_id);
          if (staysChanged) {
            const span = await spanOf(trx, hotel, merged);
            assertRoomUsable(room, span, merged.guests_count);
            assertKindAllowed(category, booking.kind);
            Object.assign(fields, { start_at: span.start, end_at: span.end, category_id: room.category_id });
          }
          if (reprice) {
            const stayTariff = tariff ?? (await tariffOf(trx, hotelId, merged.tariff_id));
            fields.price = await quotedPrice(trx, merged, { hotel, room, category, tariff: stayTariff });
          }
        }
        if (changes.price !== undefined) fields.price_manual = true;
        const effects =
          to !== booking.status
            ? await statusEffects(trx, booking, to, changes.cancel_reason ?? reason)
            : { fields: {}, warnings: [] };
        Object.assign(fields, effects.fields);
        let updated: Booking;
        try {
          updated = await bookingsRepository.update(trx, hotelId, id, fields);
        } catch (error) {
          if (!exclusionViolation(error)) throw error;
          const span = { start: fields.start_at ?? booking.start_at, end: fields.end_at ?? booking.end_at };
          throw new RoomTaken(hotelId, merged.room_id, span, id);
        }
        if (to === 'checked_out') await deps.housekeeping.createTurnoverTask(trx, hotelId, updated.room_id, updated.id);
        if (to !== booking.status)
          await signalBookingStatus(trx, updated, { status: to, reason: reason ?? 'manual' }, actor.hotelSlug);
        await announceBooking(trx, updated, 'booking_updated', changes);
        return presentBooking(updated, effects.warnings);
      }),
    );
  }

  /** A room taken by another booking is a 409 that names it (read once the refused transaction is rolled back). */
  async function namingClashes<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (error instanceof RoomTaken) {
        const [clash] = await bookingsRepository.clashes(db, error.hotelId, error.roomId, error.span, error.exceptId);
        throw new ConflictError(clash ? bookingMessages.clash(clash) : bookingMessages.roomTaken, 'room_taken');
      }
      if (exclusionViolation(error)) throw new ConflictError(bookingMessages.roomTaken, 'room_taken');
      throw error;
    }
  }

  async function getWithin(conn: DbOrTrx, hotelId: string, id: string, lock?: 'share') {
    const booking = await bookingsRepository.find(conn, hotelId, id, { forShare: lock === 'share' });
    if (!booking) throw new NotFoundError(bookingMessages.notFound);
    return { ...presentBooking(booking), guests: await bookingsRepository.guestIds(conn, hotelId, id) };
  }

  const bookingPayments = createBookingPayments(db, deps);
  const inventory = createInventory(db, hotels);

  return {
    /** Idempotent with `Idempotency-Key`: the same key and body answer the first result again. */
    async create(hotelId: string, input: BookingInput, actor: Actor, idempotencyKey?: string) {
      return namingClashes(() =>
        transactionWithRetry(db, (trx) =>
          idempotent(trx, { hotelId, scope: 'bookings.create', key: idempotencyKey, body: input }, async () => ({
            status: 201,
            body: await create(hotelId, input, actor, trx),
          })),
        ),
      );
    },

    async get(hotelId: string, id: string) {
      return getWithin(db, hotelId, id);
    },

    /**
     * `get` in the caller's transaction: `share` keeps the booking as read (no status move, no bill line) until the
     * transaction ends, for a decision that depends on it (an order placed for a stay in house, points redeemed).
     */
    getWithin,

    async list(hotelId: string, { limit, cursor, ...filter }: BookingFilter & PageRequest) {
      const hotel = await hotelOf(db, hotelId);
      const page = await bookingsRepository.list(
        db,
        hotelId,
        // `q` is read as a phone by platform/phone's search rule too (a whole number typed any way, or digits of it).
        { ...filter, timeZone: hotel.timezone, phoneDigits: filter.q && phoneSearchDigits(filter.q) },
        { limit, cursor },
      );
      return mapPage(page, (booking) => presentBooking(booking));
    },

    update,

    availability: createAvailability(inventory),

    /** The public widget's view of a stay: categories with rooms for the party, their free nights and prices. */
    offers: createOffers(db, inventory, pricing.quotes),

    guests: {
      /** Adds a guest profile to the stay (companions); the primary guest is linked at creation. */
      async add(hotelId: string, bookingId: string, guestId: string) {
        return db.transaction(async (trx) => {
          if (!(await bookingsRepository.find(trx, hotelId, bookingId)))
            throw new NotFoundError(bookingMessages.notFound);
          if (!(await guests.find(hotelId, guestId, trx))) throw bodyError('guest_id', bookingMessages.guestNotFound);
          await bookingsRepository.linkGuest(trx, hotelId, bookingId, guestId, false);
          return bookingsRepository.guestIds(trx, hotelId, bookingId);
        });
      },

      async remove(hotelId: string, bookingId: string, guestId: string) {
        if (!(await bookingsRepository.unlinkGuest(db, hotelId, bookingId, guestId)))
          throw new NotFoundError(bookingMessages.guestNotFound);
        return bookingsRepository.guestIds(db, hotelId, bookingId);
      },
    },

    /** The booking's side of its payments: `paid_amount` kept in step with the ledger rows (the desk's flow is billing's). */
    payments: {
      remove: bookingPayments.remove,
      recordWithin: bookingPayments.recordWithin,
    },

    /** The lines of the stay's bill beside its price (room service, loyalty discounts). */
    charges: createBookingCharges(db),
  };
}

export type BookingsService = ReturnType<typeof createBookingsService>;
