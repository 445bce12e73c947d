import type { Knex } from 'knex';
import { idempotent } from '../../platform/db/idempotency';
import { mapPage, type PageRequest } from '../../platform/db/keyset';
import type { Db, DbOrTrx } from '../../platform/db/knex';
import { transactionWithRetry } from '../../platform/db/retry';
import { ConflictError, NotFoundError } from '../../platform/errors';
import { inHouse, type BookingChargeInput, type BookingsService } from '../bookings';
import type { HotelsService } from '../hotels';
import type { NotificationsService } from '../notifications';
import { fitsMoneyColumn, formatMoney, parseMoney } from '../../platform/money';
import type { RoomsService } from '../rooms';
import { orderCreated, orderUpdated } from './roomservice.events';
import { bodyError, notAuthorized, refused, roomServiceMessages as messages } from './roomservice.messages';
import { itemsRepository, ordersRepository, settingsRepository, type OrderWithRoom } from './roomservice.repository';
import { canMove, isOpenAt, localTime, stillProven } from './roomservice.rules';
import type { ProvenStay } from './roomservice.stays';
import type { StatusTokens } from './roomservice.tokens';
import type {
  NewOrder,
  Order,
  OrderFilter,
  OrderLine,
  OrderRow,
  RoomServiceSettingsRow,
  StatusMove,
} from './roomservice.types';

export interface OrderDependencies {
  hotels: Pick<HotelsService, 'find'>;
  bookings: Pick<BookingsService, 'charges' | 'getWithin'>;
  rooms: Pick<RoomsService, 'findRoom'>;
  notifications: Pick<NotificationsService, 'notify'>;
}

/** Who places an order for which stay: a guest, for the stay they proved; the desk, for the booking it names. */
export type OrderChannel = { by: 'guest'; stay: ProvenStay } | { by: 'desk'; bookingId: string };

const bookingOf = (channel: OrderChannel) => (channel.by === 'guest' ? channel.stay.booking.id : channel.bookingId);

const orderNotFound = () => new NotFoundError(messages.orderNotFound);

async function present(conn: DbOrTrx, hotelId: string, rows: OrderWithRoom[]): Promise<Order[]> {
  const lines = await ordersRepository.lines(
    conn,
    hotelId,
    rows.map((row) => row.id),
  );
  return rows.map(({ hotel_id: _hotel, ...order }) => ({
    ...order,
    items: lines.get(order.id) ?? [],
  }));
}

async function presentOne(conn: DbOrTrx, row: OrderWithRoom): Promise<Order> {
  return (await present(conn, row.hotel_id, [row]))[0];
}

const eventOf = (order: Pick<Order, 'id' | 'number' | 'room_id' | 'booking_id' | 'status' | 'total'>) => ({
  order_id: order.id,
  number: order.number,
  room_id: order.room_id,
  booking_id: order.booking_id,
  status: order.status,
  total: order.total,
});

/** A delivery's bill line, and a refund's negative one meeting it (each keyed by the order, so at most once). */
function billLineOf(row: OrderRow, status: 'delivered' | 'refunded'): BookingChargeInput {
  const delivered = status === 'delivered';
  return {
    kind: 'room_service',
    source_id: delivered ? row.id : `refund:${row.id}`,
    description: `${delivered ? 'Обслуживание в номер' : 'Возврат за обслуживание в номер'}, заказ №${row.number}`,
    amount: delivered ? row.total : `-${row.total}`,
  };
}

/** What the order's lines read as in a notification: "2 × Борщ, 1 × Чай". */
const summary = (lines: OrderLine[]) => lines.map((line) => `${line.quantity} × ${line.name}`).join(', ');

/** Guests' orders: placed from a proven stay and priced from the menu, moved by staff, billed to the stay on delivery. */
export function createOrders(db: Db, deps: OrderDependencies, tokens: StatusTokens) {
  /**
   * The channel's stay as it is now, read in the order's transaction and held so (FOR SHARE) until it commits: a
   * check-out committed after the guest's proof or the desk's ask refuses the order rather than racing it.
   */
  async function stayWithin(trx: Knex.Transaction, hotelId: string, channel: OrderChannel): Promise<ProvenStay> {
    const missing = () => (channel.by === 'guest' ? notAuthorized() : bodyError('booking_id', messages.stayNotFound));
    const booking = await deps.bookings.getWithin(trx, hotelId, bookingOf(channel), 'share').catch((error: unknown) => {
      throw error instanceof NotFoundError ? missing() : error;
    });
    const now = new Date();
    if (channel.by === 'guest') {
      if (!stillProven(booking, channel.stay.room.id, now)) throw notAuthorized();
      return { booking, room: channel.stay.room };
    }
    if (!inHouse(booking, now)) throw refused('stay_not_in_house', messages.stayNotInHouse);
    return { booking, room: (await deps.rooms.findRoom(hotelId, booking.room_id, trx))! };
  }

  /** The rules that hold for the whole hotel at this moment: on, open, and serving the room. */
  async function assertTakingOrders(trx: Knex.Transaction, settings: RoomServiceSettingsRow, stay: ProvenStay) {
    const hotel = await deps.hotels.find(settings.hotel_id, trx);
    if (!settings.enabled || !hotel?.is_active) throw refused('disabled', messages.disabled);
    if (!isOpenAt(settings.opens_at, settings.closes_at, localTime(new Date(), hotel.timezone)))
      throw refused('closed', messages.closed(settings.opens_at, settings.closes_at));
    if (settings.room_ids && !settings.room_ids.includes(stay.room.id))
      throw refused('room_not_served', messages.roomNotServed);
  }

  /** The order's lines at the menu's prices now; any item unknown, of another hotel or withdrawn refuses the order. */
  async function priceLines(trx: Knex.Transaction, hotelId: string, input: NewOrder): Promise<OrderLine[]> {
    const ids = input.items.map((line) => line.item_id);
    const menu = new Map((await itemsRepository.lock(trx, hotelId, ids)).map((item) => [item.id, item]));
    const missing = ids.filter((id) => !menu.get(id)?.is_available);
    if (missing.length > 0) throw refused('item_unavailable', messages.itemsUnavailable, missing);
    return input.items.map(({ item_id: itemId, quantity }) => {
      const item = menu.get(itemId)!;
      return {
        item_id: itemId,
        name: item.name,
        unit_price: item.price,
        quantity,
        amount: formatMoney(parseMoney(item.price) * BigInt(quantity)),
      };
    });
  }

  async function placeWithin(trx: Knex.Transaction, hotelId: string, channel: OrderChannel, input: NewOrder) {
    const stay = await stayWithin(trx, hotelId, channel);
    // The settings row locked: the hotel's order numbers are given one at a time, under the settings in force.
    const settings = await settingsRepository.get(trx, hotelId, { forUpdate: true });
    await assertTakingOrders(trx, settings, stay);
    const lines = await priceLines(trx, hotelId, input);
    const itemsTotal = lines.reduce((sum, line) => sum + parseMoney(line.amount), 0n);
    if (itemsTotal < parseMoney(settings.minimum_order))
      throw refused('below_minimum', messages.belowMinimum(settings.minimum_order));
    const total = itemsTotal + parseMoney(settings.delivery_fee);
    if (!fitsMoneyColumn(total)) throw refused('amount_limit', messages.orderTooLarge);
    const row = await ordersRepository.insert(
      trx,
      {
        hotel_id: hotelId,
        number: await ordersRepository.nextNumber(trx, hotelId),
        booking_id: stay.booking.id,
        room_id: stay.room.id,
        items_total: formatMoney(itemsTotal),
        delivery_fee: settings.delivery_fee,
        total: formatMoney(total),
        note: input.note ?? '',
      },
      lines,
    );
    const order = await presentOne(trx, { ...row, room_number: stay.room.number });
    await orderCreated.publish(trx, hotelId, eventOf(order));
    await deps.notifications.notify(trx, hotelId, {
      type: 'room_service_order',
      title: `Заказ №${order.number} в номер ${stay.room.number}`.slice(0, 200),
      body: `${summary(lines)}. Итого ${order.total}`.slice(0, 2000),
      data: { order_id: order.id, booking_id: order.booking_id, room_id: order.room_id },
      dedupeKey: `room_service_order:${order.id}`,
    });
    return order;
  }

  return {
    /**
     * Places the stay's order (a guest's, or one the desk takes by phone) in one transaction with its event and
     * notification. Idempotent per stay and channel with `Idempotency-Key`: a retry answers the first order.
     */
    async place(hotelId: string, channel: OrderChannel, input: NewOrder, idempotencyKey?: string) {
      const placed = await transactionWithRetry(db, (trx) =>
        idempotent(
          trx,
          { hotelId, scope: `room_service.${channel.by}:${bookingOf(channel)}`, key: idempotencyKey, body: input },
          // The answer kept for a retry is the order alone: a guest's status token is recomputed, never stored.
          async () => ({ status: 201, body: { order: await placeWithin(trx, hotelId, channel, input) } }),
        ),
      );
      return { status: placed.status, order: placed.body.order };
    },

    /** The order whose status token is given; any other answer is one 404. */
    async forGuest(hotelId: string, id: string, token: string): Promise<Order> {
      const row = tokens.matches(hotelId, id, token) ? await ordersRepository.find(db, hotelId, id) : undefined;
      if (!row) throw orderNotFound();
      return presentOne(db, row);
    },

    async list(hotelId: string, { limit, cursor, ...filter }: OrderFilter & PageRequest) {
      const page = await ordersRepository.list(db, hotelId, filter, { limit, cursor });
      const orders = new Map((await present(db, hotelId, page.items)).map((order) => [order.id, order]));
      return mapPage(page, (row) => orders.get(row.id)!);
    },

    async get(hotelId: string, id: string): Promise<Order> {
      const row = await ordersRepository.find(db, hotelId, id);
      if (!row) throw orderNotFound();
      return presentOne(db, row);
    },

    /**
     * One step of the order's life (409 for any other); delivered bills its total to the stay in the same
     * transaction, once (a repeat delivery is that 409, and the bill line is keyed by the order anyway).
     */
    move: (hotelId: string, id: string, move: StatusMove) =>
      transactionWithRetry(db, async (trx) => {
        const row = await ordersRepository.lock(trx, hotelId, id);
        if (!row) throw orderNotFound();
        if (!canMove(row.status, move.status))
          throw new ConflictError(messages.illegalMove(row.status, move.status), 'room_service_illegal_move');
        await ordersRepository.move(trx, hotelId, id, move.status, move.reason ?? null);
        if (move.status === 'delivered' || move.status === 'refunded') {
          await deps.bookings.charges.addWithin(trx, hotelId, row.booking_id, billLineOf(row, move.status));
        }
        const order = await presentOne(trx, (await ordersRepository.find(trx, hotelId, id))!);
        await orderUpdated.publish(trx, hotelId, eventOf(order));
        return order;
      }),
  };
}
