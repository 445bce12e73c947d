import type { Knex } from 'knex';
import { erasureRepository, type Link } from './retention.erasure-repository';
import { ERASED, scrubJson, scrubText } from './retention.scrub';
import type { ErasurePlace, ErasureTarget } from './retention.types';

/** A place whose linked rows are overwritten with fixed values (deleted when `set` is null). */
function overwritten(
  place: string,
  table: string,
  link: Link,
  set: ((trx: Knex.Transaction, target: ErasureTarget) => Record<string, unknown>) | null,
): ErasurePlace {
  return {
    place,
    erase: (trx, target) => erasureRepository.overwrite(trx, table, link, target, set ? set(trx, target) : null),
  };
}

/**
 * A place of free text or JSON where a guest's name, contacts or documents may have been written: in each linked row
 * the values are replaced by the marker where they stand whole; JSON is rewritten string leaf by string leaf, so
 * numbers, ids and dates stay as they were. Linked rows (own bookings, profiles) are scrubbed of the surname too; the
 * hotel's unlinked rows only of the distinctive values.
 */
function scrubbed(table: string, link: Link, columns: { name: string; json?: boolean }[]): ErasurePlace {
  const names = columns.map((column) => column.name);
  return {
    place: `${table} (${names.join(', ')})`,
    async erase(trx, target) {
      const needles = link === 'hotel' || link === 'outbox' ? target.needles : target.linkedNeedles;
      const rows = await erasureRepository.linkedRows(trx, table, link, target, names);
      let changed = 0;
      for (const row of rows) {
        const changes: Record<string, unknown> = {};
        for (const { name, json } of columns) {
          const value = row[name];
          if (value === null || value === undefined) continue;
          const scrubbedValue = json ? scrubJson(value, needles) : scrubText(String(value), needles);
          if (JSON.stringify(scrubbedValue) !== JSON.stringify(value))
            changes[name] = json ? JSON.stringify(scrubbedValue) : scrubbedValue;
        }
        if (Object.keys(changes).length === 0) continue;
        await erasureRepository.rewrite(trx, table, link, target.hotelId, row.ctid as string, changes);
        changed += 1;
      }
      return changed;
    },
  };
}

const guestProfile = (trx: Knex.Transaction) => ({
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
});

/**
 * Every place a guest's personal data lives, each erased in the batch's transaction. A new place (a module that
 * starts keeping guest data) is one more entry here; docs/decisions/retention.md lists them with what each keeps.
 */
export const ERASURE_PLACES: readonly ErasurePlace[] = [
  overwritten('guests', 'guests', 'profile', guestProfile),
  overwritten('bookings (guest name, phone, e-mail, notes)', 'bookings', 'bookingRow', () => ({
    guest_last_name: ERASED,
    guest_first_name: ERASED,
    guest_middle_name: null,
    guest_phone: null,
    guest_email: null,
    notes: '',
  })),
  {
    place: 'rental_bookings',
    erase: (trx, target) =>
      erasureRepository.rentalBookings(trx, target, {
        guest_name: ERASED,
        guest_phone: ERASED,
        guest_email: null,
        comment: '',
      }),
  },
  overwritten('deposits', 'deposits', 'booking', () => ({ guest_email: null })),
  overwritten('review_invitations', 'review_invitations', 'booking', () => ({
    email: ERASED,
    guest_first_name: ERASED,
  })),
  overwritten('reviews', 'reviews', 'booking', () => ({ guest_first_name: ERASED })),
  { place: 'review_opt_outs', erase: (trx, target) => erasureRepository.reviewOptOuts(trx, target) },
  overwritten('wifi_sessions', 'wifi_sessions', 'booking', null),
  overwritten('tourist_tax_exemptions', 'tourist_tax_exemptions', 'booking', (_trx, target) => ({
    document_number_encrypted: target.erasedDocument.envelope,
    document_key_id: target.erasedDocument.keyId,
  })),
  {
    place: 'fiscal_receipts (buyer contact)',
    erase: (trx, target) => erasureRepository.fiscalBuyers(trx, target, ERASED),
  },
  scrubbed('reviews', 'booking', [{ name: 'comment' }]),
  scrubbed('tourist_tax_exemptions', 'booking', [{ name: 'description' }]),
  scrubbed('loyalty_entries', 'guest', [{ name: 'note' }]),
  scrubbed('room_service_orders', 'booking', [{ name: 'note' }, { name: 'cancel_reason' }]),
  scrubbed('booking_payments', 'booking', [{ name: 'note' }]),
  scrubbed('booking_charges', 'booking', [{ name: 'description' }]),
  scrubbed('folio_lines', 'folio', [{ name: 'description' }]),
  scrubbed('invoices', 'booking', [{ name: 'payer', json: true }]),
  scrubbed('invoice_lines', 'invoice', [{ name: 'description' }]),
  scrubbed('invoice_emails', 'invoice', [{ name: 'to' }]),
  scrubbed('housekeeping_tasks', 'booking', [{ name: 'notes' }, { name: 'resolution_notes' }]),
  scrubbed('tv_push_log', 'booking', [{ name: 'detail' }]),
  scrubbed('agent_commands', 'hotel', [
    { name: 'payload', json: true },
    { name: 'result', json: true },
    { name: 'error', json: true },
  ]),
  scrubbed('notifications', 'hotel', [{ name: 'title' }, { name: 'body' }, { name: 'data', json: true }]),
  scrubbed('realtime_events', 'hotel', [{ name: 'payload', json: true }]),
  scrubbed('idempotency_keys', 'hotel', [{ name: 'response_body', json: true }]),
  scrubbed('outbox', 'outbox', [{ name: 'message', json: true }]),
  scrubbed('chat_messages', 'hotel', [{ name: 'text' }]),
];
