import { depositsFixtures } from './deposits.fixtures';
import { defineModule } from '../../platform/modules';
import { depositActivities } from './deposits.activities';
import { depositUpdated } from './deposits.events';
import { depositsRoutes } from './deposits.routes';
import { createDepositsService, type DepositsDependencies } from './deposits.service';
import { overwritten } from '../../platform/personal-data';

/** Security deposits: cash, card holds and charges, taken through the payments module's provider. */
export const depositsModule = defineModule({
  name: 'deposits',
  fixtures: depositsFixtures,
  uses: ['hotels', 'bookings', 'payments', 'minibar', 'notifications'],
  personalData: [overwritten('deposits', 'deposits', 'booking', () => ({ guest_email: null }))],
  create: ({ db, config }, deps: DepositsDependencies) =>
    createDepositsService(db, { ...config, ...deps.payments.moneyConfig }, deps),
  events: [depositUpdated],
  routes: (deposits) => depositsRoutes(deposits),
  activities: (deposits, { db, mailer }, deps) => depositActivities(db, deposits, deps, mailer),
});
