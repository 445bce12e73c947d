import type { Db } from '../../platform/db/knex';
import { ConflictError } from '../../platform/errors';
import type { BookingsService } from '../bookings';
import { isClosed, type FoliosService } from '../folios';
import type { HotelsService } from '../hotels';
import type { HousekeepingService } from '../housekeeping';
import type { ReportsService } from '../reports';
import { dayFigures } from './night-audit.figures';
import { dayRepository, runsRepository, snapshotsRepository } from './night-audit.repository';

export interface StepsDependencies {
  hotels: Pick<HotelsService, 'find'>;
  bookings: Pick<BookingsService, 'lifecycle'>;
  housekeeping: Pick<HousekeepingService, 'markStayovers'>;
  folios: Pick<FoliosService, 'postNight' | 'settings'>;
  reports: Pick<ReportsService, 'performance'>;
}

/**
 * The audit's steps, each idempotent and answering the rows it changed. Those before the close do nothing for a day
 * already closed (a re-run changes nothing); the snapshot is written once and each report sent once.
 */
export function createAuditSteps(db: Db, deps: StepsDependencies) {
  /** Closed through that day, or a hotel gone (nothing left to do for it either). */
  async function closed(hotelId: string, date: string): Promise<boolean> {
    const settings: { closed_through: string | null } | undefined = await deps.folios.settings.get(hotelId);
    return !settings || isClosed(settings.closed_through, date);
  }

  /**
   * A step of the day's run, done once: nothing for a closed day, nor for a step the run recorded done (a failed day
   * run again does not make dirty again the rooms cleaned since its first attempt). Answers the rows it changed.
   */
  async function once(hotelId: string, date: string, step: string, work: () => Promise<number>): Promise<number> {
    if (await closed(hotelId, date)) return 0;
    if ((await runsRepository.completedSteps(db, hotelId, date)).includes(step)) return 0;
    const changed = await work();
    await runsRepository.complete(db, hotelId, date, step);
    return changed;
  }

  async function inHouse(hotelId: string, date: string) {
    const hotel = await deps.hotels.find(hotelId);
    return hotel ? dayRepository.inHouse(db, hotelId, date, hotel.timezone) : [];
  }

  return {
    /** Each in-house stay's night and tourist tax of the day (those posted already are left as they are). */
    postNights: (hotelId: string, date: string) =>
      once(hotelId, date, 'nights', async () => {
        let written = 0;
        for (const stay of await inHouse(hotelId, date))
          written += await deps.folios.postNight(hotelId, stay.booking_id, date);
        return written;
      }),

    /** The hotel's no-shows due by its own rules, cancelled as its no-show sweep does. */
    cancelNoShows: (hotelId: string, date: string) =>
      once(hotelId, date, 'no_shows', async () => {
        const { sweeps } = deps.bookings.lifecycle;
        let cancelled = 0;
        for (const due of await sweeps.noShows(hotelId))
          if ((await sweeps.cancelNoShow(due)) === 'done') cancelled += 1;
        return cancelled;
      }),

    /** The rooms of stays going on past the day (the room of each one's night), marked for their daily clean. */
    markStayovers: (hotelId: string, date: string) =>
      once(hotelId, date, 'stayovers', async () => {
        const stayovers = (await inHouse(hotelId, date)).filter((stay) => stay.stays_on);
        return deps.housekeeping.markStayovers(
          hotelId,
          stayovers.map((stay) => stay.room_id),
        );
      }),

    async closeDay(hotelId: string, date: string): Promise<number> {
      if (await closed(hotelId, date)) return 0;
      try {
        await deps.folios.settings.closeThrough(hotelId, date);
      } catch (error) {
        // Closed meanwhile (by this step's earlier attempt whose answer was lost).
        if (error instanceof ConflictError && (await closed(hotelId, date))) return 0;
        throw error;
      }
      return 1;
    },

    async writeSnapshot(hotelId: string, date: string): Promise<number> {
      if ((await snapshotsRepository.exists(db, hotelId, date)) || !(await deps.hotels.find(hotelId))) return 0;
      const [[day], facts] = await Promise.all([
        deps.reports.performance(hotelId, { from: date, to: date }, 'day'),
        dayRepository.facts(db, hotelId, date),
      ]);
      const snapshot = dayFigures(hotelId, date, day, facts);
      return (await snapshotsRepository.insert(db, hotelId, snapshot)) ? 1 : 0;
    },
  };
}
