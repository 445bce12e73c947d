import { proxyActivities } from '@temporalio/workflow';
import { refusalOf } from './agent-refusal';
import { agentCommandOptions } from './contracts/agents';
import {
  FISCAL_RECEIPT_UNAVAILABLE,
  type FiscalActivities,
  type FiscalPrintActivities,
  type FiscalReceiptInput,
  type FiscalReceiptStatus,
} from './contracts/fiscal';

const records = proxyActivities<FiscalActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' },
});

/**
 * One 54-FZ receipt (`fiscalReceipt:<receiptId>`): its ATOL task goes to the desk's register by a durable agent
 * command (sent by the fiscal module's activity, so the task stays out of this history) (printed at most once, even if the desk was offline or this worker died meanwhile), and the fiscal
 * attributes, or the register's refusal in words, are recorded: never a silent gap.
 */
export async function fiscalReceipt({
  hotelId,
  receiptId,
  deadlineMs,
}: FiscalReceiptInput): Promise<FiscalReceiptStatus> {
  const ref = { hotelId, receiptId };
  const desk = proxyActivities<FiscalPrintActivities>(agentCommandOptions(deadlineMs));
  try {
    const status = await records.fiscalReceiptStatus(ref);
    if (status !== 'pending') return status;
    const result = await desk.printFiscalReceipt({ ...ref, deadlineMs });
    return await records.markFiscalReceiptPrinted({ ...ref, result });
  } catch (error) {
    const refusal = refusalOf(error, { [FISCAL_RECEIPT_UNAVAILABLE]: 'device_not_found' });
    return records.markFiscalReceiptFailed({ ...ref, error: refusal });
  }
}
