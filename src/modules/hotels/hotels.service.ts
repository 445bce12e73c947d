import type { Db } from '../../platform/db/knex';
import { NotFoundError } from '../../platform/errors';
import type { HotelChanges } from './hotels.model';
import { hotelsRepository } from './hotels.repository';

export function createHotelsService(db: Db) {
  return {
    async getHotel(hotelId: string) {
      const hotel = await hotelsRepository.findById(db, hotelId);
      if (!hotel) throw new NotFoundError('Отель не найден');
      return hotel;
    },

    async updateHotel(hotelId: string, changes: HotelChanges) {
      const hotel = await hotelsRepository.update(db, hotelId, changes);
      if (!hotel) throw new NotFoundError('Отель не найден');
      return hotel;
    },

    findBySlug(slug: string) {
      return hotelsRepository.findBySlug(db, slug);
    },
  };
}

export type HotelsService = ReturnType<typeof createHotelsService>;
