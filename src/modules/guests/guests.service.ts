import type { SharedSettings } from '../../platform/config';
import { decryptSecret, encryptSecret, type EncryptionKeys } from '../../platform/crypto';
import { refusalsAs } from '../../platform/db/base-model';
import { mapPage, type PageRequest } from '../../platform/db/keyset';
import type { Db, DbOrTrx } from '../../platform/db/knex';
import { ConflictError, NotFoundError, ValidationError } from '../../platform/errors';
import { assertVersion, missingOrStale, type ExpectedVersion } from '../../platform/http/concurrency';
import type { Role } from '../../platform/http/roles';
import { normalizePhone, phoneSearchDigits } from '../../platform/phone';
import { validate } from '../../platform/http/validate';
import { guestsRepository, type DocumentColumns, type GuestColumns, type GuestSearch } from './guests.repository';
import { createGuestBody } from './guests.schemas';
import {
  PASSPORT_FIELDS,
  type BlacklistInput,
  type Guest,
  type GuestFilter,
  type GuestInput,
  type GuestMatchCriteria,
  type GuestPatch,
  type GuestRow,
  type PassportField,
  type PassportValues,
  type Viewer,
} from './guests.types';

export const guestMessages = {
  notFound: 'Гость не найден',
  linkedToBookings: 'Гость указан в бронированиях: удалить его нельзя',
  reasonRequired: 'Укажите причину внесения в чёрный список',
};

/** The roles that see passport data in clear; every other role gets `null` fields and `passport_on_file`. */
export const DOCUMENT_ROLES: readonly Role[] = ['hotel_admin', 'manager', 'receptionist'];

export function canSeeDocuments(role: Role): boolean {
  return DOCUMENT_ROLES.includes(role);
}

const ENVELOPE_COLUMNS = {
  passport_series: 'passport_series_encrypted',
  passport_number: 'passport_number_encrypted',
  passport_issued_by: 'passport_issued_by_encrypted',
  passport_issue_date: 'passport_issue_date_encrypted',
} as const satisfies Record<PassportField, keyof DocumentColumns>;

/** Lower-cased, ё read as е: how names are stored for search and compared for matching. */
export function foldName(value: string): string {
  return value.toLowerCase().replace(/ё/g, 'е').replace(/\s+/g, ' ').trim();
}

const emptyToNull = (value: string | null | undefined) => (value === undefined ? undefined : value || null);

/** The key id an envelope (`v1.<keyId>.…`) names. */
export function envelopeKeyId(envelope: string): string {
  return envelope.split('.')[1];
}

/** Decrypts the passport envelopes of a row (with whichever configured key each names). */
export function decryptDocuments(row: DocumentColumns, encryption: EncryptionKeys): PassportValues {
  const values = {} as PassportValues;
  for (const field of PASSPORT_FIELDS) {
    const envelope = row[ENVELOPE_COLUMNS[field]];
    values[field] = envelope === null ? null : decryptSecret(envelope, encryption);
  }
  return values;
}

/** Encrypts every present passport value under the current key; the row then names that key (null without any). */
export function encryptDocuments(values: PassportValues, encryption: EncryptionKeys): DocumentColumns {
  const columns = { passport_key_id: null } as DocumentColumns;
  for (const field of PASSPORT_FIELDS) {
    const value = values[field];
    columns[ENVELOPE_COLUMNS[field]] = value === null ? null : encryptSecret(value, encryption);
    if (value !== null) columns.passport_key_id = encryption.currentKeyId;
  }
  return columns;
}

function hasDocuments(row: DocumentColumns): boolean {
  return PASSPORT_FIELDS.some((field) => row[ENVELOPE_COLUMNS[field]] !== null);
}

/**
 * The stored columns of `input` (only the fields it names). Passport changes re-encrypt all four fields under the
 * current key, merged with the row's current values, so one key id always describes the whole row.
 */
function toColumns(input: GuestPatch, encryption: EncryptionKeys, current?: GuestRow): GuestColumns {
  const { passport_series, passport_number, passport_issued_by, passport_issue_date, ...plain } = input;
  const columns: GuestColumns = {
    ...plain,
    middle_name: emptyToNull(plain.middle_name),
    phone: emptyToNull(plain.phone),
    email: emptyToNull(plain.email),
    citizenship: emptyToNull(plain.citizenship),
  };
  if (plain.phone !== undefined) columns.phone_normalized = normalizePhone(plain.phone);
  if (plain.last_name !== undefined || plain.first_name !== undefined || plain.middle_name !== undefined) {
    const last = plain.last_name ?? current?.last_name ?? '';
    const first = plain.first_name ?? current?.first_name ?? '';
    const middle = plain.middle_name !== undefined ? plain.middle_name : (current?.middle_name ?? null);
    columns.search_name = foldName([last, first, middle ?? ''].join(' '));
  }
  const passport = { passport_series, passport_number, passport_issued_by, passport_issue_date };
  if (PASSPORT_FIELDS.some((field) => passport[field] !== undefined)) {
    const before = current ? decryptDocuments(current, encryption) : undefined;
    const merged = {} as PassportValues;
    for (const field of PASSPORT_FIELDS) {
      const value = passport[field];
      merged[field] = value === undefined ? (before?.[field] ?? null) : value || null;
    }
    Object.assign(columns, encryptDocuments(merged, encryption));
  }
  for (const key of Object.keys(columns) as Array<keyof GuestColumns>) {
    if (columns[key] === undefined) delete columns[key];
  }
  return columns;
}

/** A stored guest as a member of staff with `role` sees it: never the envelopes, documents only for DOCUMENT_ROLES. */
export function presentGuest(row: GuestRow, role: Role, encryption: EncryptionKeys): Guest {
  const onFile = hasDocuments(row);
  const documents: PassportValues =
    onFile && canSeeDocuments(role)
      ? decryptDocuments(row, encryption)
      : { passport_series: null, passport_number: null, passport_issued_by: null, passport_issue_date: null };
  return {
    id: row.id,
    hotel_id: row.hotel_id,
    last_name: row.last_name,
    first_name: row.first_name,
    middle_name: row.middle_name,
    phone: row.phone,
    email: row.email,
    birth_date: row.birth_date,
    citizenship: row.citizenship,
    ...documents,
    passport_on_file: onFile,
    notes: row.notes,
    is_blacklisted: row.is_blacklisted,
    blacklist_reason: row.blacklist_reason,
    blacklisted_at: row.blacklisted_at,
    blacklisted_by: row.blacklisted_by,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/**
 * `q` as a search: text made only of phone characters with at least 3 digits searches the phones by the digits of
 * platform/phone's search rule, the one the bookings' search uses too: a whole number by its national digits (so
 * `+7 (999) 123-45-67`, `8 999 123-45-67` and `79991234567` find the same guest, whose normal form holds them, as do
 * the typed digits of a phone with no normal form), a part by its digits; anything else is split into words, each of
 * which must match part of the name (last, first, middle) or of the e-mail, case-insensitively.
 */
export function searchOf(filter: GuestFilter): GuestSearch {
  const search: GuestSearch = { blacklisted: filter.blacklisted };
  const q = filter.q?.trim();
  if (!q) return search;
  const digits = q.replace(/\D/g, '');
  if (/^[\d\s()+.-]+$/.test(q) && digits.length >= 3) {
    return { ...search, phoneDigits: phoneSearchDigits(q) };
  }
  return { ...search, words: foldName(q).split(' ') };
}

/**
 * Creates a guest inside the caller's connection or transaction (bookings create their guests this way). The input
 * is validated like `POST /guests` (400 with `body.<field>` details); passport fields are encrypted with the current
 * key. Returns the stored row.
 */
export async function createGuest(
  conn: DbOrTrx,
  hotelId: string,
  input: GuestInput,
  encryption: EncryptionKeys,
): Promise<GuestRow> {
  const valid = validate<GuestInput>(createGuestBody, input, 'body');
  return guestsRepository.insert(conn, hotelId, toColumns(valid, encryption));
}

/**
 * The existing guest a booking's contact details designate: the same phone (normal form) or the same e-mail
 * (case-insensitive), and the same last name (case-insensitive, ё = е). Among several, one matching both phone and
 * e-mail, then one with the same first name, then the most recently updated. Undefined when nothing matches or
 * neither phone nor e-mail is given.
 */
export async function findGuestMatch(
  conn: DbOrTrx,
  hotelId: string,
  criteria: GuestMatchCriteria,
): Promise<GuestRow | undefined> {
  const phoneNormalized = normalizePhone(criteria.phone) ?? undefined;
  const email = criteria.email?.trim().toLowerCase() || undefined;
  const candidates = await guestsRepository.findByContact(conn, hotelId, { phoneNormalized, email });
  const lastName = foldName(criteria.last_name);
  const firstName = foldName(criteria.first_name);
  const score = (row: GuestRow) =>
    (phoneNormalized !== undefined && row.phone_normalized === phoneNormalized ? 1 : 0) +
    (email !== undefined && row.email?.toLowerCase() === email ? 1 : 0) +
    (foldName(row.first_name) === firstName ? 0.5 : 0);
  let best: GuestRow | undefined;
  for (const row of candidates) {
    if (foldName(row.last_name) !== lastName) continue;
    // Candidates come most recently updated first: a tie keeps the earlier one.
    if (!best || score(row) > score(best)) best = row;
  }
  return best;
}

/**
 * Key rotation: re-encrypts the passport envelopes of every guest whose row uses a key other than
 * `encryption.currentKeyId` (every configured key still decrypts), `batchSize` guests per transaction, in id order.
 * Idempotent: a second run finds nothing to do. `hotelId` limits it to one hotel. A row under a key that is not
 * configured stops the run with an error naming the key (configure it, then run again). Returns how many guests
 * were re-encrypted.
 */
export async function reencryptGuestDocuments(
  db: Db,
  encryption: EncryptionKeys,
  batchSize = 500,
  options: { hotelId?: string } = {},
): Promise<{ reencrypted: number }> {
  const limit = Math.max(1, Math.floor(batchSize));
  let reencrypted = 0;
  let afterId: string | undefined;
  for (;;) {
    const batch = await db.transaction(async (trx) => {
      const rows = await guestsRepository.lockWithOtherKey(trx, encryption.currentKeyId, {
        afterId,
        limit,
        hotelId: options.hotelId,
      });
      for (const row of rows) {
        const unknown = PASSPORT_FIELDS.map((field) => row[ENVELOPE_COLUMNS[field]])
          .filter((envelope): envelope is string => envelope !== null)
          .map(envelopeKeyId)
          .find((keyId) => !encryption.keys[keyId]);
        if (unknown !== undefined) {
          throw new Error(`guest ${row.id}: passport data is encrypted with key "${unknown}", which is not configured`);
        }
        await guestsRepository.setDocuments(
          trx,
          row.hotel_id,
          row.id,
          encryptDocuments(decryptDocuments(row, encryption), encryption),
        );
      }
      return rows;
    });
    reencrypted += batch.length;
    if (batch.length < limit) return { reencrypted };
    afterId = batch[batch.length - 1].id;
  }
}

export function createGuestsService(db: Db, config: Pick<SharedSettings, 'encryption'>) {
  const { encryption } = config;
  const present = (row: GuestRow, viewer: Viewer) => presentGuest(row, viewer.role, encryption);

  const guestMissingOrStale = (hotelId: string, id: string, expected: ExpectedVersion | undefined) =>
    missingOrStale(expected, () => guestsRepository.find(db, hotelId, id), new NotFoundError(guestMessages.notFound));

  async function getRow(hotelId: string, id: string): Promise<GuestRow> {
    const row = await guestsRepository.find(db, hotelId, id);
    if (!row) throw new NotFoundError(guestMessages.notFound);
    return row;
  }

  return {
    /** A guest profile of the hotel, or undefined. */
    find: (hotelId: string, id: string, conn: DbOrTrx = db) => guestsRepository.find(conn, hotelId, id),

    /**
     * The profiles reached by a phone or an e-mail, whatever the name: the public widget refuses a blacklisted guest
     * by contact (a changed name does not get past it) and lets a returning guest see only their first name.
     */
    async byContact(hotelId: string, contact: { phone?: string | null; email?: string | null }) {
      const rows = await guestsRepository.findByContact(db, hotelId, {
        phoneNormalized: normalizePhone(contact.phone) ?? undefined,
        email: contact.email?.trim().toLowerCase() || undefined,
      });
      return rows.map((row) => ({ first_name: row.first_name, blacklisted: row.is_blacklisted }));
    },

    /**
     * The guest profile a booking is for, in the booking's transaction: the one it names (undefined when the hotel
     * has none by that id), else an existing one its contact details match, else a new one; and whether that guest
     * is blacklisted.
     */
    async forBooking(
      trx: DbOrTrx,
      hotelId: string,
      request: { guestId?: string; person: GuestInput },
    ): Promise<{ id: string; blacklisted: boolean } | undefined> {
      if (request.guestId) {
        const named = await guestsRepository.find(trx, hotelId, request.guestId);
        return named && { id: named.id, blacklisted: named.is_blacklisted };
      }
      const guest =
        (await findGuestMatch(trx, hotelId, request.person)) ??
        (await createGuest(trx, hotelId, request.person, encryption));
      return { id: guest.id, blacklisted: guest.is_blacklisted };
    },

    async list(hotelId: string, viewer: Viewer, { limit, cursor, ...filter }: GuestFilter & PageRequest) {
      const page = await guestsRepository.list(db, hotelId, searchOf(filter), { limit, cursor });
      return mapPage(page, (row) => present(row, viewer));
    },

    async get(hotelId: string, viewer: Viewer, id: string): Promise<Guest> {
      return present(await getRow(hotelId, id), viewer);
    },

    async create(hotelId: string, viewer: Viewer, input: GuestInput): Promise<Guest> {
      return present(await createGuest(db, hotelId, input, encryption), viewer);
    },

    async update(
      hotelId: string,
      viewer: Viewer,
      id: string,
      input: GuestPatch,
      expected?: ExpectedVersion,
    ): Promise<Guest> {
      const row = await db.transaction(async (trx) => {
        const current = await guestsRepository.lock(trx, hotelId, id);
        if (!current) throw new NotFoundError(guestMessages.notFound);
        assertVersion(expected, current.updated_at);
        return guestsRepository.update(trx, hotelId, id, toColumns(input, encryption, current));
      });
      return present(row!, viewer);
    },

    /** Refused (409) while bookings name the guest: their links keep the history. */
    async remove(hotelId: string, id: string, expected?: ExpectedVersion): Promise<void> {
      const deleted = await refusalsAs({ foreignKey: () => new ConflictError(guestMessages.linkedToBookings) }, () =>
        guestsRepository.delete(db, hotelId, id, expected),
      );
      if (!deleted) throw await guestMissingOrStale(hotelId, id, expected);
    },

    /**
     * Blacklisting records the reason, when and by whom (again on a second call, with the new reason); lifting it
     * clears all three.
     */
    async setBlacklist(
      hotelId: string,
      viewer: Viewer,
      id: string,
      input: BlacklistInput,
      expected?: ExpectedVersion,
    ): Promise<Guest> {
      const reason = input.reason?.trim();
      if (input.is_blacklisted && !reason) {
        throw new ValidationError(guestMessages.reasonRequired, [
          { path: 'body.reason', message: guestMessages.reasonRequired },
        ]);
      }
      const row = await guestsRepository.setBlacklist(
        db,
        hotelId,
        id,
        input.is_blacklisted ? { reason: reason!, by: viewer.userId } : null,
        expected,
      );
      if (!row) throw await guestMissingOrStale(hotelId, id, expected);
      return present(row, viewer);
    },
  };
}

export type GuestsService = ReturnType<typeof createGuestsService>;
