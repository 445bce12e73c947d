import type { DbOrTrx } from '../../platform/db/knex';
import { Hotel, type HotelChanges } from './hotels.model';

export const hotelsRepository = {
  async findById(db: DbOrTrx, hotelId: string): Promise<Hotel | undefined> {
    return Hotel.query(db).findById(hotelId);
  },

  /**
   * The hotel and the instants a nightly stay in it occupies, in one query: the check-in day at its check-in time to
   * the check-out day at its check-out time, in its zone (as bookings' `nightlySpan` computes them).
   */
  async findWithNightlySpan(
    db: DbOrTrx,
    hotelId: string,
    checkIn: string,
    checkOut: string,
  ): Promise<{ hotel: Hotel; span: { start: Date; end: Date } } | undefined> {
    const found = (await Hotel.query(db)
      .findById(hotelId)
      .select(
        'hotels.*',
        db.raw('(?::date + check_in_time::time) AT TIME ZONE timezone AS span_start', [checkIn]),
        db.raw('(?::date + check_out_time::time) AT TIME ZONE timezone AS span_end', [checkOut]),
      )) as (Hotel & { span_start?: Date; span_end?: Date }) | undefined;
    if (!found) return undefined;
    const span = { start: found.span_start!, end: found.span_end! };
    delete found.span_start;
    delete found.span_end;
    return { hotel: found, span };
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
