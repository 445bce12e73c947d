import type { DepositActivities } from '../../../workflows/contracts/deposits';
import type { Db } from '../../platform/db/knex';
import type { Mailer } from '../../platform/mail';
import { createDepositSteps } from './deposits.steps';
import type { DepositsDependencies, DepositsService } from './deposits.service';

/** The deposit workflow's activities: thin calls into the deposit's steps. */
export function depositActivities(
  db: Db,
  deposits: DepositsService,
  deps: DepositsDependencies,
  mailer: Mailer,
): DepositActivities {
  const steps = createDepositSteps(db, deposits, deps, mailer);
  return {
    createDepositPayment: (hotelId, depositId) => steps.createPayment(hotelId, depositId),
    syncDepositPayment: (hotelId, depositId) => steps.sync(hotelId, depositId),
    expireDepositPayment: (hotelId, depositId) => steps.expire(hotelId, depositId),
    performDepositOperation: (hotelId, depositId, command) => steps.perform(hotelId, depositId, command),
    settleLapsingHold: (hotelId, depositId) => steps.settleLapsingHold(hotelId, depositId),
    sendDepositStatement: (hotelId, depositId) => steps.sendStatement(hotelId, depositId),
  };
}
