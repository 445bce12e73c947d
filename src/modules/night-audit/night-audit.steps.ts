import type { Db } from '../../platform/db/knex';
import { ConflictError } from '../../platform/errors';
import type { BookingsService } from '../bookings';
import type { FoliosService } from '../folios';
import type { HotelsService } from '../hotels';
import type { HousekeepingService } from '../housekeeping';
import { dayFigures } from './night-audit.figures';
import { dayRepository, snapshotsRepository } from './night-audit.repository';

export interface StepsDependencies {
  hotels: Pick<HotelsService, 'find'>;
  bookings: Pick<BookingsService, 'lifecycle'>;
  housekeeping: Pick<HousekeepingService, 'markStayovers'>;
  folios: Pick<FoliosService, 'postNight' | 'settings'>;
}

/**
 * The audit's steps, each idempotent and answering the rows it changed. Those before the close do nothing for a day
 * already closed (a re-run changes nothing); the snapshot is written once and each report sent once.
 */
export function createAuditSteps(db: Db, deps: StepsDependencies) {
  /** Closed through that day, or a hotel gone (nothing left to do for it either). */
  async function isClosed(hotelId: string, date: string): Promise<boolean> {
    const settings: { closed_through: string | null } | undefined = await deps.folios.settings.get(hotelId);
    if (!settings) return true;
    return settings.closed_through !== null && settings.closed_through >= date;
  }

  async function inHouse(hotelId: string, date: string) {
    const hotel = await deps.hotels.find(hotelId);
    return hotel ? dayRepository.inHouse(db, hotelId, date, hotel.timezone) : [];
  }

  return {
    /** Each in-house stay's night and tourist tax of the day (those its check-in posted are there already). */
    async postNights(hotelId: string, date: string): Promise<number> {
      if (await isClosed(hotelId, date)) return 0;
      let written = 0;
      for (const stay of await inHouse(hotelId, date))
        written += await deps.folios.postNight(hotelId, stay.booking_id, date);
      return written;
    },

    /** The hotel's no-shows due by its own rules, cancelled as its no-show sweep does. */
    async cancelNoShows(hotelId: string, date: string): Promise<number> {
      if (await isClosed(hotelId, date)) return 0;
      const { sweeps } = deps.bookings.lifecycle;
      let cancelled = 0;
      for (const due of await sweeps.noShows(hotelId)) if ((await sweeps.cancelNoShow(due)) === 'done') cancelled += 1;
      return cancelled;
    },

    /** The rooms of stays going on past the day, marked for their daily clean. */
    async markStayovers(hotelId: string, date: string): Promise<number> {
      if (await isClosed(hotelId, date)) return 0;
      const stayovers = (await inHouse(hotelId, date)).filter((stay) => stay.stays_on);
      return deps.housekeeping.markStayovers(
        hotelId,
        stayovers.map((stay) => stay.room_id),
      );
    },

    async closeDay(hotelId: string, date: string): Promise<number> {
      if (await isClosed(hotelId, date)) return 0;
      try {
        await deps.folios.settings.closeThrough(hotelId, date);
      } catch (error) {
        // Closed meanwhile (by hand, or by this step's earlier attempt whose answer was lost).
        if (error instanceof ConflictError && (await isClosed(hotelId, date))) return 0;
        throw error;
      }
      return 1;
    },

    async writeSnapshot(hotelId: string, date: string): Promise<number> {
      if ((await snapshotsRepository.exists(db, hotelId, date)) || !(await deps.hotels.find(hotelId))) return 0;
      const snapshot = dayFigures(hotelId, date, await dayRepository.facts(db, hotelId, date));
      return (await snapshotsRepository.insert(db, snapshot)) ? 1 : 0;
    },
  };
}

export type AuditSteps = ReturnType<typeof createAuditSteps>;
