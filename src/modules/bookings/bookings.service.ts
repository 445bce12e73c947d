import type { Knex } from 'knex';
import { idempotent } from '../../platform/db/idempotency';
import { mapPage, type PageRequest } from '../../platform/db/keyset';
import type { DbOrTrx } from '../../platform/db/knex';
import { NotFoundError } from '../../platform/errors';
import { phoneSearchDigits } from '../../platform/phone';
import type { GuestsService } from '../guests';
import type { Hotel } from '../hotels';
import type { HousekeepingService } from '../housekeeping';
import type { NotificationsService } from '../notifications';
import type { PaymentsService } from '../payments';
import { parseMoney } from '../../platform/money';
import type { Room, RoomCategory } from '../rooms';
import type { TouristTaxService } from '../tourist-tax';
import { sentGuestEmails } from './bookings.email-claims';
import { createAvailability } from './bookings.availability';
import { createAvailabilityCalendar } from './bookings.calendar';
import { createBookingCharges } from './bookings.charges';
import { createRoomWrites } from './bookings.clashes';
import type { BookingEffects } from './bookings.effects';
import { createHeldUnits } from './bookings.held-units';
import { createHolds } from './bookings.holds';
import { createInventory } from './bookings.inventory';
import { createLedgerFollowers, type LedgerFollower } from './bookings.ledger';
import { createBookingLifecycle, type Actor } from './bookings.lifecycle';
import { createMoves } from './bookings.moves';
import { createMovePlans } from './bookings.planned-moves';
import { createOffers, hotelToday } from './bookings.offers';
import { createOfferedSplit } from './bookings.split';
import { createSplitStays } from './bookings.split-stays';
import type { StayFollower, StayFollowers } from './bookings.outside';
import { createBookingPayments } from './bookings.payments';
import { bookingMessages, presentBooking, presentSegments } from './bookings.present';
import { inHouse } from './bookings.rules';
import type { BookingsRepository, Span } from './bookings.repository';
import { assertKindAllowed, bodyError, createStays, type StayServices } from './bookings.stays';
import type { Booking, BookingFilter, BookingInput } from './bookings.types';

export { bookingMessages, presentBooking, type PresentedBooking } from './bookings.present';

export interface BookingsDependencies extends StayServices {
  guests: Pick<GuestsService, 'find' | 'forBooking'>;
  notifications: Pick<NotificationsService, 'notify'>;
  payments: Pick<PaymentsService, 'settingsOf' | 'ledger'>;
  housekeeping: Pick<HousekeepingService, 'createTurnoverTask'>;
  touristTax: Pick<TouristTaxService, 'ofBooking'>;
}

/** The module's data access and effects (built in its `create`), beside the services of the modules it uses. */
export interface BookingsServiceInput extends BookingsDependencies {
  repository: BookingsRepository;
  effects: BookingEffects;
  followers: Pick<StayFollowers, 'add'>;
  /** A planned move carried out this long after it is planned, not on its day (tests; `PLANNED_MOVE_DELAY_MS`). */
  plannedMoveDelayMs?: number;
}

/** The row of a new booking, before its room and price are settled. */
function newBookingRow(
  input: BookingInput,
  span: Span,
  category: RoomCategory,
  guest: { blacklisted: boolean },
): Partial<Booking> {
  return {
    category_id: category.id,
    kind: input.check_in ? 'nightly' : 'hourly',
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
    guests_count: input.guests_count ?? 1,
    tariff_id: input.tariff_id ?? null,
    discount: input.discount ?? '0',
    price_manual: input.price !== undefined,
    early_checkin: input.early_checkin ?? false,
    late_checkout: input.late_checkout ?? false,
    guest_blacklisted: guest.blacklisted,
    notes: input.notes ?? '',
    block_id: input.block_id ?? null,
  };
}

export function createBookingsService({
  repository,
  effects,
  followers,
  plannedMoveDelayMs,
  ...deps
}: BookingsServiceInput) {
  const { db, bookings: rows } = repository;
  const { guests } = deps;
  const stays = createStays({ ...deps, repository });
  const rooms = createRoomWrites(repository);
  const holds = createHolds();
  const tellPlan = createMovePlans({ repository, effects, stays, plannedMoveDelayMs });
  const lifecycle = createBookingLifecycle({ ...deps, repository, effects, edited: stays.edited, holds, tellPlan });
  const ledger = createLedgerFollowers();
  const bookingPayments = createBookingPayments({ repository, effects, payments: deps.payments, ledger });
  const inventory = createInventory({ repository, hotels: deps.hotels });
  const splitStays = createSplitStays({ repository, stays, rooms: deps.rooms });
  const offeredRooms = createOfferedSplit({ repository, stays });
  const moves = createMoves({
    repository,
    effects,
    turnover: lifecycle.turnover,
    stays,
    rooms: deps.rooms,
    holds,
    plannedMoveDelayMs,
  });
  const offerings = {
    restrictions: deps.restrictions,
    holds,
    db: repository.db,
    todayOf: (hotel: Hotel) => hotelToday(hotel.timezone),
  };

  /** The stay's guest profile: the one named, or found by phone or e-mail, or created. */
  async function guestOf(trx: Knex.Transaction, hotelId: string, input: BookingInput) {
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
    return guest;
  }

  /**
   * Writes the stay into the first free candidate, linked to its primary guest. Rooms of one category share its prices, unless a room has its own
   * rate or fees: the first is priced, and the room taken in the end again only if it is another one.
   */
  async function place(
    trx: Knex.Transaction,
    { primaryGuestId, ...row }: Partial<Booking> & { hotel_id: string; primaryGuestId: string },
    { span, candidates }: { span: Span; candidates: Room[] },
    priceFor: (room: Room) => Promise<string>,
  ) {
    const hotelId = row.hotel_id;
    const guest = { primaryGuestId };
    if (candidates.length === 1) {
      const [room] = candidates;
      return rooms.insertInto(trx, hotelId, { ...row, room_id: room.id, price: await priceFor(room) }, span, guest);
    }
    const price = await priceFor(candidates[0]);
    const placed = await rooms.insertIntoAny(trx, hotelId, { ...row, price }, candidates, guest);
    if (placed.room === candidates[0] || row.price_manual) return placed.created;
    const ownPrice = await priceFor(placed.room);
    return ownPrice === price ? placed.created : rows.update(trx, hotelId, placed.created.id, { price: ownPrice });
  }

  async function create(hotelId: string, asked: BookingInput, actor: Actor, trx: Knex.Transaction) {
    // A split stay taken as offered: in the rooms the offer has now (inside the idempotent work: a replay answers).
    const input = asked.offered_split ? { ...asked, rooms: await offeredRooms(trx, hotelId, asked) } : asked;
    const { hotel, span } = await stays.hotelAndSpan(trx, hotelId, input);
    const split = input.rooms && (await splitStays.plan(trx, hotel, input));
    const { category, candidates } = split
      ? { category: split.segments[0].category, candidates: [] }
      : await stays.roomsFor(trx, hotel, input, span, input.guests_count ?? 1);
    const guarded = await holds.enter(trx, { hotelId, categoryId: category.id, span, blockId: input.block_id });
    assertKindAllowed(category, input.check_in ? 'nightly' : 'hourly');
    const tariff = await stays.tariffOf(trx, hotelId, input.tariff_id);
    const guest = await guestOf(trx, hotelId, input);
    const priceFor = async (room: Room) =>
      input.price ?? (await stays.quotedPrice(trx, input, { hotel, room, category, tariff }));
    const row = { ...newBookingRow(input, span, category, guest), hotel_id: hotelId, created_by: actor.userId };
    // A block's pickup sells what the block agreed, whatever the restrictions on general sale say.
    if (!input.block_id) {
      const stay = { ...row, override_restrictions: input.override_restrictions };
      Object.assign(row, await stays.restricted(trx, hotel, stay, actor));
    }
    const primary = { primaryGuestId: guest.id };
    let created = split
      ? await splitStays.place(
          trx,
          { ...row, price: input.price ?? (await splitStays.price(trx, input, split, { hotel, tariff })) },
          split,
          primary,
        )
      : await place(trx, { ...row, ...primary }, { span, candidates }, priceFor);
    if (guarded) await holds.guard(trx, created);
    if (input.paid_amount && parseMoney(input.paid_amount) !== 0n) {
      const paid = { amount: input.paid_amount, method: 'other' as const, note: 'Оплата при бронировании' };
      created = (await bookingPayments.record(trx, created, paid, actor.userId)).booking;
    }
    await lifecycle.begin(trx, created, actor.hotelSlug, Boolean(split));
    if (!split) return presentBooking(created);
    return {
      ...presentBooking(created),
      rooms: presentSegments(await repository.segments.of(trx, hotelId, [created.id])),
    };
  }

  async function getWithin(conn: DbOrTrx, hotelId: string, id: string, lock?: 'share') {
    const booking = await rows.find(conn, hotelId, id, { forShare: lock === 'share' });
    if (!booking) throw new NotFoundError(bookingMessages.notFound);
    const [guestIds, segments] = await Promise.all([
      rows.guestIds(conn, hotelId, id),
      repository.segments.of(conn, hotelId, [id]),
    ]);
    return { ...presentBooking(booking), guests: guestIds, rooms: presentSegments(segments) };
  }

  return {
    /**
     * Idempotent with `Idempotency-Key`: the same key and body answer the first result again. `within` runs in the
     * booking's transaction once it is made (a replay does not run it): what must be written with the booking or not
     * at all (the widget's consent).
     */
    async create(
      hotelId: string,
      input: BookingInput,
      actor: Actor,
      idempotencyKey?: string,
      within?: (trx: Knex.Transaction, booking: { id: string }) => Promise<void>,
    ) {
      return rooms.namingClashes(() =>
        repository.transaction((trx) =>
          idempotent(trx, { hotelId, scope: 'bookings.create', key: idempotencyKey, body: input }, async () => {
            const body = await create(hotelId, input, actor, trx);
            await within?.(trx, body);
            return { status: 201, body };
          }),
        ),
      );
    },

    /**
     * Several stays in one transaction, all or none (a block's pickup), each checked as `create` checks one;
     * idempotent with `Idempotency-Key` like `create`.
     */
    async createAll(hotelId: string, inputs: BookingInput[], actor: Actor, idempotencyKey?: string) {
      return rooms.namingClashes(() =>
        repository.transaction((trx) =>
          idempotent(trx, { hotelId, scope: 'bookings.createAll', key: idempotencyKey, body: inputs }, async () => {
            const created = [];
            for (const input of inputs) created.push(await create(hotelId, input, actor, trx));
            return { status: 201, body: created };
          }),
        ),
      );
    },

    /**
     * Stays made and changed in one transaction, all or none (an OTA reservation of several rooms): `work` gets the
     * transaction, `create` in it, checked as `create` checks one, and `tried`: a change in a savepoint of it, a room
     * taken refused as `change` refuses it (409 `room_taken`) with the transaction still usable for another try.
     */
    async together<T>(
      work: (
        trx: Knex.Transaction,
        made: (hotelId: string, input: BookingInput, actor: Actor) => Promise<{ id: string }>,
        tried: (...args: Parameters<typeof lifecycle.change>) => ReturnType<typeof lifecycle.change>,
      ) => Promise<T>,
    ) {
      return rooms.namingClashes(() =>
        repository.transaction((trx) =>
          work(
            trx,
            (hotelId, input, actor) => create(hotelId, input, actor, trx),
            (hotelId, id, changes, actor, options) =>
              rooms.namingClashes(() =>
                trx.transaction((savepoint) => lifecycle.changeIn(savepoint, hotelId, id, changes, actor, options)),
              ),
          ),
        ),
      );
    },

    /** For the module that holds units out of general sale (blocks): registered once, when it is built. */
    holdInventory: holds.register,

    async get(hotelId: string, id: string) {
      return getWithin(db, hotelId, id);
    },

    /**
     * `get` in the caller's transaction: `share` keeps the booking as read (no status move, no bill line) until the
     * transaction ends, for a decision that depends on it (an order placed for a stay in house, points redeemed).
     */
    getWithin,

    /** The stay in house in the room at `at` (checked in, its hours begun and not over), if any. */
    async inHouseIn(conn: DbOrTrx, hotelId: string, roomId: string, at: Date): Promise<Booking | undefined> {
      return (await rows.checkedInTo(conn, hotelId, roomId)).find((stay) => inHouse(stay, at));
    },

    async list(hotelId: string, { limit, cursor, ...filter }: BookingFilter & PageRequest) {
      const hotel = await stays.hotelOf(db, hotelId);
      const page = await rows.list(
        db,
        hotelId,
        // `q` is read as a phone by platform/phone's search rule too (a whole number typed any way, or digits of it).
        { ...filter, timeZone: hotel.timezone, phoneDigits: filter.q && phoneSearchDigits(filter.q) },
        { limit, cursor },
      );
      return mapPage(page, (booking) => presentBooking(booking));
    },

    /** Every status move and its consequences, for the routes, the sweeps and the other areas. */
    lifecycle,

    /** A booking's nights moved to another room, with the move's consequences. */
    moves,

    /** For a module that acts on stays outside the service: it says at each commit what its workflow must send. */
    followStays: (follower: StayFollower) => followers.add(follower),

    /** For a module keeping books of stays: told of each charge, payment and payment taken back, in its transaction. */
    followLedger: (follower: LedgerFollower) => ledger.add(follower),

    availability: createAvailability(inventory, offerings),

    /** For the quotes: whether what blocks hold leaves a stay's category a room, over the stay and its shifts. */
    heldUnits: createHeldUnits(inventory, offerings),

    /** Per category and night over up to a year: rooms that can be sold and the restrictions (revenue calendar). */
    calendar: createAvailabilityCalendar(inventory, offerings),

    /** The public widget's view of a stay: categories with rooms for the party, their free nights and prices. */
    offers: createOffers({ repository, inventory, quotes: deps.pricing.quotes, offerings }),

    guests: {
      /** Adds a guest profile to the stay (companions); the primary guest is linked at creation. */
      async add(hotelId: string, bookingId: string, guestId: string) {
        return db.transaction(async (trx) => {
          if (!(await rows.find(trx, hotelId, bookingId))) throw new NotFoundError(bookingMessages.notFound);
          if (!(await guests.find(hotelId, guestId, trx))) throw bodyError('guest_id', bookingMessages.guestNotFound);
          await rows.linkGuest(trx, hotelId, bookingId, guestId, false);
          return rows.guestIds(trx, hotelId, bookingId);
        });
      },

      async remove(hotelId: string, bookingId: string, guestId: string) {
        if (!(await rows.unlinkGuest(db, hotelId, bookingId, guestId)))
          throw new NotFoundError(bookingMessages.guestNotFound);
        return rows.guestIds(db, hotelId, bookingId);
      },
    },

    /** The booking's side of its payments: `paid_amount` kept in step with the ledger rows (the desk's flow is billing's). */
    payments: {
      remove: bookingPayments.remove,
      recordWithin: bookingPayments.recordWithin,
    },

    /** The lines of the stay's bill beside its price (room service, loyalty discounts). */
    charges: createBookingCharges({ repository, effects, ledger }),

    /** The guest's booking e-mails sent, by kind, and when. */
    guestEmailsSent: (hotelId: string, bookingId: string) => sentGuestEmails(db, hotelId, bookingId),
  };
}

export type BookingsService = ReturnType<typeof createBookingsService>;
