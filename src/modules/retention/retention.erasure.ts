import type { Knex } from 'knex';
import { decryptSecret, type EncryptionKeys } from '../../platform/crypto';
import type { Db } from '../../platform/db/knex';
import type { Storage } from '../../platform/storage';
import { ERASURE_PLACES } from './retention.places';
import { retentionRepository, type ErasableGuest, type GuestStay } from './retention.repository';
import type { ErasureTarget } from './retention.types';

/** Values shorter than this are not looked for in free text: they would match unrelated words and numbers. */
const MIN_NEEDLE = 3;

function needlesOf(guest: ErasableGuest, encryption: EncryptionKeys): string[] {
  const documents = [guest.passport_series_encrypted, guest.passport_number_encrypted]
    .filter((envelope): envelope is string => envelope !== null)
    .map((envelope) => decryptSecret(envelope, encryption));
  const fullName = [guest.last_name, guest.first_name, guest.middle_name].filter(Boolean).join(' ');
  return [
    fullName,
    guest.last_name,
    guest.first_name,
    guest.middle_name,
    guest.phone,
    guest.phone_normalized,
    guest.phone_normalized?.replace(/^\+/, ''),
    guest.email,
    ...documents,
  ].filter((value): value is string => typeof value === 'string' && value.trim().length >= MIN_NEEDLE);
}

/** The bookings whose guest columns are one of `guests`: the primary guest's, or carrying the same phone or e-mail. */
function ownBookings(stays: GuestStay[], guests: ErasableGuest[]): string[] {
  const phones = new Set(guests.flatMap((guest) => [guest.phone, guest.phone_normalized]).filter(Boolean));
  const emails = new Set(guests.map((guest) => guest.email?.toLowerCase()).filter(Boolean));
  return stays
    .filter(
      (stay) =>
        stay.is_primary || phones.has(stay.guest_phone) || emails.has(stay.guest_email?.toLowerCase() ?? undefined),
    )
    .map((stay) => stay.booking_id);
}

export function targetOf(hotelId: string, guests: ErasableGuest[], stays: GuestStay[], keys: EncryptionKeys) {
  const target: ErasureTarget = {
    hotelId,
    guestIds: guests.map((guest) => guest.id),
    bookingIds: [...new Set(stays.map((stay) => stay.booking_id))],
    ownBookingIds: [...new Set(ownBookings(stays, guests))],
    emails: guests.map((guest) => guest.email?.toLowerCase()).filter((email): email is string => Boolean(email)),
    phones: guests.flatMap((guest) => [guest.phone, guest.phone_normalized]).filter((p): p is string => Boolean(p)),
    needles: [...new Set(guests.flatMap((guest) => needlesOf(guest, keys)))],
  };
  return target;
}

/**
 * Erases the guests (one hotel) in one transaction: every place in `ERASURE_PLACES`, then the objects rendered from
 * their data (invoice PDFs, removed from the store before the commit, so a failure leaves them to be removed again by
 * the retry). Guests already erased are skipped: running it again changes nothing.
 */
export function createEraser(db: Db, storage: Storage, encryption: EncryptionKeys) {
  async function eraseLocked(trx: Knex.Transaction, hotelId: string, guests: ErasableGuest[]) {
    const stays = await retentionRepository.stays(
      trx,
      hotelId,
      guests.map((guest) => guest.id),
    );
    const target = targetOf(hotelId, guests, stays, encryption);
    const erased: { place: string; rows: number }[] = [];
    for (const place of ERASURE_PLACES) erased.push({ place: place.place, rows: await place.erase(trx, target) });
    const pdfs = await retentionRepository.invoicePdfs(trx, hotelId, target.bookingIds);
    for (const pdf of pdfs) await storage.remove(pdf.pdf_key);
    await retentionRepository.forgetInvoicePdfs(
      trx,
      hotelId,
      pdfs.map((pdf) => pdf.id),
    );
    erased.push({ place: 'object store (invoice PDFs)', rows: pdfs.length });
    return erased;
  }

  return {
    eraseLocked,
    /** Erases those of `ids` not erased yet; answers how many it erased. */
    eraseBatch: (hotelId: string, ids: string[]) =>
      db.transaction(async (trx) => {
        const guests = await retentionRepository.lockGuests(trx, hotelId, ids);
        if (guests.length > 0) await eraseLocked(trx, hotelId, guests);
        return guests.length;
      }),
  };
}
