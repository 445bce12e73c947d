import { fiscalFixtures } from './fiscal.fixtures';
import { FISCAL_RECEIPT_UNAVAILABLE } from '../../../workflows/contracts/fiscal';
import { defineModule } from '../../platform/modules';
import { fiscalActivities } from './fiscal.activities';
import { fiscalRoutes } from './fiscal.routes';
import { createFiscalService, type FiscalDependencies } from './fiscal.service';
import { erasedBy } from '../../platform/personal-data';
import { receiptsRepository } from './fiscal.repository';

/** 54-FZ receipts printed at the desks' fiscal registers for money taken there. */
export const fiscalModule = defineModule({
  name: 'fiscal',
  fixtures: fiscalFixtures,
  uses: ['agents'],
  personalData: [erasedBy('fiscal_receipts (buyer contact)', 'fiscal_receipts', receiptsRepository.eraseBuyers)],
  create: ({ db }, deps: FiscalDependencies) => createFiscalService(db, deps),
  routes: (fiscal) => fiscalRoutes(fiscal),
  activities: fiscalActivities,
  refusals: { type: FISCAL_RECEIPT_UNAVAILABLE },
});
