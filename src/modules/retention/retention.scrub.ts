import type { Knex } from 'knex';
import type { ErasurePlace, ErasureTarget } from './retention.types';

/** What an erased value becomes: an anonymous marker, so what the books keep still reads as someone's stay. */
export const ERASED = '[erased]';

/** The rows of the batch's bookings (`booking_id`) or guests (`guest_id`). */
export const ofBookings = (query: Knex.QueryBuilder, target: ErasureTarget) =>
  query.whereIn('booking_id', target.bookingIds);
export const ofGuests = (query: Knex.QueryBuilder, target: ErasureTarget) => query.whereIn('guest_id', target.guestIds);

const likeEscape = (value: string) => value.replace(/[\\%_]/g, '\\$&');
const regexEscape = (value: string) => value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A value as it appears inside JSON text (quotes and backslashes escaped, other characters as they are). */
const asJsonText = (value: string) => JSON.stringify(value).slice(1, -1);

/** Every needle (and its JSON-text form) replaced by the marker, whatever its case. */
export function scrubText(text: string, needles: string[]): string {
  const forms = [...new Set(needles.flatMap((needle) => [needle, asJsonText(needle)]))]
    .filter((form) => form.length > 0)
    .sort((a, b) => b.length - a.length);
  if (forms.length === 0) return text;
  return text.replace(new RegExp(forms.map(regexEscape).join('|'), 'gi'), ERASED);
}

interface ScrubbedColumns {
  table: string;
  columns: { name: string; json?: boolean }[];
  /** Rows without a hotel column (the outbox) are matched by their text alone. */
  unscoped?: boolean;
  /** Only the rows of the batch's bookings or guests are read (a table that links them): no scan of the hotel's. */
  of?: (query: Knex.QueryBuilder, target: ErasureTarget) => Knex.QueryBuilder;
}

/**
 * A place of free text or JSON (payloads, notes, descriptions) where a guest's name, contacts or documents may have
 * been written: each value that holds one has it replaced by the marker, the rest of the value (amounts, ids, dates)
 * left as it was. Rows are found by a case-insensitive match and rewritten by their physical address, locked.
 */
export function scrubbedPlace({ table, columns, unscoped, of }: ScrubbedColumns): ErasurePlace {
  return {
    place: `${table} (${columns.map((column) => column.name).join(', ')})`,
    async erase(trx: Knex.Transaction, target: ErasureTarget) {
      const patterns = [...new Set(target.needles.flatMap((needle) => [needle, asJsonText(needle)]))].map(
        (form) => `%${likeEscape(form)}%`,
      );
      if (patterns.length === 0) return 0;
      const query = trx(table)
        .select(
          trx.raw('ctid::text AS ctid'),
          ...columns.map((column) => trx.raw('??::text AS ??', [column.name, column.name])),
        )
        .where((any) => {
          for (const column of columns) any.orWhereRaw('??::text ILIKE ANY (?)', [column.name, patterns]);
        })
        .forUpdate();
      if (!unscoped) query.where({ hotel_id: target.hotelId });
      of?.(query, target);
      const rows = (await query) as Record<string, string | null>[];
      for (const row of rows) {
        const changes: Record<string, unknown> = {};
        for (const { name, json } of columns) {
          const value = row[name];
          if (value === null) continue;
          const scrubbed = scrubText(value, target.needles);
          if (scrubbed !== value) changes[name] = json ? trx.raw('?::jsonb', [scrubbed]) : scrubbed;
        }
        if (Object.keys(changes).length > 0) await trx(table).whereRaw('ctid = ?::tid', [row.ctid]).update(changes);
      }
      return rows.length;
    },
  };
}
