import { addDays } from '../../platform/dates';
import { randomUUID } from 'node:crypto';
import type { Db, DbOrTrx } from '../../platform/db/knex';
import { enqueueOutbox, startWorkflowMessage } from '../../platform/db/outbox';
import { transactionWithRetry } from '../../platform/db/retry';
import { ConflictError, NotFoundError } from '../../platform/errors';
import type { ExpectedVersion } from '../../platform/http/concurrency';
import type { HotelRef } from '../../platform/http/route';
import { hotelToday } from '../bookings';
import type { FoliosService } from '../folios';
import type { NotificationsService } from '../notifications';
import type { ReportsService } from '../reports';
import {
  nightAuditIds,
  type NightAuditScheduleWorkflow,
  type NightAuditWorkflow,
} from '../../../workflows/contracts/night-audit';
import { auditSettingsRepository, runsRepository, snapshotsRepository } from './night-audit.repository';
import { createAuditSteps, type StepsDependencies } from './night-audit.steps';
import { RECENT_RUNS, type AuditSettingsInput } from './night-audit.types';
import type { ScheduleTarget } from './night-audit.schedule';

export interface NightAuditDependencies extends StepsDependencies {
  folios: StepsDependencies['folios'] & Pick<FoliosService, 'postings'>;
  notifications: Pick<NotificationsService, 'notify' | 'staffOf'>;
  reports: StepsDependencies['reports'] & Pick<ReportsService, 'daily'>;
}

export const nightAuditMessages = {
  dayOpen: (date: string) => `День ${date} ещё не закончился по часам отеля: закрывать нечего`,
  running: 'Ночной аудит уже идёт',
  hotelGone: 'Отель не найден',
  snapshotNotFound: 'Итогов этого дня нет: день не закрыт ночным аудитом',
  failed: (date: string) => `Ночной аудит за ${date} не выполнен`,
  failedToBegin: 'Ночной аудит не начался',
  closeByAudit: 'Дни этого отеля закрывает ночной аудит: пока он включён, день вручную не закрывается',
};

/**
 * The night audit: per hotel, its settings (kept in step with its Temporal schedule), the day ready to close (the
 * last day ended on the hotel's clock and not closed yet), its runs, its snapshots, and the steps its workflow runs.
 */
export function createNightAuditService(db: Db, deps: NightAuditDependencies) {
  const steps = createAuditSteps(db, deps);

  // While the audit is on it closes each day (audited): a close by hand would close days unaudited.
  deps.folios.settings.guardCloseByHand(async (conn, hotelId) => {
    if ((await auditSettingsRepository.find(conn, hotelId))?.enabled)
      throw new ConflictError(nightAuditMessages.closeByAudit, 'night_audit_enabled');
  });

  /**
   * The day the audit closes next, and whether it has ended on the hotel's clock: the day after the last closed one,
   * so that no day is closed unaudited; the hotel's yesterday when none was ever closed.
   */
  async function dayToClose(conn: DbOrTrx, hotelId: string) {
    const hotel = await deps.hotels.find(hotelId, conn);
    if (!hotel) throw new NotFoundError(nightAuditMessages.hotelGone);
    const today = hotelToday(hotel.timezone);
    const { closed_through } = await deps.folios.settings.get(hotelId);
    const day = closed_through ? addDays(closed_through, 1) : addDays(today, -1);
    return { day, ended: day < today };
  }

  const settingsOf = async (hotelId: string) => auditSettingsRepository.get(db, hotelId);

  return {
    steps,
    getSettings: settingsOf,

    /** Changes the settings and, at their commit, has the worker bring the hotel's schedule to them. */
    async updateSettings(hotel: HotelRef, input: AuditSettingsInput, expected?: ExpectedVersion) {
      await transactionWithRetry(db, async (trx) => {
        await auditSettingsRepository.update(trx, hotel.id, input, expected);
        await enqueueOutbox(trx, {
          kind: 'signalWithStart',
          workflowType: 'nightAuditSchedule',
          workflowId: nightAuditIds.scheduleSync(hotel.id),
          args: [hotel.id] satisfies Parameters<NightAuditScheduleWorkflow>,
          signal: 'syncSchedule',
          signalArgs: [],
          searchAttributes: { HotelSlug: hotel.slug },
          reviveFinished: true,
        });
      });
      return settingsOf(hotel.id);
    },

    /** What the hotel's schedule should be now (null: none, the audit off or the hotel gone). */
    async scheduleTarget(hotelId: string): Promise<ScheduleTarget | null> {
      const [hotel, settings] = await Promise.all([
        deps.hotels.find(hotelId),
        auditSettingsRepository.find(db, hotelId),
      ]);
      if (!hotel || !settings?.enabled) return null;
      return { hotelId, slug: hotel.slug, hour: settings.hour, timezone: hotel.timezone };
    },

    /** The business date, the day the audit closes next, and the last runs. */
    async overview(hotelId: string) {
      const { day, ended } = await dayToClose(db, hotelId);
      const { closed_through } = await deps.folios.settings.get(hotelId);
      return {
        business_date: await deps.folios.postings.businessDate(db, hotelId),
        closed_through,
        day_to_close: day,
        day_ended: ended,
        runs: await runsRepository.recent(db, hotelId, RECENT_RUNS),
      };
    },

    async snapshot(hotelId: string, date: string) {
      const found = await snapshotsRepository.find(db, hotelId, date);
      if (!found) throw new NotFoundError(nightAuditMessages.snapshotNotFound);
      return found;
    },

    /** The audit of the day ready to close, run now (409: that day has not ended, or an audit is going on). */
    async runByHand(hotel: HotelRef) {
      return transactionWithRetry(db, async (trx) => {
        await auditSettingsRepository.get(trx, hotel.id, { forUpdate: true });
        const { day, ended } = await dayToClose(trx, hotel.id);
        if (!ended) throw new ConflictError(nightAuditMessages.dayOpen(day), 'night_audit_day_open');
        const workflowId = `night-audit:${hotel.id}:${day}:${randomUUID()}`;
        if (
          (await runsRepository.running(trx, hotel.id)) ||
          !(await runsRepository.claim(trx, hotel.id, day, 'manual', workflowId))
        )
          throw new ConflictError(nightAuditMessages.running, 'night_audit_running');
        await enqueueOutbox(
          trx,
          startWorkflowMessage<NightAuditWorkflow>(
            'nightAudit',
            workflowId,
            [{ hotelId: hotel.id, businessDate: day }],
            {
              HotelSlug: hotel.slug,
            },
          ),
        );
        return (await runsRepository.find(trx, hotel.id, day))!;
      });
    },

    /**
     * The day a run audits, its run taken on: the day named (a run by hand; a closed day is run again and changes
     * nothing), or the day ready to close if it has ended and no other run is going on (a scheduled run, which takes
     * the days one after another). Null: nothing to do now.
     */
    async begin(hotelId: string, workflowId: string, named?: string): Promise<string | null> {
      if (!(await deps.hotels.find(hotelId))) return null;
      if (named) {
        const run = await runsRepository.find(db, hotelId, named);
        if (run?.status === 'succeeded') return named;
        return (await runsRepository.claim(db, hotelId, named, run?.trigger ?? 'manual', workflowId)) ? named : null;
      }
      return transactionWithRetry(db, async (trx) => {
        await auditSettingsRepository.get(trx, hotelId, { forUpdate: true });
        const { day, ended } = await dayToClose(trx, hotelId);
        const running = await runsRepository.running(trx, hotelId);
        if (!ended || (running && running.workflow_id !== workflowId)) return null;
        return (await runsRepository.claim(trx, hotelId, day, 'schedule', workflowId)) ? day : null;
      });
    },

    finish: (hotelId: string, date: string, workflowId: string) =>
      runsRepository.finish(db, hotelId, date, workflowId, null),

    /** The run recorded as failed (the day named, or the one this workflow holds) and the managers told, once per run. */
    async fail(hotelId: string, date: string | null, workflowId: string, reason: string) {
      if (!(await deps.hotels.find(hotelId))) return;
      await transactionWithRetry(db, async (trx) => {
        await runsRepository.finish(trx, hotelId, date, workflowId, reason.slice(0, 2000) || 'failed');
        const title = date ? nightAuditMessages.failed(date) : nightAuditMessages.failedToBegin;
        await deps.notifications.notify(trx, hotelId, {
          type: 'night_audit_failed',
          title,
          body: reason.slice(0, 2000) || title,
          dedupeKey: `night-audit-failed:${workflowId}:${date ?? ''}`.slice(0, 200),
          data: { business_date: date },
        });
      });
    },
  };
}

export type NightAuditService = ReturnType<typeof createNightAuditService>;
