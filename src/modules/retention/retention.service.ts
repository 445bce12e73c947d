import type { ErasurePlace } from '../../platform/personal-data';
import type { Knex } from 'knex';
import type { GuestsService } from '../guests';
import type { SharedSettings } from '../../platform/config';
import { ConflictError, NotFoundError } from '../../platform/errors';
import type { Db } from '../../platform/db/knex';
import type { ExpectedVersion } from '../../platform/http/concurrency';
import type { Storage } from '../../platform/storage';
import type { RetentionSweepReport, SweepCursor } from '../../../workflows/contracts/retention';
import { decryptSecret } from '../../platform/crypto';
import { createEraser } from './retention.erasure';
import { exportRepository } from './retention.export-repository';
import { retentionRepository, settingsRepository } from './retention.repository';
import type { ErasureReport, RetentionSettingsChanges } from './retention.types';

export interface RetentionDependencies {
  guests: GuestsService;
}

export const retentionMessages = {
  notFound: 'Гость не найден',
  staying:
    'Гость проживает или у него есть будущее бронирование: данные нужны для этого проживания, удалить их можно после выезда',
};

/** How many guests one pass of the sweep erases (each hotel's share in one transaction). */
export const SWEEP_BATCH = 500;

/** What an erasure keeps, and the law that asks for it: the same answer for every guest. */
export const KEPT: ErasureReport['kept'] = [
  {
    what: 'bookings, folio lines, payments, deposits, invoices and credit notes (amounts, dates, rooms, numbers)',
    why: 'accounting records are kept 5 years (402-FZ art. 29); the person is replaced by an anonymous marker',
  },
  {
    what: 'fiscal receipts (their attributes, amounts, fiscal sign)',
    why: 'fiscal data is kept as the register printed it (54-FZ); the buyer’s contact is replaced by the marker',
  },
  {
    what: 'tourist tax exemptions (category and dates, without the document number)',
    why: 'the tax base and its exemptions are reported to the tax authority (Tax Code ch. 33.1)',
  },
  {
    what: 'loyalty points and reviews (scores), the consents recorded with widget bookings',
    why: 'figures of the hotel, not of the person; a consent is the proof the processing was lawful (152-FZ art. 9)',
  },
];

/** The call's answer, or undefined when it failed (the failure is the sweep's to report, by the guests' ids). */
async function settle<T>(call: () => Promise<T>): Promise<T | undefined> {
  try {
    return await call();
  } catch {
    return undefined;
  }
}

export function createRetentionService(
  db: Db,
  config: Pick<SharedSettings, 'encryption'>,
  storage: Storage,
  personalData: readonly ErasurePlace[],
  deps: RetentionDependencies,
) {
  const eraser = createEraser(db, storage, config.encryption, personalData);
  const admin = { userId: null, role: 'hotel_admin' as const };

  async function guestOf(trx: Knex.Transaction | Db, hotelId: string, guestId: string) {
    const guest = await retentionRepository.findGuest(trx, hotelId, guestId);
    if (!guest) throw new NotFoundError(retentionMessages.notFound);
    return guest;
  }

  return {
    settings: {
      get: (hotelId: string) => settingsRepository.get(db, hotelId),
      update: (hotelId: string, changes: RetentionSettingsChanges, expected?: ExpectedVersion) =>
        db.transaction(async (trx) => {
          await settingsRepository.update(trx, hotelId, changes, expected);
          return settingsRepository.get(trx, hotelId);
        }),
      onHotelCreated: (trx: Knex.Transaction, hotelId: string) => settingsRepository.insertDefaults(trx, hotelId),
    },

    /**
     * Everything held about the guest: the profile (documents in clear), the bookings it is the primary guest of and
     * what hangs on them, what carries its contact (rental bookings, fiscal receipts' buyer), a companion's links.
     */
    async exportGuest(hotelId: string, guestId: string) {
      const stored = await guestOf(db, hotelId, guestId);
      const stays = await retentionRepository.stays(db, hotelId, [guestId]);
      // A companion's stays are another guest's records: only the link is theirs.
      const bookingIds = stays.filter((stay) => stay.is_primary).map((stay) => stay.booking_id);
      const companion = stays.filter((stay) => !stay.is_primary);
      const { tourist_tax_exemptions: exemptions, ...rows } = await exportRepository.rows(db, {
        hotelId,
        guestId,
        bookingIds,
        phones: [stored.phone, stored.phone_normalized].filter((phone): phone is string => Boolean(phone)),
        emails: stored.email ? [stored.email.toLowerCase()] : [],
      });
      return {
        exported_at: new Date(),
        erased_at: stored.erased_at,
        guest: await deps.guests.get(hotelId, admin, guestId),
        ...rows,
        tourist_tax_exemptions: exemptions.map(
          ({ document_number_encrypted: envelope, document_key_id: _key, ...exemption }) => ({
            ...exemption,
            document_number: decryptSecret(envelope, config.encryption),
          }),
        ),
        companion_stays: companion.map((stay) => ({
          booking_id: stay.booking_id,
          status: stay.status,
          end_at: stay.end_at,
        })),
      };
    },

    /** Erases the guest now, unless staying (checked under its lock): answers what was erased, where, what kept. */
    async eraseNow(hotelId: string, guestId: string, now = new Date()): Promise<ErasureReport> {
      const { report, objects } = await db.transaction(async (trx) => {
        await guestOf(trx, hotelId, guestId);
        const guests = await retentionRepository.lockGuests(trx, hotelId, [guestId]);
        if ((await retentionRepository.staying(trx, hotelId, guests, now)).length > 0)
          throw new ConflictError(retentionMessages.staying, 'guest_staying');
        const done = guests.length > 0 ? await eraser.eraseLocked(trx, hotelId, guests) : { erased: [], objects: [] };
        const after = await guestOf(trx, hotelId, guestId);
        return { report: { guest_id: guestId, erased_at: after.erased_at!, erased: done.erased, kept: KEPT }, ...done };
      });
      await eraser.removeObjects(objects);
      return report;
    },

    /**
     * One pass of the daily sweep: a batch of expired guests after `after`, erased hotel by hotel. A hotel whose batch
     * fails is erased guest by guest; a guest that still fails is reported and left for the next day's run, the
     * guests after it erased all the same.
     */
    async sweep(now: string, after: SweepCursor | null = null): Promise<RetentionSweepReport> {
      const due = await retentionRepository.expired(db, now, SWEEP_BATCH, after);
      const byHotel = new Map<string, string[]>();
      for (const { hotel_id: hotelId, id } of due) byHotel.set(hotelId, [...(byHotel.get(hotelId) ?? []), id]);
      let erased = 0;
      const failed: string[] = [];
      for (const [hotelId, ids] of byHotel) {
        const batch = await settle(() => eraser.eraseBatch(hotelId, ids, new Date(now)));
        if (batch !== undefined) {
          erased += batch;
          continue;
        }
        for (const id of ids) {
          const one = await settle(() => eraser.eraseBatch(hotelId, [id], new Date(now)));
          if (one === undefined) failed.push(id);
          else erased += one;
        }
      }
      const last = due.at(-1);
      return {
        erased,
        failed,
        more: due.length === SWEEP_BATCH,
        after: last ? { hotel_id: last.hotel_id, id: last.id } : null,
      };
    },
  };
}

export type RetentionService = ReturnType<typeof createRetentionService>;
