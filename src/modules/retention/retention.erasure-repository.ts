import type { Knex } from 'knex';
import type { ErasureTarget } from './retention.types';

/** How a table's rows are tied to the guests erased: by their indexed link, or (last resort) by the hotel's rows. */
export type Link = 'profile' | 'bookingRow' | 'booking' | 'guest' | 'folio' | 'invoice' | 'hotel' | 'outbox';

const BY_BOOKING: Link[] = ['bookingRow', 'booking', 'folio', 'invoice'];

const likeEscape = (value: string) => `%${value.replace(/[\\%_]/g, '\\$&')}%`;

/** The rows of `table` that belong to the target: the hotel's (always first), narrowed by the link. */
function linked(trx: Knex.Transaction, table: string, link: Link, target: ErasureTarget, columns: string[]) {
  if (link === 'outbox') {
    // The outbox has no hotel column: its rows name the hotel (or the booking) in their search attributes.
    return trx(table)
      .where((own) =>
        own
          .whereRaw("message->'searchAttributes'->>'HotelSlug' = ?", [target.hotelSlug])
          .orWhereRaw("message->'searchAttributes'->>'BookingId' = ANY (?)", [target.bookingIds]),
      )
      .whereRaw('message::text ILIKE ANY (?)', [target.needles.map(likeEscape)]);
  }
  const query = trx(table).where({ hotel_id: target.hotelId });
  if (link === 'profile') return query.whereIn('id', target.guestIds);
  if (link === 'bookingRow') return query.whereIn('id', target.bookingIds);
  if (link === 'booking') return query.whereIn('booking_id', target.bookingIds);
  if (link === 'guest') return query.whereIn('guest_id', target.guestIds);
  if (link === 'folio' || link === 'invoice') {
    const parent = link === 'folio' ? 'folios' : 'invoices';
    return query.whereIn(`${link}_id`, (rows) =>
      rows.from(parent).where({ hotel_id: target.hotelId }).whereIn('booking_id', target.bookingIds).select('id'),
    );
  }
  // No link: the hotel's rows holding one of the guests' distinctive values (whole name, phone, e-mail, document).
  const patterns = target.needles.map(likeEscape);
  return query.where((any) => {
    for (const column of columns) any.orWhereRaw('??::text ILIKE ANY (?)', [column, patterns]);
  });
}

export const erasureRepository = {
  /** Overwrites (or, with `set` null, deletes) the target's rows of `table`; answers how many. */
  async overwrite(
    trx: Knex.Transaction,
    table: string,
    link: Link,
    target: ErasureTarget,
    set: Record<string, unknown> | null,
  ): Promise<number> {
    if (BY_BOOKING.includes(link) && target.bookingIds.length === 0) return 0;
    const rows = linked(trx, table, link, target, []);
    return set ? rows.update(set) : rows.delete();
  },

  /** The target's rows of `table` with `columns` (JSON parsed) and their physical address, locked. */
  async linkedRows(
    trx: Knex.Transaction,
    table: string,
    link: Link,
    target: ErasureTarget,
    columns: string[],
  ): Promise<Record<string, unknown>[]> {
    if (target.needles.length === 0) return [];
    if (BY_BOOKING.includes(link) && target.bookingIds.length === 0) return [];
    return linked(trx, table, link, target, columns)
      .select(trx.raw('ctid::text AS ctid'), ...columns)
      .forUpdate();
  },

  /** One row rewritten by its physical address (read locked in the same transaction). */
  async rewrite(trx: Knex.Transaction, table: string, link: Link, hotelId: string, ctid: string, changes: object) {
    const row = link === 'outbox' ? trx(table) : trx(table).where({ hotel_id: hotelId });
    await row.whereRaw('ctid = ?::tid', [ctid]).update(changes);
  },

  /** Rental bookings of the guests: by their booking, or their own contact columns equal to the guest's. */
  async rentalBookings(trx: Knex.Transaction, target: ErasureTarget, set: Record<string, unknown>): Promise<number> {
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
      .update(set);
  },

  /** Fiscal receipts keep what the register printed: only the buyer's contact (equal to the guest's) is replaced. */
  async fiscalBuyers(trx: Knex.Transaction, target: ErasureTarget, marker: string): Promise<number> {
    const contacts = [...target.phones, ...target.emails];
    if (contacts.length === 0) return 0;
    return trx('fiscal_receipts')
      .where({ hotel_id: target.hotelId })
      .whereRaw("lower(task->'clientInfo'->>'emailOrPhone') = ANY (?)", [contacts.map((c) => c.toLowerCase())])
      .update({ task: trx.raw("jsonb_set(task, '{clientInfo,emailOrPhone}', to_jsonb(?::text))", [marker]) });
  },

  async reviewOptOuts(trx: Knex.Transaction, target: ErasureTarget): Promise<number> {
    if (target.emails.length === 0) return 0;
    return trx('review_opt_outs').where({ hotel_id: target.hotelId }).whereIn('email', target.emails).delete();
  },

  async hotelSlug(trx: Knex.Transaction, hotelId: string): Promise<string> {
    const hotel = await trx('hotels').where({ id: hotelId }).first('slug');
    return hotel.slug as string;
  },
};
