import type { DepositActivities } from '../../../workflows/contracts/deposits';
import type { Db } from '../../platform/db/knex';
import type { Mailer } from '../../platform/mail';
import { createDepositJobs } from './deposits.jobs';
import type { DepositsDependencies, DepositsService } from './deposits.service';

/** The deposit workflow's activities: thin calls into the deposit's steps. */
export function depositActivities(
  db: Db,
  deposits: DepositsService,
  deps: DepositsDependencies,
  mailer: Mailer,
): DepositActivities {
  const jobs = createDepositJobs(db, deposits, deps, mailer);
  return {
    createDepositPayment: (hotelId, depositId) => jobs.createPayment(hotelId, depositId),
    syncDepositPayment: (hotelId, depositId) => jobs.sync(hotelId, depositId),
    expireDepositPayment: (hotelId, depositId) => jobs.expire(hotelId, depositId),
    performDepositOperation: (hotelId, depositId, command) => jobs.perform(hotelId, depositId, command),
    settleLapsingHold: (hotelId, depositId) => jobs.settleLapsingHold(hotelId, depositId),
    sendDepositStatement: (hotelId, depositId) => jobs.sendStatement(hotelId, depositId),
  };
}
