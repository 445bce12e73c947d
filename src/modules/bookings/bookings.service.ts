import type { Knex } from 'knex';
import type { Config } from '../../config';
import { databaseError, PG_ERRORS } from '../../platform/db/base-model';
import { idempotent } from '../../platform/db/idempotency';
import type { Db, DbOrTrx } from '../../platform/db/knex';
import { enqueueOutbox, startWorkflowMessage } from '../../platform/db/outbox';
import { transactionWithRetry } from '../../platform/db/retry';
import { BusinessRuleError, ConflictError, NotFoundError, ValidationError } from '../../platform/errors';
import { daysBetween, MAX_STAY_NIGHTS } from '../../platform/http/schemas';
import { publishHotelEvent } from '../../platform/realtime/events';
import {
  bookingStatusSignal,
  bookingWorkflowIds,
  type BookingStatusChange,
  type BookingWorkflow,
} from '../../../workflows/contracts/bookings';
import { createGuest, findGuestMatch, guestsRepository, isBlacklisted } from '../guests';
import { hotelsRepository, settingsRepository } from '../hotels';
import type { HousekeepingService } from '../housekeeping';
import { paymentSettingsRepository } from '../payments';
import { fitsMoneyColumn, formatMoney, MAX_STORED_CENTS, parseMoney } from '../pricing/pricing.money';
import { tariffsRepository } from '../pricing/pricing.repository';
import type { QuoteService } from '../pricing';
import { categoriesRepository, roomsRepository, type Room } from '../rooms';
import { bookingsRepository, paymentsRepository, type Span } from './bookings.repository';
import { canMoveBooking, orderCandidates } from './bookings.rules';
import type {
  Booking,
  BookingChanges,
  BookingFilter,
  BookingInput,
  BookingPayment,
  BookingStatus,
  PaymentMethod,
} from './bookings.types';

export const bookingMessages = {
  notFound: 'Бронирование не найдено',
  roomNotFound: 'Номер не найден',
  categoryNotFound: 'Категория не найдена',
  guestNotFound: 'Гость не найден',
  tariffNotFound: 'Тариф не найден',
  paymentNotFound: 'Платёж не найден',
  zeroPayment: 'Сумма платежа не может быть нулевой',
  roomClosed: 'Номер закрыт на обслуживание в эти даты',
  tooManyGuests: (max: number) => `В номере не больше ${max} гостей`,
  noFreeRoom: 'Нет свободных номеров этой категории на эти даты',
  manualAssignment: 'В отеле ручное распределение номеров: укажите room_id',
  hourlyNotAllowed: 'В этой категории нет почасового проживания',
  move: (from: string, to: string) => `Недопустимый переход статуса: ${from} → ${to}`,
  finalBooking: 'Завершённое или отменённое бронирование не меняется',
  unpaid: (balance: string) => `Заселение невозможно: не оплачено ${balance}`,
  unpaidWarning: (balance: string) => `Гость заселён с задолженностью ${balance}`,
  blacklisted: 'Гость в чёрном списке',
  stayTooLong: `Проживание не может быть дольше ${MAX_STAY_NIGHTS} ночей`,
  priceTooHigh: `Стоимость проживания больше предельной суммы ${formatMoney(MAX_STORED_CENTS)}`,
  paidOutOfRange: `Сумма оплат по бронированию должна оставаться в пределах ±${formatMoney(MAX_STORED_CENTS)}`,
  clash: (b: Booking) =>
    `Номер уже занят: бронирование ${b.guest_last_name} ${b.guest_first_name} ` +
    `(${b.check_in ?? b.start_at.toISOString()} — ${b.check_out ?? b.end_at.toISOString()})`,
};

/** A booking as the front desk sees it: with what is still owed, and anything staff must notice. */
export function presentBooking(booking: Booking, warnings: string[] = []) {
  return {
    ...booking,
    balance: formatMoney(parseMoney(booking.price) - parseMoney(booking.paid_amount)),
    warnings: booking.guest_blacklisted ? [bookingMessages.blacklisted, ...warnings] : warnings,
  };
}

export type PresentedBooking = ReturnType<typeof presentBooking>;

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

export interface Actor {
  userId: string | null;
  hotelSlug: string;
}

const MAX_AVAILABILITY_NIGHTS = 93;

function exclusionViolation(error: unknown): boolean {
  return databaseError(error).code === PG_ERRORS.exclusionViolation;
}

export function createBookingsService(
  db: Db,
  config: Config,
  deps: { quotes: QuoteService; housekeeping: Pick<HousekeepingService, 'createTurnoverTask'> },
) {
  async function hotelOf(conn: DbOrTrx, hotelId: string) {
    const hotel = await hotelsRepository.findById(conn, hotelId);
    if (!hotel) throw new NotFoundError('Отель не найден');
    return hotel;
  }

  async function spanOf(
    conn: DbOrTrx,
    hotelId: string,
    stay: { check_in?: string | null; check_out?: string | null; start_at?: Date; end_at?: Date },
  ): Promise<Span> {
    // The schema bounds both ends given together; a change of one end alone is bounded here, against the stored one.
    if (stay.check_in && stay.check_out) {
      if (stay.check_out <= stay.check_in) throw new ValidationError('Дата выезда должна быть позже даты заезда');
      if (daysBetween(stay.check_in, stay.check_out) > MAX_STAY_NIGHTS)
        throw new ValidationError(bookingMessages.stayTooLong);
      return bookingsRepository.nightlySpan(conn, await hotelOf(conn, hotelId), stay.check_in, stay.check_out);
    }
    if (!stay.start_at || !stay.end_at || stay.end_at <= stay.start_at) {
      throw new ValidationError('Окончание почасового проживания должно быть позже начала');
    }
    if (daysBetween(stay.start_at, stay.end_at) > MAX_STAY_NIGHTS)
      throw new ValidationError(bookingMessages.stayTooLong);
    return { start: stay.start_at, end: stay.end_at };
  }

  function assertRoomUsable(room: Room, span: Span, guests: number): void {
    const underMaintenance =
      room.maintenance_from &&
      room.maintenance_to &&
      room.maintenance_from < span.end &&
      room.maintenance_to > span.start;
    if (room.status === 'closed' || underMaintenance) throw new BusinessRuleError(bookingMessages.roomClosed);
    if (guests > room.max_guests) throw new BusinessRuleError(bookingMessages.tooManyGuests(room.max_guests));
  }

  async function roomOf(conn: DbOrTrx, hotelId: string, roomId: string): Promise<Room> {
    const room = await roomsRepository.find(conn, hotelId, roomId);
    if (!room)
      throw new ValidationError(bookingMessages.roomNotFound, [
        { path: 'body.room_id', message: bookingMessages.roomNotFound },
      ]);
    return room;
  }

  /**
   * A tariff of this hotel. Checked here, not only by the quote: with a price set by hand the stay is not quoted,
   * and another hotel's tariff would otherwise reach the database (its foreign key refuses it, as a 500).
   */
  async function assertTariff(conn: DbOrTrx, hotelId: string, tariffId: string | null | undefined): Promise<void> {
    if (tariffId && !(await tariffsRepository.find(conn, hotelId, tariffId)))
      throw new ValidationError(bookingMessages.tariffNotFound, [
        { path: 'body.tariff_id', message: bookingMessages.tariffNotFound },
      ]);
  }

  async function assertHourlyAllowed(conn: DbOrTrx, hotelId: string, categoryId: string, kind: Booking['kind']) {
    if (kind !== 'hourly') return;
    const category = await categoriesRepository.find(conn, hotelId, categoryId);
    if (!category?.allow_hourly) throw new BusinessRuleError(bookingMessages.hourlyNotAllowed);
  }

  /** The price from the pricing service for exactly this stay, unless staff set one. */
  async function quotedPrice(conn: DbOrTrx, hotelId: string, roomId: string, stay: PricedStay): Promise<string> {
    const quote = await deps.quotes.quote(
      hotelId,
      {
        room_id: roomId,
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
    );
    if (!fitsMoneyColumn(parseMoney(quote.total)))
      throw new BusinessRuleError(bookingMessages.priceTooHigh, [], 'amount_limit');
    return quote.total;
  }

  /** Payments add up in `paid_amount`: a sum its column cannot hold is refused, whichever way it grows. */
  function assertPaidFits(booking: Booking, changeCents: bigint): void {
    if (!fitsMoneyColumn(parseMoney(booking.paid_amount) + changeCents))
      throw new BusinessRuleError(bookingMessages.paidOutOfRange, [], 'amount_limit');
  }

  /** Inserts in a savepoint so a clash can be named (409) instead of aborting the transaction. */
  async function insertHolding(
    trx: Knex.Transaction,
    hotelId: string,
    row: Partial<Booking>,
  ): Promise<Booking | undefined> {
    try {
      return await trx.transaction((savepoint) => bookingsRepository.insert(savepoint, hotelId, row));
    } catch (error) {
      if (exclusionViolation(error)) return undefined;
      throw error;
    }
  }

  async function clashError(trx: DbOrTrx, hotelId: string, roomId: string, span: Span, exceptId?: string) {
    const [clash] = await bookingsRepository.clashes(trx, hotelId, roomId, span, exceptId);
    return new ConflictError(clash ? bookingMessages.clash(clash) : 'Номер уже занят на эти даты', 'room_taken');
  }

  async function resolveGuest(trx: DbOrTrx, hotelId: string, input: BookingInput): Promise<string> {
    if (input.guest_id) {
      if (!(await guestsRepository.find(trx, hotelId, input.guest_id))) {
        throw new ValidationError(bookingMessages.guestNotFound, [
          { path: 'body.guest_id', message: bookingMessages.guestNotFound },
        ]);
      }
      return input.guest_id;
    }
    const person = {
      last_name: input.guest_last_name,
      first_name: input.guest_first_name,
      middle_name: input.guest_middle_name ?? null,
      phone: input.guest_phone ?? null,
      email: input.guest_email ?? null,
    };
    const match = await findGuestMatch(trx, hotelId, person);
    return match?.id ?? (await createGuest(trx, hotelId, person, config.encryption)).id;
  }

  function announce(trx: DbOrTrx, booking: Booking, type: 'booking_created' | 'booking_updated', changes?: object) {
    return publishHotelEvent(trx, booking.hotel_id, {
      type,
      payload: {
        booking_id: booking.id,
        room_id: booking.room_id,
        status: booking.status,
        check_in: booking.check_in,
        check_out: booking.check_out,
        start_at: booking.start_at,
        end_at: booking.end_at,
        ...(changes && { changes }),
      },
    });
  }

  function signalStatus(trx: DbOrTrx, booking: Booking, change: BookingStatusChange, hotelSlug: string) {
    const start: Parameters<BookingWorkflow> = [
      { hotelId: booking.hotel_id, bookingId: booking.id, status: change.status },
    ];
    return enqueueOutbox(trx, {
      kind: 'signalWithStart',
      workflowType: 'booking',
      workflowId: bookingWorkflowIds.booking(booking.id),
      args: start,
      signal: bookingStatusSignal.name,
      signalArgs: [change],
      searchAttributes: { HotelSlug: hotelSlug, BookingId: booking.id },
    });
  }

  async function create(hotelId: string, input: BookingInput, actor: Actor, trx: Knex.Transaction) {
    const span = await spanOf(trx, hotelId, input);
    const kind: Booking['kind'] = input.check_in ? 'nightly' : 'hourly';
    const guests = input.guests_count ?? 1;
    let candidates: { id: string; category_id: string }[];
    if (input.room_id) {
      const room = await roomOf(trx, hotelId, input.room_id);
      assertRoomUsable(room, span, guests);
      candidates = [room];
    } else {
      const category = await categoriesRepository.find(trx, hotelId, input.category_id!);
      if (!category)
        throw new ValidationError(bookingMessages.categoryNotFound, [
          { path: 'body.category_id', message: bookingMessages.categoryNotFound },
        ]);
      const strategy = (await settingsRepository.find(trx, hotelId))?.room_assignment_strategy ?? 'manual';
      if (strategy === 'manual') throw new BusinessRuleError(bookingMessages.manualAssignment);
      const free = orderCandidates(
        strategy,
        await bookingsRepository.candidates(trx, hotelId, category.id, span, guests),
      );
      candidates = free;
      if (candidates.length === 0) throw new ConflictError(bookingMessages.noFreeRoom, 'no_free_room');
    }
    await assertHourlyAllowed(trx, hotelId, candidates[0].category_id, kind);
    await assertTariff(trx, hotelId, input.tariff_id);
    const guestId = await resolveGuest(trx, hotelId, input);
    const blacklisted = await isBlacklisted(trx, hotelId, guestId);
    let created: Booking | undefined;
    for (const room of candidates) {
      const price = input.price ?? (await quotedPrice(trx, hotelId, room.id, input));
      created = await insertHolding(trx, hotelId, {
        room_id: room.id,
        category_id: room.category_id,
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
        guests_count: guests,
        tariff_id: input.tariff_id ?? null,
        discount: input.discount ?? '0',
        price,
        price_manual: input.price !== undefined,
        early_checkin: input.early_checkin ?? false,
        late_checkout: input.late_checkout ?? false,
        guest_blacklisted: blacklisted,
        notes: input.notes ?? '',
        created_by: actor.userId,
      });
      if (created) break;
    }
    if (!created) {
      throw input.room_id
        ? await clashError(trx, hotelId, input.room_id, span)
        : new ConflictError(bookingMessages.noFreeRoom, 'no_free_room');
    }
    await bookingsRepository.linkGuest(trx, hotelId, created.id, guestId, true);
    if (input.paid_amount && parseMoney(input.paid_amount) !== 0n) {
      await recordPayment(
        trx,
        hotelId,
        created.id,
        { amount: input.paid_amount, method: 'other', note: 'Оплата при бронировании' },
        actor,
      );
      created = (await bookingsRepository.find(trx, hotelId, created.id))!;
    }
    await enqueueOutbox(
      trx,
      startWorkflowMessage<BookingWorkflow>(
        'booking',
        bookingWorkflowIds.booking(created.id),
        [{ hotelId, bookingId: created.id, status: created.status }],
        { HotelSlug: actor.hotelSlug, BookingId: created.id },
      ),
    );
    await announce(trx, created, 'booking_created');
    return presentBooking(created);
  }

  async function recordPayment(
    trx: DbOrTrx,
    hotelId: string,
    bookingId: string,
    payment: { amount: string; method: PaymentMethod; note?: string; paid_at?: Date },
    actor: Actor,
  ): Promise<BookingPayment> {
    if (parseMoney(payment.amount) === 0n) {
      throw new ValidationError(bookingMessages.zeroPayment, [
        { path: 'body.amount', message: bookingMessages.zeroPayment },
      ]);
    }
    const row = await paymentsRepository.insert(trx, hotelId, {
      booking_id: bookingId,
      amount: payment.amount,
      method: payment.method,
      note: payment.note ?? '',
      ...(payment.paid_at && { paid_at: payment.paid_at }),
      created_by: actor.userId,
    });
    await paymentsRepository.addToPaid(trx, hotelId, bookingId, payment.amount);
    return row;
  }

  /** Effects of a status move that belong to the same business fact (check-out frees the room and starts the clean). */
  async function statusEffects(trx: DbOrTrx, booking: Booking, to: BookingStatus, reason: string | undefined) {
    const now = new Date();
    const warnings: string[] = [];
    const fields: Partial<Booking> = {};
    if (to === 'checked_in') {
      const level = (await paymentSettingsRepository.get(trx, booking.hotel_id)).require_payment_checkin;
      const balance = parseMoney(booking.price) - parseMoney(booking.paid_amount);
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

  async function update(
    hotelId: string,
    id: string,
    changes: BookingChanges,
    actor: Actor,
    reason?: BookingStatusChange['reason'],
  ) {
    return transactionWithRetry(db, async (trx) => {
      const booking = await bookingsRepository.find(trx, hotelId, id, { forUpdate: true });
      if (!booking) throw new NotFoundError(bookingMessages.notFound);
      const to = changes.status ?? booking.status;
      if (!canMoveBooking(booking.status, to)) throw new BusinessRuleError(bookingMessages.move(booking.status, to));
      if (booking.status === 'checked_out' || booking.status === 'cancelled')
        throw new BusinessRuleError(bookingMessages.finalBooking);
      const merged = { ...booking, ...changes };
      const staysChanged = ['room_id', 'check_in', 'check_out', 'start_at', 'end_at', 'guests_count'].some(
        (f) => f in changes,
      );
      const priceInputsChanged =
        staysChanged || ['tariff_id', 'discount', 'early_checkin', 'late_checkout'].some((f) => f in changes);
      const fields: Partial<Booking> = { ...changes };
      if ('tariff_id' in changes) await assertTariff(trx, hotelId, changes.tariff_id);
      if (staysChanged) {
        const span = await spanOf(trx, hotelId, merged);
        const room = await roomOf(trx, hotelId, merged.room_id);
        assertRoomUsable(room, span, merged.guests_count);
        await assertHourlyAllowed(trx, hotelId, room.category_id, booking.kind);
        Object.assign(fields, { start_at: span.start, end_at: span.end, category_id: room.category_id });
      }
      if (changes.price !== undefined) fields.price_manual = true;
      else if (priceInputsChanged && !booking.price_manual)
        fields.price = await quotedPrice(trx, hotelId, merged.room_id, merged);
      const effects =
        to !== booking.status
          ? await statusEffects(trx, booking, to, changes.cancel_reason ?? reason)
          : { fields: {}, warnings: [] };
      Object.assign(fields, effects.fields);
      let updated: Booking;
      try {
        updated = await trx.transaction((savepoint) => bookingsRepository.update(savepoint, hotelId, id, fields));
      } catch (error) {
        if (exclusionViolation(error))
          throw await clashError(
            trx,
            hotelId,
            merged.room_id,
            { start: fields.start_at ?? booking.start_at, end: fields.end_at ?? booking.end_at },
            id,
          );
        throw error;
      }
      if (to === 'checked_out') await deps.housekeeping.createTurnoverTask(trx, hotelId, updated.room_id, updated.id);
      if (to !== booking.status)
        await signalStatus(trx, updated, { status: to, reason: reason ?? 'manual' }, actor.hotelSlug);
      await announce(trx, updated, 'booking_updated', changes);
      return presentBooking(updated, effects.warnings);
    });
  }

  async function withClashNamed<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (exclusionViolation(error)) throw new ConflictError('Номер уже занят на эти даты', 'room_taken');
      throw error;
    }
  }

  return {
    /** Idempotent with `Idempotency-Key`: the same key and body answer the first result again. */
    async create(hotelId: string, input: BookingInput, actor: Actor, idempotencyKey?: string) {
      return withClashNamed(() =>
        transactionWithRetry(db, (trx) =>
          idempotent(trx, { hotelId, scope: 'bookings.create', key: idempotencyKey, body: input }, async () => ({
            status: 201,
            body: await create(hotelId, input, actor, trx),
          })),
        ),
      );
    },

    async get(hotelId: string, id: string) {
      const booking = await bookingsRepository.find(db, hotelId, id);
      if (!booking) throw new NotFoundError(bookingMessages.notFound);
      return { ...presentBooking(booking), guests: await bookingsRepository.guestIds(db, hotelId, id) };
    },

    async list(hotelId: string, filter: BookingFilter) {
      const hotel = await hotelOf(db, hotelId);
      return (await bookingsRepository.list(db, hotelId, { ...filter, timeZone: hotel.timezone })).map((b) =>
        presentBooking(b),
      );
    },

    update,

    /** Per night of [from, to): which rooms can be sold, and how many per category. */
    async availability(hotelId: string, window: { from: string; to: string; category_id?: string }) {
      const nightsAsked = (Date.parse(window.to) - Date.parse(window.from)) / 86_400_000;
      if (nightsAsked < 1 || nightsAsked > MAX_AVAILABILITY_NIGHTS) {
        throw new ValidationError(`Окно доступности — от 1 до ${MAX_AVAILABILITY_NIGHTS} ночей`);
      }
      const hotel = await hotelOf(db, hotelId);
      const rows = await bookingsRepository.availability(db, hotel, window.from, window.to);
      const nights = Array.from({ length: nightsAsked }, (_, i) =>
        new Date(Date.parse(`${window.from}T00:00:00Z`) + i * 86_400_000).toISOString().slice(0, 10),
      );
      const rooms = rows
        .filter((row) => !window.category_id || row.category_id === window.category_id)
        .sort((a, b) => a.number.localeCompare(b.number, 'ru', { numeric: true }))
        .map(({ number: _number, ...room }) => room);
      const categories = new Map<string, { category_id: string; total_rooms: number; free: number[] }>();
      for (const room of rooms) {
        const entry = categories.get(room.category_id) ?? {
          category_id: room.category_id,
          total_rooms: 0,
          free: nights.map(() => 0),
        };
        entry.total_rooms += 1;
        room.free.forEach((isFree, night) => (entry.free[night] += isFree ? 1 : 0));
        categories.set(room.category_id, entry);
      }
      return {
        from: window.from,
        to: window.to,
        nights,
        categories: [...categories.values()],
        rooms,
      };
    },

    guests: {
      /** Adds a guest profile to the stay (companions); the primary guest is linked at creation. */
      async add(hotelId: string, bookingId: string, guestId: string) {
        return db.transaction(async (trx) => {
          if (!(await bookingsRepository.find(trx, hotelId, bookingId)))
            throw new NotFoundError(bookingMessages.notFound);
          if (!(await guestsRepository.find(trx, hotelId, guestId))) {
            throw new ValidationError(bookingMessages.guestNotFound, [
              { path: 'body.guest_id', message: bookingMessages.guestNotFound },
            ]);
          }
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

    payments: {
      async list(hotelId: string, bookingId: string) {
        if (!(await bookingsRepository.find(db, hotelId, bookingId))) throw new NotFoundError(bookingMessages.notFound);
        return paymentsRepository.list(db, hotelId, bookingId);
      },

      async create(
        hotelId: string,
        bookingId: string,
        payment: { amount: string; method: PaymentMethod; note?: string; paid_at?: Date },
        actor: Actor,
        idempotencyKey?: string,
      ) {
        return transactionWithRetry(db, (trx) =>
          idempotent(
            trx,
            { hotelId, scope: `payments.create:${bookingId}`, key: idempotencyKey, body: payment },
            async () => {
              const booking = await bookingsRepository.find(trx, hotelId, bookingId, { forUpdate: true });
              if (!booking) throw new NotFoundError(bookingMessages.notFound);
              assertPaidFits(booking, parseMoney(payment.amount));
              const row = await recordPayment(trx, hotelId, bookingId, payment, actor);
              const updated = (await bookingsRepository.find(trx, hotelId, bookingId))!;
              await announce(trx, updated, 'booking_updated', { paid_amount: updated.paid_amount });
              return { status: 201, body: { payment: row, booking: presentBooking(updated) } };
            },
          ),
        );
      },

      async remove(hotelId: string, bookingId: string, paymentId: string) {
        return transactionWithRetry(db, async (trx) => {
          const booking = await bookingsRepository.find(trx, hotelId, bookingId, { forUpdate: true });
          if (!booking) throw new NotFoundError(bookingMessages.notFound);
          const removed = await paymentsRepository.delete(trx, hotelId, bookingId, paymentId);
          if (!removed) throw new NotFoundError(bookingMessages.paymentNotFound);
          assertPaidFits(booking, -parseMoney(removed.amount));
          await paymentsRepository.addToPaid(trx, hotelId, bookingId, formatMoney(-parseMoney(removed.amount)));
          const updated = (await bookingsRepository.find(trx, hotelId, bookingId))!;
          await announce(trx, updated, 'booking_updated', { paid_amount: updated.paid_amount });
          return presentBooking(updated);
        });
      },
    },
  };
}

export type BookingsService = ReturnType<typeof createBookingsService>;
