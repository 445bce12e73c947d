import type { Knex } from 'knex';
import { decryptSecret, encryptSecret, type EncryptionKeys } from '../../platform/crypto';
import type { Db } from '../../platform/db/knex';
import type { Storage } from '../../platform/storage';
import { ERASED, type ErasurePlace, type ErasureTarget } from '../../platform/personal-data';
import { retentionRepository, type ErasableGuest, type GuestStay } from './retention.repository';

const present = (values: (string | null | undefined)[]) =>
  values.filter((value): value is string => typeof value === 'string' && value.trim().length > 0);

/** The name in the orders it is written in: "Фамилия Имя Отчество", "Фамилия Имя", "Имя Фамилия", "Имя Отчество Фамилия". */
function namesOf(last: string, first: string, middle: string | null): string[] {
  if (!last || !first || last === ERASED) return [];
  return present([
    middle ? `${last} ${first} ${middle}` : null,
    `${last} ${first}`,
    `${first} ${last}`,
    middle ? `${first} ${middle} ${last}` : null,
  ]);
}

/** The whole values that name the guest and nobody else: never a lone first name or a passport series. */
function needlesOf(guest: ErasableGuest, stays: GuestStay[], encryption: EncryptionKeys): string[] {
  const [series, number] = [guest.passport_series_encrypted, guest.passport_number_encrypted].map((envelope) =>
    envelope ? decryptSecret(envelope, encryption) : null,
  );
  const ownStays = stays.filter((stay) => stay.guest_id === guest.id && stay.is_primary);
  return present([
    ...namesOf(guest.last_name, guest.first_name, guest.middle_name),
    ...ownStays.flatMap((stay) => namesOf(stay.guest_last_name, stay.guest_first_name, stay.guest_middle_name)),
    ...phonesOf(guest),
    guest.email,
    series && number ? `${series} ${number}` : null,
    series && number ? `${series}${number}` : null,
  ]);
}

const phonesOf = (guest: ErasableGuest) =>
  present([guest.phone, guest.phone_normalized, guest.phone_normalized?.replace(/^\+/, '')]);

export async function targetOf(
  trx: Knex.Transaction,
  hotelId: string,
  guests: ErasableGuest[],
  stays: GuestStay[],
  keys: EncryptionKeys,
): Promise<ErasureTarget> {
  const needles = [...new Set(guests.flatMap((guest) => needlesOf(guest, stays, keys)))];
  const surnames = present(guests.map((guest) => (guest.last_name === ERASED ? null : guest.last_name)));
  return {
    hotelId,
    hotelSlug: await retentionRepository.hotelSlug(trx, hotelId),
    guestIds: guests.map((guest) => guest.id),
    bookingIds: [...new Set(stays.filter((stay) => stay.is_primary).map((stay) => stay.booking_id))],
    emails: present(guests.map((guest) => guest.email?.toLowerCase())),
    phones: [...new Set(guests.flatMap(phonesOf))],
    needles,
    linkedNeedles: [...new Set([...needles, ...surnames])],
    erasedDocument: { envelope: encryptSecret(ERASED, keys), keyId: keys.currentKeyId },
  };
}

/**
 * Erases the guests (one hotel) in one transaction: every place a module declares (`personalData`). Objects a place
 * names (the invoice PDFs rendered from their data) are removed from the store after the commit: a failed erasure
 * leaves them in place, a failed removal only an orphan object.
 */
export function createEraser(db: Db, storage: Storage, encryption: EncryptionKeys, places: readonly ErasurePlace[]) {
  async function eraseLocked(trx: Knex.Transaction, hotelId: string, guests: ErasableGuest[]) {
    const ids = guests.map((guest) => guest.id);
    const stays = await retentionRepository.stays(trx, hotelId, ids);
    const target = await targetOf(trx, hotelId, guests, stays, encryption);
    const erased: { place: string; rows: number }[] = [];
    const objects: string[] = [];
    for (const place of places) {
      const { rows, objects: own = [] } = await place.erase(trx, target);
      erased.push({ place: place.place, rows });
      objects.push(...own);
    }
    return { erased, objects };
  }

  /** Objects of an erasure that committed: a key that fails to go stays an orphan no record points at. */
  async function removeObjects(keys: string[]) {
    await Promise.allSettled(keys.map((key) => storage.remove(key)));
  }

  return {
    eraseLocked,
    removeObjects,
    /** Erases those of `ids` still holding data and not staying at `now` (checked under the lock); answers how many. */
    async eraseBatch(hotelId: string, ids: string[], now: Date) {
      const { count, objects } = await db.transaction(async (trx) => {
        const locked = await retentionRepository.lockGuests(trx, hotelId, ids);
        const staying = new Set(await retentionRepository.staying(trx, hotelId, locked, now));
        const guests = locked.filter((guest) => !staying.has(guest.id));
        if (guests.length === 0) return { count: 0, objects: [] };
        return { count: guests.length, objects: (await eraseLocked(trx, hotelId, guests)).objects };
      });
      await removeObjects(objects);
      return count;
    },
  };
}
