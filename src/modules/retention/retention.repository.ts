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
  guest_last_name: string;
  guest_first_name: string;
  guest_middle_name: string | null;
}

/**
 * A guest holding personal data: never erased, or written to again since (edited by the staff, or a booking made
 * with the profile): an erased profile reused is erased again.
 */
const HOLDS_DATA = `(g.erased_at IS NULL OR g.updated_at > g.erased_at OR EXISTS (
   SELECT 1 FROM booking_guests rb JOIN bookings r ON r.hotel_id = rb.hotel_id AND r.id = rb.booking_id
    WHERE rb.hotel_id = g.hotel_id AND rb.guest_id = g.id AND r.created_at > g.erased_at))`;

export const retentionRepository = {
  /**
   * Guests holding data whose hotel's period has passed at `now` since their last stay (or, without one, since their
   * profile was made), with no stay in house or ending later: a batch, across hotels, by hotel, after `after` (the
   * last of the previous batch, so a batch that failed does not hold back the ones after it).
   */
  async expired(
    db: DbOrTrx,
    now: string,
    limit: number,
    after: { hotel_id: string; id: string } | null,
  ): Promise<{ hotel_id: string; id: string }[]> {
    const { rows } = await db.raw<{ rows: { hotel_id: string; id: string }[] }>(
      `SELECT g.hotel_id, g.id
         FROM guests g
         JOIN retention_settings s ON s.hotel_id = g.hotel_id
        WHERE ${HOLDS_DATA}
          AND (g.hotel_id, g.id) > (:afterHotel::uuid, :afterId::uuid)
          AND g.created_at < :now::timestamptz - make_interval(days => s.guest_data_days)
          AND NOT EXISTS (
            SELECT 1 FROM booking_guests bg JOIN bookings b ON b.hotel_id = bg.hotel_id AND b.id = bg.booking_id
             WHERE bg.hotel_id = g.hotel_id AND bg.guest_id = g.id
               AND (b.status = 'checked_in' OR b.end_at >= :now::timestamptz - make_interval(days => s.guest_data_days)))
        ORDER BY g.hotel_id, g.id
        LIMIT :limit`,
      {
        now,
        limit,
        afterHotel: after?.hotel_id ?? '00000000-0000-0000-0000-000000000000',
        afterId: after?.id ?? '00000000-0000-0000-0000-000000000000',
      },
    );
    return rows;
  },

  /** The guests holding data, locked until the transaction ends; those erased meanwhile are left out. */
  async lockGuests(trx: Knex.Transaction, hotelId: string, ids: string[]): Promise<ErasableGuest[]> {
    return trx('guests as g')
      .where('g.hotel_id', hotelId)
      .whereIn('g.id', ids)
      .whereRaw(HOLDS_DATA)
      .orderBy('g.id')
      .forUpdate()
      .select(
        'g.id',
        'g.hotel_id',
        'g.last_name',
        'g.first_name',
        'g.middle_name',
        'g.phone',
        'g.phone_normalized',
        'g.email',
        'g.passport_series_encrypted',
        'g.passport_number_encrypted',
        'g.erased_at',
      );
  },

  /**
   * Those of the (locked) guests with a stay in house or to come at `now`: a booking of theirs checked in, or an
   * inquiry or confirmed one not ended; or a rental booking not cancelled nor ended under their phone or e-mail.
   */
  async staying(trx: Knex.Transaction, hotelId: string, guests: ErasableGuest[], now: Date): Promise<string[]> {
    if (guests.length === 0) return [];
    const ids = guests.map((guest) => guest.id);
    const booked = await trx('booking_guests as bg')
      .join('bookings as b', function joinBooking() {
        this.on('b.hotel_id', 'bg.hotel_id').andOn('b.id', 'bg.booking_id');
      })
      .where('bg.hotel_id', hotelId)
      .whereIn('bg.guest_id', ids)
      .where((current) =>
        current
          .where('b.status', 'checked_in')
          .orWhere((coming) => coming.whereIn('b.status', ['inquiry', 'confirmed']).where('b.end_at', '>', now)),
      )
      .distinct('bg.guest_id');
    const staying = new Set(booked.map((row: { guest_id: string }) => row.guest_id));
    const phones = guests.flatMap((guest) => [guest.phone, guest.phone_normalized]).filter((p): p is string => !!p);
    const emails = guests.map((guest) => guest.email?.toLowerCase()).filter((e): e is string => !!e);
    const rentals: { guest_phone: string; email: string | null }[] = await trx('rental_bookings')
      .where({ hotel_id: hotelId })
      .whereNot('status', 'cancelled')
      .where('end_at', '>', now)
      .where((contact) => contact.whereIn('guest_phone', phones).orWhereRaw('lower(guest_email) = ANY (?)', [emails]))
      .select('guest_phone', trx.raw('lower(guest_email) AS email'));
    for (const guest of guests) {
      const mine = rentals.some(
        (rental) =>
          [guest.phone, guest.phone_normalized].includes(rental.guest_phone) ||
          (guest.email !== null && rental.email === guest.email.toLowerCase()),
      );
      if (mine) staying.add(guest.id);
    }
    return [...staying];
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
        'b.guest_last_name',
        'b.guest_first_name',
        'b.guest_middle_name',
      );
  },

  async hotelSlug(trx: Knex.Transaction, hotelId: string): Promise<string> {
    const hotel = await trx('hotels').where({ id: hotelId }).first('slug');
    return hotel.slug as string;
  },
};
