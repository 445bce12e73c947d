import type { Db } from '../../platform/db/knex';
import { NotFoundError, ValidationError } from '../../platform/errors';
import type { HotelsService } from '../hotels';
import { bookingsRepository } from './bookings.repository';

export const MAX_AVAILABILITY_NIGHTS = 93;

export interface AvailabilityWindow {
  from: string;
  to: string;
  category_id?: string;
}

/** Per night of [from, to): which rooms can be sold, and how many per category. */
export function createAvailability(db: Db, hotels: Pick<HotelsService, 'find'>) {
  return async function availability(hotelId: string, window: AvailabilityWindow) {
    const nightsAsked = (Date.parse(window.to) - Date.parse(window.from)) / 86_400_000;
    if (nightsAsked < 1 || nightsAsked > MAX_AVAILABILITY_NIGHTS) {
      throw new ValidationError(`Окно доступности — от 1 до ${MAX_AVAILABILITY_NIGHTS} ночей`);
    }
    const hotel = await hotels.find(hotelId);
    if (!hotel) throw new NotFoundError('Отель не найден');
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
    return { from: window.from, to: window.to, nights, categories: [...categories.values()], rooms };
  };
}
