import { fiscalFixtures } from './fiscal.fixtures';
import { ApplicationFailure } from '@temporalio/common';
import {
  FISCAL_RECEIPT_UNAVAILABLE,
  type FiscalActivities,
  type FiscalPrintActivities,
} from '../../../workflows/contracts/fiscal';
import { awaitAgentReply } from '../agents';
import { AppError } from '../../platform/errors';
import { defineModule } from '../../platform/modules';
import { fiscalRoutes } from './fiscal.routes';
import { createFiscalService, type FiscalDependencies } from './fiscal.service';

/**
 * A receipt or register that is gone (or is no register any more) will not come back by retrying: the workflow is told
 * at once, with the words staff read.
 */
async function orGone<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof AppError && error.status < 500) {
      throw ApplicationFailure.nonRetryable(error.message, FISCAL_RECEIPT_UNAVAILABLE);
    }
    throw error;
  }
}

/** 54-FZ receipts printed at the desks' fiscal registers for money taken there. */
export const fiscalModule = defineModule({
  name: 'fiscal',
  fixtures: fiscalFixtures,
  uses: ['agents'],
  create: ({ db }, deps: FiscalDependencies) => createFiscalService(db, deps),
  routes: (fiscal) => fiscalRoutes(fiscal),
  activities: (fiscal, _context, { agents }): FiscalActivities & FiscalPrintActivities => ({
    fiscalReceiptStatus: ({ hotelId, receiptId }) => orGone(async () => (await fiscal.byId(hotelId, receiptId)).status),
    async printFiscalReceipt({ hotelId, receiptId, deadlineMs }) {
      const { receipt, device } = await orGone(() => fiscal.command(hotelId, receiptId));
      return awaitAgentReply(agents, {
        hotelId,
        workstationId: receipt.workstation_id,
        key: `fiscal-receipt:${receipt.id}`,
        type: 'fiscal_receipt',
        payload: { device, task: receipt.task },
        deadlineMs,
      });
    },
    markFiscalReceiptPrinted: ({ hotelId, receiptId, result }) =>
      orGone(async () => (await fiscal.markPrinted(hotelId, receiptId, result)).status),
    markFiscalReceiptFailed: ({ hotelId, receiptId, error }) =>
      orGone(async () => (await fiscal.markFailed(hotelId, receiptId, error)).status),
  }),
});
