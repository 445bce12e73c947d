import type { SharedSettings } from '../../platform/config';
import type { Db, DbOrTrx } from '../../platform/db/knex';
import type { ExpectedVersion } from '../../platform/http/concurrency';
import { createRateLimiter } from '../../platform/http/rate-limit';
import { NotFoundError } from '../../platform/errors';
import type { HotelsService } from '../hotels';
import { createMenu, type MenuDependencies } from './roomservice.menu';
import { bodyError, notAuthorized, roomServiceMessages as messages } from './roomservice.messages';
import { createOrders, type OrderDependencies } from './roomservice.orders';
import {
  categoriesRepository,
  hotelRoomsRepository,
  itemsRepository,
  settingsRepository,
} from './roomservice.repository';
import { isOpenAt, localTime } from './roomservice.rules';
import { createStays, type GuestCaller, type StayDependencies } from './roomservice.stays';
import { createStatusTokens } from './roomservice.tokens';
import type { NewOrder, RoomServiceSettingsChanges, StayProof } from './roomservice.types';

export type RoomServiceDependencies = MenuDependencies &
  StayDependencies &
  OrderDependencies & { hotels: Pick<HotelsService, 'find' | 'findBySlug'> };

/** The most orders a guest's list shows: a stay's, newest first. */
const GUEST_ORDERS = 50;

/** Room service: the hotel's settings and menu, stays' codes, and the orders guests place to their rooms. */
export function createRoomServiceService(
  db: Db,
  config: Pick<SharedSettings, 'rateLimit' | 'jwtSecret'>,
  deps: RoomServiceDependencies,
) {
  const menu = createMenu(db, deps);
  const stays = createStays(db, createRateLimiter(db, config.rateLimit), deps);
  const tokens = createStatusTokens(config.jwtSecret);
  const orders = createOrders(db, deps, tokens);

  /** The rooms served must be the hotel's own (400 naming the first that is not). */
  async function assertOwnRooms(conn: DbOrTrx, hotelId: string, roomIds: readonly string[]) {
    const own = new Set(await hotelRoomsRepository.among(conn, hotelId, roomIds));
    const index = roomIds.findIndex((roomId) => !own.has(roomId));
    if (index >= 0) throw bodyError(`room_ids.${index}`, messages.unknownRooms);
  }

  /** The hotel a guest's slug names; an unknown one is refused like a stay not proven. */
  async function guestHotel(slug: string) {
    const hotel = await deps.hotels.findBySlug(slug);
    if (!hotel) throw notAuthorized();
    return hotel;
  }

  return {
    settings: {
      get: (hotelId: string) => settingsRepository.get(db, hotelId),

      async update(hotelId: string, changes: RoomServiceSettingsChanges, expected?: ExpectedVersion) {
        return db.transaction(async (trx) => {
          if (changes.room_ids) await assertOwnRooms(trx, hotelId, changes.room_ids);
          await settingsRepository.update(trx, hotelId, changes, expected);
          return settingsRepository.get(trx, hotelId);
        });
      },

      onHotelCreated: settingsRepository.insertDefaults,
    },

    menu,

    stays: { code: stays.code, newCode: stays.newCode },

    orders: {
      list: orders.list,
      get: orders.get,
      move: orders.move,

      /** An order the desk takes for a stay in house (a guest calling), under the same rules as the guest's own. */
      async place(hotelId: string, input: NewOrder & { booking_id: string }, idempotencyKey?: string) {
        const { booking_id: bookingId, ...order } = input;
        const placed = await orders.place(hotelId, { by: 'desk', bookingId }, order, idempotencyKey);
        return { status: placed.status, body: placed.order };
      },
    },

    guest: {
      /** What the proven room may order now: the hours, fee and minimum, and the available menu by category. */
      async config(slug: string, proof: StayProof, caller: GuestCaller) {
        const hotel = await guestHotel(slug);
        const stay = await stays.prove(hotel.id, proof, caller);
        const settings = await settingsRepository.get(db, hotel.id);
        const { timezone, is_active: active } = (await deps.hotels.find(hotel.id))!;
        const enabled = settings.enabled && active;
        const [categories, available] = enabled
          ? await Promise.all([categoriesRepository.all(db, hotel.id), itemsRepository.available(db, hotel.id)])
          : [[], []];
        return {
          enabled,
          open_now: isOpenAt(settings.opens_at, settings.closes_at, localTime(new Date(), timezone)),
          opens_at: settings.opens_at,
          closes_at: settings.closes_at,
          time_zone: timezone,
          delivery_fee: settings.delivery_fee,
          minimum_order: settings.minimum_order,
          room_number: stay.room.number,
          room_served: !settings.room_ids || settings.room_ids.includes(stay.room.id),
          menu: categories
            .map((category) => ({
              id: category.id,
              name: category.name,
              items: available
                .filter((item) => item.category_id === category.id)
                .map(({ id, name, description, price, photo_url }) => ({ id, name, description, price, photo_url })),
            }))
            .filter((category) => category.items.length > 0),
        };
      },

      async place(slug: string, proof: StayProof, input: NewOrder, caller: GuestCaller, idempotencyKey?: string) {
        const hotel = await guestHotel(slug);
        const stay = await stays.prove(hotel.id, proof, caller);
        const placed = await orders.place(hotel.id, { by: 'guest', stay }, input, idempotencyKey);
        return {
          status: placed.status,
          body: { order: placed.order, status_token: tokens.of(hotel.id, placed.order.id) },
        };
      },

      /** The proven stay's orders, newest first (the guest's page after a reload, or on another phone). */
      async stayOrders(slug: string, proof: StayProof, caller: GuestCaller) {
        const hotel = await guestHotel(slug);
        const stay = await stays.prove(hotel.id, proof, caller);
        return (await orders.list(hotel.id, { booking_id: stay.booking.id, limit: GUEST_ORDERS })).items;
      },

      async order(slug: string, id: string, token: string) {
        const hotel = await deps.hotels.findBySlug(slug);
        if (!hotel) throw new NotFoundError(messages.orderNotFound);
        return orders.forGuest(hotel.id, id, token);
      },
    },
  };
}

export type RoomServiceService = ReturnType<typeof createRoomServiceService>;
