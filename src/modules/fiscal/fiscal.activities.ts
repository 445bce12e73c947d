import type { FiscalActivities, FiscalPrintActivities } from '../../../workflows/contracts/fiscal';
import { awaitAgentReply } from '../agents';
import type { WorkerContext } from '../../platform/modules';
import type { FiscalDependencies, FiscalService } from './fiscal.service';

/**
 * The fiscal receipt workflow's activities. A receipt or register that is gone (or is no register any more) is a
 * refusal the workflow is told at once, with the words staff read (`FISCAL_RECEIPT_UNAVAILABLE`, the module's).
 */
export function fiscalActivities(
  fiscal: FiscalService,
  _context: WorkerContext,
  { agents }: FiscalDependencies,
): FiscalActivities & FiscalPrintActivities {
  return {
    fiscalReceiptStatus: async ({ hotelId, receiptId }) => (await fiscal.byId(hotelId, receiptId)).status,
    async printFiscalReceipt({ hotelId, receiptId, deadlineMs }) {
      const { receipt, device } = await fiscal.command(hotelId, receiptId);
      return awaitAgentReply(agents, {
        hotelId,
        workstationId: receipt.workstation_id,
        key: `fiscal-receipt:${receipt.id}`,
        type: 'fiscal_receipt',
        payload: { device, task: receipt.task },
        deadlineMs,
      });
    },
    markFiscalReceiptPrinted: async ({ hotelId, receiptId, result }) =>
      (await fiscal.markPrinted(hotelId, receiptId, result)).status,
    markFiscalReceiptFailed: async ({ hotelId, receiptId, error }) =>
      (await fiscal.markFailed(hotelId, receiptId, error)).status,
  };
}
