import type { Knex } from 'knex';
import type { DbOrTrx } from '../../platform/db/knex';
import { BusinessRuleError, ConflictError, NotFoundError, ValidationError } from '../../platform/errors';
import { daysBetween, MAX_STAY_NIGHTS } from '../../platform/http/schemas';
import type { Hotel, HotelsService } from '../hotels';
import { fitsMoneyColumn, parseMoney } from '../../platform/money';
import type { PricingService, QuoteService, Tariff } from '../pricing';
import type { RestrictedStay, RestrictionsService } from '../restrictions';
import type { Room, RoomCategory, RoomsService } from '../rooms';
import type { Actor } from './bookings.lifecycle';
import { bookingMessages } from './bookings.present';
import type { BookingsRepository, Span } from './bookings.repository';
import { orderCandidates } from './bookings.rules';
import { segmentsOver } from './bookings.stay-rooms';
import type { Booking, BookingChanges, BookingInput } from './bookings.types';

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

export function bodyError(field: string, message: string): ValidationError {
  return new ValidationError(message, [{ path: `body.${field}`, message }]);
}

export function assertRoomUsable(room: Room, span: Span, guestCount: number): void {
  const underMaintenance =
    room.maintenance_from &&
    room.maintenance_to &&
    room.maintenance_from < span.end &&
    room.maintenance_to > span.start;
  if (room.status === 'closed' || underMaintenance) throw new BusinessRuleError(bookingMessages.roomClosed);
  if (guestCount > room.max_guests) throw new BusinessRuleError(bookingMessages.tooManyGuests(room.max_guests));
}

/** A nightly stay's dates: the schema bounds both ends given together; a change of one end alone is bounded here. */
function assertNights(checkIn: string, checkOut: string): void {
  if (checkOut <= checkIn) throw new ValidationError('Дата выезда должна быть позже даты заезда');
  if (daysBetween(checkIn, checkOut) > MAX_STAY_NIGHTS) throw new ValidationError(bookingMessages.stayTooLong);
}

const hotelNotFound = 'Отель не найден';

export function assertKindAllowed(category: RoomCategory, kind: Booking['kind']): void {
  if (kind === 'hourly' && !category.allow_hourly) throw new BusinessRuleError(bookingMessages.hourlyNotAllowed);
}

const STAY_FIELDS = ['room_id', 'check_in', 'check_out', 'start_at', 'end_at', 'guests_count'] as const;
const PRICE_FIELDS = [...STAY_FIELDS, 'tariff_id', 'discount', 'early_checkin', 'late_checkout'] as const;

/** The services of other modules a stay is checked and priced with. */
export interface StayServices {
  hotels: Pick<HotelsService, 'find' | 'findWithNightlySpan' | 'settingsOf'>;
  rooms: Pick<RoomsService, 'findRoom' | 'findCategory' | 'findRoomWithCategory'>;
  pricing: Pick<PricingService, 'findTariff'> & { quotes: Pick<QuoteService, 'quote'> };
  restrictions: Pick<RestrictionsService, 'check' | 'offering' | 'read'>;
}

/** A stay as the restrictions check is given it, with whether management overrides them. */
type StayNights = Partial<Booking> & { override_restrictions?: boolean };

/** A stay's nights as restrictions read them (none for an hourly stay). */
function nightsOf(stay: StayNights): RestrictedStay | undefined {
  if (!stay.check_in || !stay.check_out || !stay.category_id) return undefined;
  const { category_id, check_in, check_out } = stay;
  return { category_id, check_in, check_out, tariff_id: stay.tariff_id ?? null };
}

type StayDependencies = StayServices & { repository: Pick<BookingsRepository, 'bookings' | 'segments'> };

/** A stay's span, room, category and tariff, checked against the hotel's rules, and its price. */
export function createStays({ hotels, rooms, pricing, restrictions, repository }: StayDependencies) {
  async function hotelOf(conn: DbOrTrx, hotelId: string): Promise<Hotel> {
    const hotel = await hotels.find(hotelId, conn);
    if (!hotel) throw new NotFoundError(hotelNotFound);
    return hotel;
  }

  async function spanOf(
    conn: DbOrTrx,
    hotel: Hotel,
    stay: { check_in?: string | null; check_out?: string | null; start_at?: Date; end_at?: Date },
  ): Promise<Span> {
    if (stay.check_in && stay.check_out) {
      assertNights(stay.check_in, stay.check_out);
      return repository.bookings.nightlySpan(conn, hotel, stay.check_in, stay.check_out);
    }
    if (!stay.start_at || !stay.end_at || stay.end_at <= stay.start_at) {
      throw new ValidationError('Окончание почасового проживания должно быть позже начала');
    }
    if (daysBetween(stay.start_at, stay.end_at) > MAX_STAY_NIGHTS)
      throw new ValidationError(bookingMessages.stayTooLong);
    return { start: stay.start_at, end: stay.end_at };
  }

  /** The hotel and the stay's span, checked: for a nightly stay in one round trip. */
  async function hotelAndSpan(
    conn: DbOrTrx,
    hotelId: string,
    stay: BookingInput,
  ): Promise<{ hotel: Hotel; span: Span }> {
    if (!stay.check_in || !stay.check_out) {
      const hotel = await hotelOf(conn, hotelId);
      return { hotel, span: await spanOf(conn, hotel, stay) };
    }
    assertNights(stay.check_in, stay.check_out);
    const nights = { checkIn: stay.check_in, checkOut: stay.check_out };
    const found = await hotels.findWithNightlySpan(hotelId, nights, conn);
    if (!found) throw new NotFoundError(hotelNotFound);
    return found;
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

  /**
   * The hotel's restrictions on the stay (one query): a 422 naming the restriction and its night, or, when management
   * overrides them, the record the booking keeps. A change is refused only for what it breaks anew.
   */
  async function restricted(trx: DbOrTrx, hotel: Hotel, stay: StayNights, actor: Actor, before?: Booking) {
    const nights = nightsOf(stay);
    if (!nights) return {};
    const override = stay.override_restrictions
      ? { by: actor.userId, permitted: actor.mayOverride === true }
      : undefined;
    const inHouse = before?.status === 'checked_in';
    const check = { hotel, stay: nights, before: before && nightsOf(before), inHouse, override };
    const record = await restrictions.check(trx, check);
    return record ? { restrictions_override: record } : {};
  }

  /** The room the stay goes to: the one named, or the free rooms of a category in the hotel's assignment order. */
  async function roomsFor(trx: DbOrTrx, hotel: Hotel, input: BookingInput, span: Span, guestCount: number) {
    if (input.room_id) {
      const found = await rooms.findRoomWithCategory(hotel.id, input.room_id, trx);
      if (!found) throw bodyError('room_id', bookingMessages.roomNotFound);
      assertRoomUsable(found.room, span, guestCount);
      if (!found.category) throw bodyError('category_id', bookingMessages.categoryNotFound);
      return { category: found.category, candidates: [found.room] };
    }
    const category = await categoryOf(trx, hotel.id, input.category_id!);
    const configured = (await hotels.settingsOf(hotel.id, trx))?.room_assignment_strategy ?? 'manual';
    const strategy = configured === 'manual' ? (input.unattended_strategy ?? configured) : configured;
    if (strategy === 'manual') throw new BusinessRuleError(bookingMessages.manualAssignment);
    const free = await repository.bookings.candidates(trx, hotel.id, category.id, span, guestCount);
    if (free.length === 0) throw new ConflictError(bookingMessages.noFreeRoom, 'no_free_room');
    return { category, candidates: orderCandidates(strategy, free) as Room[] };
  }

  /**
   * The room a changed stay is priced and restricted in, its rooms checked over the new span: a stay in one room, its
   * room; a moved stay, every segment's room over its nights, and before arrival the first segment's room (where its
   * dates leave it), so the booking never points at a room it no longer holds.
   */
  async function stayRoom(trx: DbOrTrx, booking: Booking, merged: Booking, span: Span | undefined) {
    const moved = span ? await repository.segments.of(trx, booking.hotel_id, [booking.id]) : [];
    if (!span || moved.length <= 1) {
      const room = await roomOf(trx, booking.hotel_id, merged.room_id);
      if (span) assertRoomUsable(room, span, merged.guests_count);
      return room;
    }
    const held: Room[] = [];
    for (const segment of segmentsOver(moved, span)) {
      const room = await roomOf(trx, booking.hotel_id, segment.room_id);
      assertRoomUsable(room, segment, merged.guests_count);
      held.push(room);
    }
    if (booking.status !== 'checked_in') return held[0];
    return held.find((room) => room.id === merged.room_id) ?? (await roomOf(trx, booking.hotel_id, merged.room_id));
  }

  /**
   * The fields a change of a booking writes: its own, the span and category of a new room or dates (checked), and a
   * new price when what it depends on changed, unless the price was set by hand.
   */
  async function edited(
    trx: Knex.Transaction,
    booking: Booking,
    { override_restrictions, ...changes }: BookingChanges,
    actor: Actor,
  ): Promise<Partial<Booking>> {
    const { hotel_id: hotelId } = booking;
    const merged = { ...booking, ...changes };
    const staysChanged = STAY_FIELDS.some((field) => field in changes);
    // A tariff's own restrictions apply to its stays: a change of tariff alone is checked as well.
    const restrictionsChanged = staysChanged || 'tariff_id' in changes;
    const reprice = changes.price === undefined && !booking.price_manual && PRICE_FIELDS.some((f) => f in changes);
    const fields: Partial<Booking> = { ...changes };
    const tariff = await tariffOf(trx, hotelId, 'tariff_id' in changes ? changes.tariff_id : undefined);
    if (restrictionsChanged || reprice) {
      const hotel = await hotelOf(trx, hotelId);
      const span = staysChanged ? await spanOf(trx, hotel, merged) : undefined;
      const room = await stayRoom(trx, booking, merged, span);
      const category = await categoryOf(trx, hotelId, room.category_id);
      if (span) {
        assertKindAllowed(category, booking.kind);
        Object.assign(fields, { start_at: span.start, end_at: span.end, category_id: room.category_id });
        if (room.id !== merged.room_id) fields.room_id = room.id;
      }
      if (restrictionsChanged) {
        const stay = { ...merged, category_id: room.category_id, override_restrictions };
        Object.assign(fields, await restricted(trx, hotel, stay, actor, booking));
      }
      if (reprice) {
        const stayTariff = tariff ?? (await tariffOf(trx, hotelId, merged.tariff_id));
        fields.price = await quotedPrice(trx, merged, { hotel, room, category, tariff: stayTariff });
      }
    }
    if (changes.price !== undefined) fields.price_manual = true;
    return fields;
  }

  return { hotelOf, hotelAndSpan, categoryOf, roomsFor, tariffOf, quotedPrice, restricted, edited };
}
