import { ValidationError } from '../../platform/errors';
import { daysBetween } from '../../platform/http/schemas';
import type { RestrictionsService } from '../restrictions';
import { nightsFrom, type Inventory, type RoomNights } from './bookings.inventory';
import { freeOn, type AvailabilityWindow, type Offerings } from './bookings.availability';

/** A year and a day: the revenue calendar's longest window (the room-by-room availability stops at 93 nights). */
export const MAX_CALENDAR_NIGHTS = 366;

/**
 * The revenue calendar: per category and night, how many rooms can be sold, and the category-wide restrictions of the
 * night (the nights holding one). Units group blocks hold and have not picked up (`held`, the availability's own
 * holds) are no room to sell: `free` is the free rooms less them. One answer per inventory version (restriction and
 * block writes move it too), so a year of a 200-room hotel is counted once and then served from memory.
 */
export function createAvailabilityCalendar(
  inventory: Inventory,
  { restrictions, holds, db }: Pick<Offerings, 'holds' | 'db'> & { restrictions: Pick<RestrictionsService, 'read'> },
) {
  return async function calendar(hotelId: string, window: AvailabilityWindow) {
    const nightCount = daysBetween(window.from, window.to);
    if (!(nightCount >= 1 && nightCount <= MAX_CALENDAR_NIGHTS)) {
      throw new ValidationError(`Окно календаря — от 1 до ${MAX_CALENDAR_NIGHTS} ночей`);
    }
    const snapshot = await inventory.snapshot(hotelId);
    return snapshot.answer(`calendar:${window.from}:${window.to}:${window.category_id ?? ''}`, async () => {
      const nights = nightsFrom(window.from, nightCount);
      const [rooms, held, restricted] = await Promise.all([
        snapshot.nights(window.from, nightCount),
        holds.held(db, hotelId, window.from, nightCount),
        restrictions.read(hotelId, {
          from: window.from,
          to: nights[nightCount - 1],
          category_id: window.category_id,
          tariff_id: null,
        }),
      ]);
      const categories = new Map<string, RoomNights[]>();
      for (const room of rooms) {
        if (window.category_id && room.category_id !== window.category_id) continue;
        const list = categories.get(room.category_id);
        if (list) list.push(room);
        else categories.set(room.category_id, [room]);
      }
      const none = new Array<number>(nightCount).fill(0);
      return {
        from: window.from,
        to: window.to,
        nights,
        categories: [...categories].map(([categoryId, list]) => ({
          category_id: categoryId,
          total_rooms: list.length,
          free: nights.map((_, night) => freeOn(list, night, held.get(categoryId))),
          held: held.get(categoryId) ?? none,
          restrictions: restricted
            .filter((row) => row.category_id === categoryId)
            .map(({ category_id, tariff_id, ...night }) => night),
        })),
      };
    });
  };
}
