import type { DbOrTrx } from '../../platform/db/knex';
import { RENTAL_TEMPLATES } from './rentals.templates';

export const rentalsRepository = {
  async insertTemplates(db: DbOrTrx, hotelId: string): Promise<void> {
    await db('rental_objects').insert(
      RENTAL_TEMPLATES.map((template) => ({ ...template, hotel_id: hotelId, is_active: false })),
    );
  },
};
