import { ValidationError } from '../../platform/errors';
import { daysBetween } from '../../platform/http/schemas';
import { nightsFrom, type Inventory, type RoomNights } from './bookings.inventory';

export const MAX_AVAILABILITY_NIGHTS = 93;

export interface AvailabilityWindow {
  from: string;
  to: string;
  category_id?: string;
}

/** Per night of the window: which rooms can be sold, and how many per category. */
function availabilityOf(window: AvailabilityWindow, nightCount: number, roomNights: RoomNights[]) {
  const rooms: { room_id: string; category_id: string; free: boolean[] }[] = [];
  const categories = new Map<string, { category_id: string; total_rooms: number; free: number[] }>();
  for (const { room_id, category_id, free } of roomNights) {
    if (window.category_id && category_id !== window.category_id) continue;
    rooms.push({ room_id, category_id, free });
    let category = categories.get(category_id);
    if (!category) {
      category = { category_id, total_rooms: 0, free: new Array<number>(nightCount).fill(0) };
      categories.set(category_id, category);
    }
    category.total_rooms += 1;
    for (let night = 0; night < nightCount; night++) if (free[night]) category.free[night] += 1;
  }
  const nights = nightsFrom(window.from, nightCount);
  return { from: window.from, to: window.to, nights, categories: [...categories.values()], rooms };
}

/** Per night of [from, to): which rooms can be sold, and how many per category. */
export function createAvailability(inventory: Inventory) {
  return async function availability(hotelId: string, window: AvailabilityWindow) {
    const nightCount = daysBetween(window.from, window.to);
    if (!(nightCount >= 1 && nightCount <= MAX_AVAILABILITY_NIGHTS)) {
      throw new ValidationError(`Окно доступности — от 1 до ${MAX_AVAILABILITY_NIGHTS} ночей`);
    }
    const snapshot = await inventory.snapshot(hotelId);
    return snapshot.answer(`availability:${window.from}:${window.to}:${window.category_id ?? ''}`, async () =>
      availabilityOf(window, nightCount, await snapshot.nights(window.from, nightCount)),
    );
  };
}
