import type { DbOrTrx } from '../../platform/db/knex';
import { Hotel, type HotelChanges } from './hotels.model';

export const hotelsRepository = {
  async findById(db: DbOrTrx, hotelId: string): Promise<Hotel | undefined> {
    return Hotel.query(db).findById(hotelId);
  },

  /** The hotel, locked until the transaction ends. */
  async lock(db: DbOrTrx, hotelId: string): Promise<Hotel | undefined> {
    return Hotel.query(db).findById(hotelId).forUpdate();
  },

  async findBySlug(db: DbOrTrx, slug: string): Promise<Hotel | undefined> {
    return Hotel.query(db).findOne({ slug });
  },

  /** Slugs equal to `base` or `base-<n>`, to pick the next free suffix. */
  async slugsLike(db: DbOrTrx, base: string): Promise<string[]> {
    const rows = await Hotel.query(db)
      .select('slug')
      .where('slug', base)
      .orWhereRaw("slug LIKE ? ESCAPE '\\'", [`${base.replace(/[\\%_]/g, '\\$&')}-%`]);
    return rows.map((row) => row.slug);
  },

  async insert(db: DbOrTrx, hotel: Pick<Hotel, 'name' | 'slug' | 'address' | 'phone'>): Promise<Hotel> {
    return Hotel.query(db).insertAndFetch(hotel);
  },

  async update(db: DbOrTrx, hotelId: string, changes: HotelChanges): Promise<Hotel | undefined> {
    return Hotel.query(db).patchAndFetchById(hotelId, changes);
  },
};
