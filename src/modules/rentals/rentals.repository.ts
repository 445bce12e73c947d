import type { Knex } from 'knex';
import { hotelTable } from '../../platform/db/hotel-table';
import { pageOf, type Page, type PageRequest, type SortKey } from '../../platform/db/keyset';
import type { DbOrTrx } from '../../platform/db/knex';
import { RENTAL_TEMPLATES } from './rentals.templates';
import {
  PUBLIC_OBJECT_FIELDS,
  type OpeningHours,
  type PublicRentalObject,
  type RentalBooking,
  type RentalBookingFilter,
  type RentalObject,
  type RentalObjectInput,
  type Span,
} from './rentals.types';
import { ERASED, type ErasureTarget } from '../../platform/personal-data';

const OBJECT_ORDER: SortKey[] = [
  { sql: 'sort_order', type: 'integer' },
  { sql: 'name', type: 'text' },
  { sql: 'id', type: 'uuid' },
];

const CALENDAR_ORDER: SortKey[] = [
  { sql: 'start_at', type: 'timestamptz' },
  { sql: 'id', type: 'uuid' },
];

export const rentalObjectsRepository = {
  ...hotelTable<RentalObject, RentalObjectInput>('rental_objects'),

  async insertTemplates(db: DbOrTrx, hotelId: string): Promise<void> {
    await db('rental_objects').insert(
      RENTAL_TEMPLATES.map((template) => ({ ...template, hotel_id: hotelId, is_active: false })),
    );
  },

  async list(
    db: DbOrTrx,
    hotelId: string,
    filter: { is_active?: boolean },
    page: PageRequest,
  ): Promise<Page<RentalObject>> {
    const query = db('rental_objects').select('*').where({ hotel_id: hotelId });
    if (filter.is_active !== undefined) query.where({ is_active: filter.is_active });
    return pageOf(db, query, OBJECT_ORDER, page);
  },

  async active(db: DbOrTrx, hotelId: string): Promise<PublicRentalObject[]> {
    return db('rental_objects')
      .where({ hotel_id: hotelId, is_active: true })
      .select(PUBLIC_OBJECT_FIELDS)
      .orderBy(['sort_order', 'name', 'id']);
  },
};

export const rentalBookingsRepository = {
  ...hotelTable<RentalBooking, Partial<RentalBooking>>('rental_bookings'),

  /** The booking, locked until the caller's transaction ends. */
  async lock(db: DbOrTrx, hotelId: string, id: string): Promise<RentalBooking | undefined> {
    return db<RentalBooking>('rental_bookings').where({ hotel_id: hotelId, id }).forUpdate().first();
  },

  async list(
    db: DbOrTrx,
    hotelId: string,
    filter: RentalBookingFilter & { timeZone: string },
    page: PageRequest,
  ): Promise<Page<RentalBooking>> {
    const query = db('rental_bookings')
      .select('*')
      .where({ hotel_id: hotelId })
      .where('end_at', '>', db.raw('(?::date)::timestamp AT TIME ZONE ?', [filter.from, filter.timeZone]))
      .where('start_at', '<', db.raw('(?::date + 1)::timestamp AT TIME ZONE ?', [filter.to, filter.timeZone]));
    if (filter.rental_object_id) query.where({ rental_object_id: filter.rental_object_id });
    if (filter.status) query.where({ status: filter.status });
    return pageOf(db, query, CALENDAR_ORDER, page);
  },

  /** Bookings of the object that hold it (their buffer included) at some moment of `held`, earliest first. */
  async holders(db: DbOrTrx, hotelId: string, objectId: string, held: Span, exceptId?: string) {
    const query = db<RentalBooking>('rental_bookings')
      .where({ hotel_id: hotelId, rental_object_id: objectId })
      .whereNot({ status: 'cancelled' })
      .whereRaw("tstzrange(start_at, blocked_until, '[)') && tstzrange(?, ?, '[)')", [held.start, held.end])
      .orderBy('start_at');
    if (exceptId) query.whereNot({ id: exceptId });
    return query;
  },

  /** From the opening hour of `firstDay` to the closing hour of `lastDay`, local days of the hotel's time zone. */
  async openingSpan(
    db: DbOrTrx,
    timeZone: string,
    firstDay: string,
    lastDay: string,
    hours: OpeningHours,
  ): Promise<Span> {
    const { rows } = await db.raw<{ rows: Span[] }>(
      `SELECT (?::date + make_interval(hours => ?)) AT TIME ZONE ? AS start,
              (?::date + make_interval(hours => ?)) AT TIME ZONE ? AS "end"`,
      [firstDay, hours.open_hour, timeZone, lastDay, hours.close_hour, timeZone],
    );
    return rows[0];
  },

  /** Rental bookings of the guests erased: by their booking, or their own contact columns equal to the guest's. */
  async eraseGuests(trx: Knex.Transaction, target: ErasureTarget): Promise<number> {
    const { bookingIds, phones, emails } = target;
    if (bookingIds.length + phones.length + emails.length === 0) return 0;
    return trx('rental_bookings')
      .where({ hotel_id: target.hotelId })
      .where((own) =>
        own
          .whereIn('booking_id', bookingIds)
          .orWhereIn('guest_phone', phones)
          .orWhereRaw('lower(guest_email) = ANY (?)', [emails]),
      )
      .update({ guest_name: ERASED, guest_phone: ERASED, guest_email: null, comment: '' });
  },
};
