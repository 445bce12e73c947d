import { NotFoundError } from '../../platform/errors';
import type { Hotel, HotelsService } from '../hotels';
import type { RoomCategory } from '../rooms';
import { batchedVersionReads, HotelState } from './bookings.inventory-cache';
import type { BookingsRepository, InventoryRoom } from './bookings.repository';

const DAY_MS = 86_400_000;
/** Nights are read in blocks this long, aligned on the calendar, so that overlapping windows share what was read. */
const BLOCK_NIGHTS = 32;
/**
 * A hotel's cached state is dropped this long after it was first read even if its version has not moved: a safety
 * net for writes no trigger sees (a restored dump, triggers disabled by hand).
 */
const STATE_TTL_MS = 60_000;
const MAX_HOTELS = 100;

/** A room with, for each night asked, whether it can be sold that night. */
export interface RoomNights extends InventoryRoom {
  free: boolean[];
}

/** Days since 1970-01-01 of a calendar date, and back: exact arithmetic on UTC midnights, no zone involved. */
const dayNumber = (date: string) => Date.parse(`${date}T00:00:00Z`) / DAY_MS;
const calendarDate = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);

/** The calendar dates of `count` nights from `from`. */
export function nightsFrom(from: string, count: number): string[] {
  const first = dayNumber(from);
  return Array.from({ length: count }, (_, night) => calendarDate(first + night));
}

const byRoomNumber = new Intl.Collator('ru', { numeric: true });

/** Rooms in number order, the order the inventory serves them in (a split's tie between rooms follows it). */
export const inNumberOrder = <R extends InventoryRoom>(rooms: R[]) =>
  rooms.sort((a, b) => byRoomNumber.compare(a.number, b.number));

/** The rooms of a category sold to the public: of that category, not closed. */
export const sellableRooms = <R extends InventoryRoom>(rooms: readonly R[], categoryId: string) =>
  rooms.filter((room) => room.category_id === categoryId && !room.closed);

/** The rooms large enough for the party. */
export const roomsFitting = <R extends InventoryRoom>(rooms: readonly R[], guests: number) =>
  rooms.filter((room) => room.max_guests >= guests);

/**
 * What each hotel can sell, night by night, answered from memory. Every answer starts by reading the hotel's
 * inventory version, which triggers move at the commit of any change to its stays, rooms, categories, rates or hours
 * (migration 52): state computed at that version or a later one is served, anything older is dropped. So an answer is
 * never older than the last commit before the request, on any API replica, with no notification to wait for; a request
 * whose answer is known costs a share of one primary-key lookup. After a change, nights are read again per 32-night
 * block, once; a stay is still checked at write time by the room's exclusion constraint.
 */
export function createInventory({
  repository: { db, bookings },
  hotels,
}: {
  repository: Pick<BookingsRepository, 'db' | 'bookings'>;
  hotels: Pick<HotelsService, 'find'>;
}) {
  const states = new Map<string, HotelState>();
  const versionOf = batchedVersionReads({ db, bookings });

  async function stateOf(hotelId: string): Promise<HotelState> {
    const version = await versionOf(hotelId);
    const known = states.get(hotelId);
    // State computed at a later version than this request read is fresher still.
    if (known && known.version >= version && known.expiresAt > Date.now()) return known;
    const state = new HotelState(version, Date.now() + STATE_TTL_MS);
    states.delete(hotelId);
    if (states.size >= MAX_HOTELS) states.delete(states.keys().next().value!);
    states.set(hotelId, state);
    return state;
  }

  function snapshotOf(hotelId: string, state: HotelState) {
    const rooms = () =>
      state.derive('base', 'rooms', async () => inNumberOrder(await bookings.inventoryRooms(db, hotelId)));

    /**
     * Block `index`: the nights from day `index * BLOCK_NIGHTS` of the epoch, one byte per room and night (1: can be
     * sold), rooms in `rooms()` order.
     */
    const block = (index: number) =>
      state.derive('block', String(index), async () => {
        const [list, rows] = await Promise.all([
          rooms(),
          bookings.freeNights(db, hotelId, {
            from: calendarDate(index * BLOCK_NIGHTS),
            last: calendarDate((index + 1) * BLOCK_NIGHTS - 1),
          }),
        ]);
        const freeByRoom = new Map(rows.map((row) => [row.room_id, row.free]));
        const nights = new Uint8Array(list.length * BLOCK_NIGHTS);
        list.forEach((room, position) => {
          // A room added between the two reads has no nights here: shown taken, never sold by mistake.
          const free = freeByRoom.get(room.room_id) ?? '';
          for (let night = 0; night < BLOCK_NIGHTS; night++) {
            nights[position * BLOCK_NIGHTS + night] = free[night] === '1' ? 1 : 0;
          }
        });
        return nights;
      });

    return {
      hotel: () =>
        state.derive('base', 'hotel', async (): Promise<Hotel> => {
          const hotel = await hotels.find(hotelId);
          if (!hotel) throw new NotFoundError('Отель не найден');
          return hotel;
        }),

      /** The categories on sale, in the hotel's order. */
      categories: () =>
        state.derive('base', 'categories', (): Promise<RoomCategory[]> => bookings.activeCategories(db, hotelId)),

      /** Every room in number order, with whether it can be sold on each of `count` nights from `from`. */
      async nights(from: string, count: number): Promise<RoomNights[]> {
        const firstDay = dayNumber(from);
        const firstBlock = Math.floor(firstDay / BLOCK_NIGHTS);
        const lastBlock = Math.floor((firstDay + count - 1) / BLOCK_NIGHTS);
        const indexes = Array.from({ length: lastBlock - firstBlock + 1 }, (_, i) => firstBlock + i);
        const [list, blocks] = await Promise.all([rooms(), Promise.all(indexes.map(block))]);
        // Where each night is read: the block holding it, and its place in a room's run of that block.
        const blockOf = new Array<Uint8Array>(count);
        const placeOf = new Array<number>(count);
        for (let night = 0; night < count; night++) {
          const index = Math.floor((firstDay + night) / BLOCK_NIGHTS);
          blockOf[night] = blocks[index - firstBlock];
          placeOf[night] = firstDay + night - index * BLOCK_NIGHTS;
        }
        return list.map((room, position) => {
          const free = new Array<boolean>(count);
          const run = position * BLOCK_NIGHTS;
          for (let night = 0; night < count; night++) free[night] = blockOf[night][run + placeOf[night]] === 1;
          return { ...room, free };
        });
      },

      /** A whole answer, computed once per version; shared by every request asking the same, so never to be changed. */
      answer: <T>(key: string, compute: () => Promise<T>) => state.derive('answer', key, compute),

      /** Any other value that depends only on what the version covers (a quote), computed once per version. */
      derive: <T>(key: string, compute: () => Promise<T>) => state.derive('value', key, compute),
    };
  }

  return {
    /** The hotel as of now: read its version, then serve what is known at that version or compute it. */
    async snapshot(hotelId: string) {
      return snapshotOf(hotelId, await stateOf(hotelId));
    },
  };
}

export type Inventory = ReturnType<typeof createInventory>;
export type InventorySnapshot = Awaited<ReturnType<Inventory['snapshot']>>;
