import type { Knex } from 'knex';
import type { GuestsService } from '../guests';
import type { SharedSettings } from '../../platform/config';
import { ConflictError, NotFoundError } from '../../platform/errors';
import type { Db } from '../../platform/db/knex';
import type { ExpectedVersion } from '../../platform/http/concurrency';
import type { Storage } from '../../platform/storage';
import type { RetentionSweepReport } from '../../../workflows/contracts/retention';
import { createEraser } from './retention.erasure';
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

export function createRetentionService(
  db: Db,
  config: Pick<SharedSettings, 'encryption'>,
  storage: Storage,
  deps: RetentionDependencies,
) {
  const eraser = createEraser(db, storage, config.encryption);
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

    /** Everything held about the guest: the profile (documents in clear) and every record of their stays. */
    async exportGuest(hotelId: string, guestId: string) {
      const stored = await guestOf(db, hotelId, guestId);
      const stays = await retentionRepository.stays(db, hotelId, [guestId]);
      const bookingIds = stays.map((stay) => stay.booking_id);
      return {
        exported_at: new Date(),
        erased_at: stored.erased_at,
        guest: await deps.guests.get(hotelId, admin, guestId),
        ...(await retentionRepository.exportRows(db, hotelId, bookingIds, guestId)),
      };
    },

    /** Erases the guest now, unless staying or due: answers what was erased, where, and what was kept and why. */
    eraseNow: (hotelId: string, guestId: string, now = new Date()): Promise<ErasureReport> =>
      db.transaction(async (trx) => {
        await guestOf(trx, hotelId, guestId);
        const stays = await retentionRepository.stays(trx, hotelId, [guestId]);
        const current = stays.some(
          (stay) =>
            stay.status === 'checked_in' || (['inquiry', 'confirmed'].includes(stay.status) && stay.end_at > now),
        );
        if (current) throw new ConflictError(retentionMessages.staying, 'guest_staying');
        const guests = await retentionRepository.lockGuests(trx, hotelId, [guestId]);
        const erased = guests.length > 0 ? await eraser.eraseLocked(trx, hotelId, guests) : [];
        const after = await guestOf(trx, hotelId, guestId);
        return { guest_id: guestId, erased_at: after.erased_at!, erased, kept: KEPT };
      }),

    /** One pass of the daily sweep: a batch of expired guests, erased hotel by hotel. */
    async sweep(now: string): Promise<RetentionSweepReport> {
      const due = await retentionRepository.expired(db, now, SWEEP_BATCH);
      const byHotel = new Map<string, string[]>();
      for (const { hotel_id: hotelId, id } of due) byHotel.set(hotelId, [...(byHotel.get(hotelId) ?? []), id]);
      let erased = 0;
      for (const [hotelId, ids] of byHotel) erased += await eraser.eraseBatch(hotelId, ids);
      return { erased, more: due.length === SWEEP_BATCH };
    },
  };
}

export type RetentionService = ReturnType<typeof createRetentionService>;
