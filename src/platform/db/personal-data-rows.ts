import type { Knex } from 'knex';
import type { ErasureTarget } from '../erasure-target';

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

/** The SQL of the erasure builders (`src/platform/personal-data.ts`): a table's rows tied to the guests erased. */
export const personalDataRows = {
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
};
