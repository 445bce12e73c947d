import { ApplicationFailure } from '@temporalio/common';
import type { FiscalActivities } from '../../../workflows/contracts/fiscal';
import { NotFoundError } from '../../platform/errors';
import { defineModule } from '../../platform/modules';
import { fiscalRoutes } from './fiscal.routes';
import { createFiscalService, type FiscalDependencies } from './fiscal.service';

/** A receipt or register that is gone will not come back: the workflow is told at once, not retried. */
async function orGone<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof NotFoundError) throw ApplicationFailure.nonRetryable(error.message, 'FiscalReceiptNotFound');
    throw error;
  }
}

/** 54-FZ receipts printed at the desks' fiscal registers for money taken there. */
export const fiscalModule = defineModule({
  name: 'fiscal',
  uses: ['agents'],
  create: ({ db }, deps: FiscalDependencies) => createFiscalService(db, deps),
  routes: (fiscal) => fiscalRoutes(fiscal),
  activities: (fiscal): FiscalActivities => ({
    fiscalReceiptTask: ({ hotelId, receiptId }) =>
      orGone(async () => {
        const { receipt, device } = await fiscal.command(hotelId, receiptId);
        return {
          status: receipt.status,
          command: {
            hotelId,
            workstationId: receipt.workstation_id,
            key: `fiscal-receipt:${receipt.id}`,
            type: 'fiscal_receipt',
            payload: { device, task: receipt.task },
          },
        };
      }),
    markFiscalReceiptPrinted: ({ hotelId, receiptId, result }) =>
      orGone(async () => (await fiscal.markPrinted(hotelId, receiptId, result)).status),
    markFiscalReceiptFailed: ({ hotelId, receiptId, error }) =>
      orGone(async () => (await fiscal.markFailed(hotelId, receiptId, error)).status),
  }),
});
