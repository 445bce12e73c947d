import type { DbOrTrx } from '../../platform/db/knex';

/** Whom an export is of: the profile, the bookings it is the primary guest of, and its contacts as written. */
export interface ExportSubject {
  hotelId: string;
  guestId: string;
  bookingIds: string[];
  phones: string[];
  emails: string[];
}

/** The rental bookings of the guest's bookings or under the guest's own phone or e-mail. */
const rentalBookingsOf = (db: DbOrTrx, { hotelId, bookingIds, phones, emails }: ExportSubject) =>
  db('rental_bookings')
    .where({ hotel_id: hotelId })
    .where((own) =>
      own
        .whereIn('booking_id', bookingIds)
        .orWhereIn('guest_phone', phones)
        .orWhereRaw('lower(guest_email) = ANY (?)', [emails]),
    )
    .orderBy('start_at')
    .select('*');

export const exportRepository = {
  /** What an export shows of the guest's own bookings and what hangs on them or carries the guest's contact. */
  async rows(db: DbOrTrx, subject: ExportSubject) {
    const { hotelId, bookingIds, guestId } = subject;
    const ofBookings = (table: string) =>
      db(table).where({ hotel_id: hotelId }).whereIn('booking_id', bookingIds).select('*');
    const rentalBookings = await rentalBookingsOf(db, subject);
    const contacts = [...subject.phones, ...subject.emails].map((contact) => contact.toLowerCase());
    const [bookings, consents, deposits, reviews, reviewInvitations, wifiSessions, roomService, exemptions] =
      await Promise.all([
        db('bookings').where({ hotel_id: hotelId }).whereIn('id', bookingIds).orderBy('start_at').select('*'),
        db('personal_data_consents')
          .where({ hotel_id: hotelId })
          .where((own) =>
            own.whereIn('booking_id', bookingIds).orWhereIn(
              'rental_booking_id',
              rentalBookings.map((rental: { id: string }) => rental.id),
            ),
          )
          .select('*'),
        ofBookings('deposits'),
        ofBookings('reviews'),
        db('review_invitations')
          .where({ hotel_id: hotelId })
          .whereIn('booking_id', bookingIds)
          .select('id', 'booking_id', 'email', 'guest_first_name', 'stay_from', 'stay_to', 'sent_at', 'used_at'),
        ofBookings('wifi_sessions'),
        ofBookings('room_service_orders'),
        ofBookings('tourist_tax_exemptions'),
      ]);
    const [invoices, folioLines, fiscalReceipts, loyalty] = await Promise.all([
      db('invoices')
        .where({ hotel_id: hotelId })
        .whereIn('booking_id', bookingIds)
        .select('id', 'booking_id', 'number', 'payer', 'status'),
      db('folio_lines as l')
        .join('folios as f', function joinFolio() {
          this.on('f.hotel_id', 'l.hotel_id').andOn('f.id', 'l.folio_id');
        })
        .where('l.hotel_id', hotelId)
        .whereIn('f.booking_id', bookingIds)
        .select('l.id', 'f.booking_id', 'l.kind', 'l.description', 'l.amount', 'l.created_at'),
      contacts.length === 0
        ? []
        : db('fiscal_receipts')
            .where({ hotel_id: hotelId })
            .whereRaw("lower(task->'clientInfo'->>'emailOrPhone') = ANY (?)", [contacts])
            .select('id', 'source_kind', 'source_id', 'operation', 'created_at', db.raw("task->'clientInfo' AS buyer")),
      db('loyalty_entries').where({ hotel_id: hotelId, guest_id: guestId }).orderBy('created_at'),
    ]);
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
      tourist_tax_exemptions: exemptions as { document_number_encrypted: string; document_key_id: string }[],
      invoices,
      folio_lines: folioLines,
      fiscal_receipts: fiscalReceipts,
    };
  },
};
