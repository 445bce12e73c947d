import type { Knex } from 'knex';
import { ERASED, ofBookings, ofGuests, scrubbedPlace } from './retention.scrub';
import type { ErasurePlace, ErasureTarget } from './retention.types';

/** A place whose rows belong to the batch's bookings: `set` overwrites them (a delete when `set` is null). */
function bookingRows(table: string, set: ((trx: Knex.Transaction) => Record<string, unknown>) | null): ErasurePlace {
  return {
    place: table,
    async erase(trx, target) {
      if (target.bookingIds.length === 0) return 0;
      const rows = trx(table).where({ hotel_id: target.hotelId }).whereIn('booking_id', target.bookingIds);
      return set ? rows.update(set(trx)) : rows.delete();
    },
  };
}

const guests: ErasurePlace = {
  place: 'guests',
  erase: (trx, target) =>
    trx('guests').where({ hotel_id: target.hotelId }).whereIn('id', target.guestIds).update({
      last_name: ERASED,
      first_name: ERASED,
      middle_name: null,
      search_name: ERASED,
      phone: null,
      phone_normalized: null,
      email: null,
      birth_date: null,
      citizenship: null,
      passport_series_encrypted: null,
      passport_number_encrypted: null,
      passport_issued_by_encrypted: null,
      passport_issue_date_encrypted: null,
      passport_key_id: null,
      notes: '',
      is_blacklisted: false,
      blacklist_reason: null,
      blacklisted_at: null,
      blacklisted_by: null,
      erased_at: trx.fn.now(),
      updated_at: trx.fn.now(),
    }),
};

/** The booking's own copy of its guest (name, phone, e-mail) and the notes the guest or the desk wrote on it. */
const bookings: ErasurePlace = {
  place: 'bookings (guest name, phone, e-mail, notes)',
  async erase(trx, target) {
    if (target.ownBookingIds.length === 0) return 0;
    return trx('bookings').where({ hotel_id: target.hotelId }).whereIn('id', target.ownBookingIds).update({
      guest_last_name: ERASED,
      guest_first_name: ERASED,
      guest_middle_name: null,
      guest_phone: null,
      guest_email: null,
      notes: '',
    });
  },
};

/** Rental bookings keep their guest's contacts without a profile: found by their booking or the same contact. */
const rentalBookings: ErasurePlace = {
  place: 'rental_bookings',
  async erase(trx, target: ErasureTarget) {
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
      .update({ guest_name: ERASED, guest_phone: ERASED, guest_email: null, comment: null });
  },
};

const reviewOptOuts: ErasurePlace = {
  place: 'review_opt_outs',
  erase: async (trx, target) =>
    target.emails.length === 0
      ? 0
      : trx('review_opt_outs').where({ hotel_id: target.hotelId }).whereIn('email', target.emails).delete(),
};

/**
 * Every place a guest's personal data lives, each erased in the batch's transaction. A new place (a module that
 * starts keeping guest data) is one more entry here; docs/decisions/retention.md lists them with what each keeps.
 */
export const ERASURE_PLACES: readonly ErasurePlace[] = [
  guests,
  bookings,
  rentalBookings,
  bookingRows('deposits', () => ({ guest_email: null })),
  bookingRows('review_invitations', () => ({ email: ERASED, guest_first_name: ERASED })),
  bookingRows('reviews', () => ({ guest_first_name: ERASED })),
  reviewOptOuts,
  bookingRows('wifi_sessions', null),
  bookingRows('tourist_tax_exemptions', () => ({ document_number_encrypted: null, document_key_id: null })),
  scrubbedPlace({ table: 'reviews', columns: [{ name: 'comment' }], of: ofBookings }),
  scrubbedPlace({ table: 'tourist_tax_exemptions', columns: [{ name: 'description' }], of: ofBookings }),
  scrubbedPlace({ table: 'loyalty_entries', columns: [{ name: 'note' }], of: ofGuests }),
  scrubbedPlace({
    table: 'room_service_orders',
    columns: [{ name: 'note' }, { name: 'cancel_reason' }],
    of: ofBookings,
  }),
  scrubbedPlace({ table: 'booking_payments', columns: [{ name: 'note' }], of: ofBookings }),
  scrubbedPlace({
    table: 'folio_lines',
    columns: [{ name: 'description' }],
    of: (query, target) =>
      query.whereIn('folio_id', (folios) =>
        folios.from('folios').where({ hotel_id: target.hotelId }).whereIn('booking_id', target.bookingIds).select('id'),
      ),
  }),
  scrubbedPlace({
    table: 'fiscal_receipts',
    columns: [
      { name: 'task', json: true },
      { name: 'fiscal', json: true },
    ],
  }),
  scrubbedPlace({ table: 'invoices', columns: [{ name: 'payer', json: true }], of: ofBookings }),
  scrubbedPlace({ table: 'invoice_emails', columns: [{ name: 'to' }] }),
  scrubbedPlace({
    table: 'agent_commands',
    columns: [
      { name: 'payload', json: true },
      { name: 'result', json: true },
      { name: 'error', json: true },
    ],
  }),
  scrubbedPlace({
    table: 'notifications',
    columns: [{ name: 'title' }, { name: 'body' }, { name: 'data', json: true }],
  }),
  scrubbedPlace({ table: 'realtime_events', columns: [{ name: 'payload', json: true }] }),
  scrubbedPlace({ table: 'idempotency_keys', columns: [{ name: 'response_body', json: true }] }),
  scrubbedPlace({ table: 'outbox', columns: [{ name: 'message', json: true }], unscoped: true }),
  scrubbedPlace({ table: 'housekeeping_tasks', columns: [{ name: 'notes' }, { name: 'resolution_notes' }] }),
  scrubbedPlace({ table: 'chat_messages', columns: [{ name: 'text' }] }),
  scrubbedPlace({ table: 'tv_push_log', columns: [{ name: 'detail' }] }),
];
