import { ValidationError } from '../../platform/errors';
import { daysBetween } from '../../platform/http/schemas';
import type { Hotel } from '../hotels';
import { MAX_SHIFT_DAYS, shifted, type Offering, type RestrictionsService, type StayDates } from '../restrictions';
import type { InventoryHolds } from './bookings.holds';
import { nightsFrom, type Inventory, type RoomNights } from './bookings.inventory';
import { splitStay } from './bookings.split';

export const MAX_AVAILABILITY_NIGHTS = 93;

export interface AvailabilityWindow {
  from: string;
  to: string;
  category_id?: string;
}

/** Nights read around a stay: `MAX_SHIFT_DAYS` more on each side, where its alternatives may fall. */
export function widened(stay: StayDates) {
  const first = shifted(stay, -MAX_SHIFT_DAYS).check_in;
  return { first, count: daysBetween(stay.check_in, stay.check_out) + 2 * MAX_SHIFT_DAYS };
}

/**
 * Whether one of `rooms` (their nights read from `first`) is free on every night of `stay`: what an alternative must
 * pass besides the restrictions.
 */
export function roomFree(rooms: RoomNights[], first: string, stay: StayDates): boolean {
  const start = daysBetween(first, stay.check_in);
  const end = daysBetween(first, stay.check_out);
  return rooms.some((room) => start >= 0 && end <= room.free.length && room.free.slice(start, end).every(Boolean));
}

/**
 * How many of `rooms` are free on `night` once the units blocks hold then (`held`, by the same night index) are taken
 * off: a held unit is no room in particular, so it takes one of the free rooms (never below none left).
 */
export function freeOn(rooms: readonly Pick<RoomNights, 'free'>[], night: number, held?: readonly number[]): number {
  const free = rooms.reduce((sum, room) => sum + (room.free[night] ? 1 : 0), 0);
  return Math.max(0, free - (held?.[night] ?? 0));
}

/**
 * Whether, after the units blocks hold (`held`, per night from `first`), one of `rooms` is still left on every night
 * of `stay` they hold: a held unit is no room in particular, so it takes one of the category's free rooms off each
 * night (a night nothing is held takes nothing off; whether a room is free then is `roomFree`'s question).
 */
export function leftAfterHolds(rooms: RoomNights[], held: number[] | undefined, first: string, stay: StayDates) {
  if (!held) return true;
  const start = daysBetween(first, stay.check_in);
  const end = daysBetween(first, stay.check_out);
  for (let night = start; night < end; night++) if (held[night] > 0 && freeOn(rooms, night, held) < 1) return false;
  return true;
}

/** What a restrictions service offers the answers that offer stays, and how it reads the database. */
export interface Offerings {
  restrictions: Pick<RestrictionsService, 'offering'>;
  /** The units group blocks hold, taken out of what is offered. */
  holds: Pick<InventoryHolds, 'held'>;
  db: Parameters<RestrictionsService['offering']>[0];
  /** The hotel's today: an answer is kept for one inventory version and one day (the booking window moves daily). */
  todayOf: (hotel: Hotel) => string;
}

/**
 * Per night of the window: which rooms can be sold, and how many per category; per category, whether the window as a
 * stay can be sold (a room free on every night, no restriction broken), why not, and the nearest shifts that can.
 * `wanted`: the rooms asked about, their nights read over the window `widened`.
 */
function availabilityOf(
  window: AvailabilityWindow,
  nightCount: number,
  wanted: RoomNights[],
  held: Map<string, number[]>,
) {
  const { first } = widened({ check_in: window.from, check_out: window.to });
  const inWindow = (free: boolean[]) => free.slice(MAX_SHIFT_DAYS, MAX_SHIFT_DAYS + nightCount);
  const byCategory = new Map<string, RoomNights[]>();
  for (const room of wanted) {
    const list = byCategory.get(room.category_id);
    if (list) list.push(room);
    else byCategory.set(room.category_id, [room]);
  }
  const stays = [...byCategory.keys()].map((category_id) => ({
    category_id,
    tariff_id: null,
    check_in: window.from,
    check_out: window.to,
  }));
  const answer = (offering: Offering) => {
    const categories = stays.map((stay) => {
      const list = byCategory.get(stay.category_id)!;
      const holds = held.get(stay.category_id);
      const free = Array.from({ length: nightCount }, (_, index) => freeOn(list, MAX_SHIFT_DAYS + index, holds));
      const verdict = offering.verdict(
        stay,
        (dates) => roomFree(list, first, dates) && leftAfterHolds(list, holds, first, dates),
      );
      // Rooms free on every night but no one room on all of them: the stay split over rooms, fewest moves (offered
      // only where the units blocks hold leave a room every night).
      const split =
        verdict.sellable || verdict.restrictions.length > 0 || free.some((count) => count < 1)
          ? undefined
          : splitStay(
              list.map((room) => ({ ...room, free: inWindow(room.free) })),
              window.from,
              nightCount,
            );
      return { category_id: stay.category_id, total_rooms: list.length, free, ...verdict, ...(split && { split }) };
    });
    const rooms = wanted.map(({ room_id, category_id, free }) => ({ room_id, category_id, free: inWindow(free) }));
    return { from: window.from, to: window.to, nights: nightsFrom(window.from, nightCount), categories, rooms };
  };
  return { stays, answer };
}

/** Per night of [from, to): which rooms can be sold, and how many per category, with the restrictions applied. */
export function createAvailability(inventory: Inventory, { restrictions, holds, db, todayOf }: Offerings) {
  return async function availability(hotelId: string, window: AvailabilityWindow) {
    const nightCount = daysBetween(window.from, window.to);
    if (!(nightCount >= 1 && nightCount <= MAX_AVAILABILITY_NIGHTS)) {
      throw new ValidationError(`Окно доступности — от 1 до ${MAX_AVAILABILITY_NIGHTS} ночей`);
    }
    const snapshot = await inventory.snapshot(hotelId);
    const hotel = await snapshot.hotel();
    const key = `availability:${window.from}:${window.to}:${window.category_id ?? ''}:${todayOf(hotel)}`;
    return snapshot.answer(key, async () => {
      const wide = widened({ check_in: window.from, check_out: window.to });
      const [nights, held] = await Promise.all([
        snapshot.nights(wide.first, wide.count),
        holds.held(db, hotelId, wide.first, wide.count),
      ]);
      const wanted = nights.filter((room) => !window.category_id || room.category_id === window.category_id);
      const { stays, answer } = availabilityOf(window, nightCount, wanted, held);
      return answer(await restrictions.offering(db, hotel, stays));
    });
  };
}
