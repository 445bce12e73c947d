import type { Knex } from 'knex';
import type { DbOrTrx } from '../../platform/db/knex';
import { settingsTable } from '../../platform/db/settings-table';
import type { RetentionSettingsRow } from './retention.types';

export const settingsRepository = settingsTable<RetentionSettingsRow>('retention_settings');

/** A guest as erasure reads it: the contacts and the document envelopes whose values are looked for elsewhere. */
export interface ErasableGuest {
  id: string;
  hotel_id: string;
  last_name: string;
  first_name: string;
  middle_name: string | null;
  phone: string | null;
  phone_normalized: string | null;
  email: string | null;
  passport_series_encrypted: string | null;
  passport_number_encrypted: string | null;
  erased_at: Date | null;
}

export interface GuestStay {
  booking_id: string;
  guest_id: string;
  is_primary: boolean;
  status: string;
  end_at: Date;
  guest_phone: string | null;
  guest_email: string | null;
}

export const retentionRepository = {
  /**
   * Guests not yet erased whose hotel's period has passed at `now` since their last stay (or, without one, since their
   * profile was made), with no stay in house or ending later: a batch, across hotels, by hotel.
   */
  async expired(db: DbOrTrx, now: string, limit: number): Promise<{ hotel_id: string; id: string }[]> {
    const { rows } = await db.raw<{ rows: { hotel_id: string; id: string }[] }>(
      `SELECT g.hotel_id, g.id
         FROM guests g
         JOIN retention_settings s ON s.hotel_id = g.hotel_id
        WHERE g.erased_at IS NULL
          AND g.created_at < :now::timestamptz - make_interval(days => s.guest_data_days)
          AND NOT EXISTS (
            SELECT 1 FROM booking_guests bg JOIN bookings b ON b.hotel_id = bg.hotel_id AND b.id = bg.booking_id
             WHERE bg.hotel_id = g.hotel_id AND bg.guest_id = g.id
               AND (b.status = 'checked_in' OR b.end_at >= :now::timestamptz - make_interval(days => s.guest_data_days)))
        ORDER BY g.hotel_id, g.id
        LIMIT :limit`,
      { now, limit },
    );
    return rows;
  },

  /** The guests, locked until the transaction ends; those erased meanwhile are left out. */
  async lockGuests(trx: Knex.Transaction, hotelId: string, ids: string[]): Promise<ErasableGuest[]> {
    return trx('guests')
      .where({ hotel_id: hotelId })
      .whereIn('id', ids)
      .whereNull('erased_at')
      .orderBy('id')
      .forUpdate()
      .select(
        'id',
        'hotel_id',
        'last_name',
        'first_name',
        'middle_name',
        'phone',
        'phone_normalized',
        'email',
        'passport_series_encrypted',
        'passport_number_encrypted',
        'erased_at',
      );
  },

  async findGuest(db: DbOrTrx, hotelId: string, id: string): Promise<ErasableGuest | undefined> {
    return db('guests').where({ hotel_id: hotelId, id }).first();
  },

  /** Every booking the guests stayed in, with what tells whether its guest columns are theirs. */
  async stays(db: DbOrTrx, hotelId: string, guestIds: string[]): Promise<GuestStay[]> {
    return db('booking_guests as bg')
      .join('bookings as b', function joinBooking() {
        this.on('b.hotel_id', 'bg.hotel_id').andOn('b.id', 'bg.booking_id');
      })
      .where('bg.hotel_id', hotelId)
      .whereIn('bg.guest_id', guestIds)
      .select(
        'b.id as booking_id',
        'bg.guest_id',
        'bg.is_primary',
        'b.status',
        'b.end_at',
        'b.guest_phone',
        'b.guest_email',
      );
  },

  /** Invoices of the bookings whose PDF is in the object store (rendered with the payer's name), locked. */
  async invoicePdfs(
    trx: Knex.Transaction,
    hotelId: string,
    bookingIds: string[],
  ): Promise<{ id: string; pdf_key: string }[]> {
    if (bookingIds.length === 0) return [];
    return trx('invoices')
      .where({ hotel_id: hotelId })
      .whereIn('booking_id', bookingIds)
      .whereNotNull('pdf_key')
      .forUpdate()
      .select('id', 'pdf_key');
  },

  /** The PDFs are rendered again, from the payer as it is now, at their next download. */
  async forgetInvoicePdfs(trx: Knex.Transaction, hotelId: string, ids: string[]): Promise<void> {
    if (ids.length > 0) await trx('invoices').where({ hotel_id: hotelId }).whereIn('id', ids).update({ pdf_key: null });
  },

  /** What an export shows of the guest's bookings and what hangs on them. */
  async exportRows(db: DbOrTrx, hotelId: string, bookingIds: string[], guestId: string) {
    const ofBookings = (table: string) =>
      db(table).where({ hotel_id: hotelId }).whereIn('booking_id', bookingIds).select('*');
    const [bookings, consents, deposits, reviews, reviewInvitations, rentalBookings, wifiSessions, roomService] =
      await Promise.all([
        db('bookings').where({ hotel_id: hotelId }).whereIn('id', bookingIds).orderBy('start_at').select('*'),
        ofBookings('personal_data_consents'),
        ofBookings('deposits'),
        ofBookings('reviews'),
        db('review_invitations')
          .where({ hotel_id: hotelId })
          .whereIn('booking_id', bookingIds)
          .select('id', 'booking_id', 'email', 'guest_first_name', 'stay_from', 'stay_to', 'sent_at', 'used_at'),
        ofBookings('rental_bookings'),
        ofBookings('wifi_sessions'),
        ofBookings('room_service_orders'),
      ]);
    const loyalty = await db('loyalty_entries').where({ hotel_id: hotelId, guest_id: guestId }).orderBy('created_at');
    return {
      bookings,
      consents,
      deposits,
      reviews,
      review_invitations: reviewInvitations,
      rental_bookings: rentalBookings,
      wifi_sessions: wifiSessions,
      room_service_orders: roomService,
      loyalty_entries: loyalty,
    };
  },
};
